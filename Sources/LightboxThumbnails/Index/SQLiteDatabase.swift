import CSQLite

/// A SQLite connection: statements prepared once and run with bound values. Not thread-safe by
/// itself: `LibraryIndex` holds it under its lock.
final class SQLiteDatabase {
    /// What SQLite said went wrong: its code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …) and message.
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { message }
        /// The file is not a database, or its pages are damaged.
        var isDamage: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }
        /// The disk (or the quota) is full.
        var isFull: Bool { code & 0xff == SQLITE_FULL }
        /// The file system failed a read or a write (on a full disk, the shared-memory file's).
        var isInputOutput: Bool { code & 0xff == SQLITE_IOERR }
    }

    /// A value to bind or read.
    enum Value: Equatable {
        case integer(Int64)
        case blob([UInt8])
        case null
    }

    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating) the database file at `path`, never through a symbolic link.
    init(path: ImagePath, readOnly: Bool = false) throws {
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
        // The name's bytes go to open(2) as they are (SQLite calls them UTF-8 but does not check).
        let code = path.withCString { sqlite3_open_v2($0, &handle, flags, nil) }
        guard code == SQLITE_OK else {
            let failure = Failure(code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open")
            sqlite3_close_v2(handle)
            handle = nil
            throw failure
        }
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { close() }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        sqlite3_close_v2(handle)
        handle = nil
    }

    /// Waits up to `milliseconds` for another process's lock before saying `SQLITE_BUSY`.
    func setBusyTimeout(_ milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    /// Runs `sql` (several statements, none binding values).
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        defer { sqlite3_free(error) }
        guard code == SQLITE_OK else { throw Failure(code: code, message: error.map { String(cString: $0) } ?? "error \(code)") }
    }

    /// The rows `sql` gives with `values` bound, each as its columns.
    /// - Complexity: O(*r*) in the rows.
    @discardableResult
    func rows(_ sql: String, _ values: [Value] = []) throws -> [[Value]] {
        var found: [[Value]] = []
        try run(sql, values) { found.append($0) }
        return found
    }

    /// A row being stepped over: its columns read in place, valid only during the call given it.
    struct Row {
        fileprivate let statement: OpaquePointer

        /// Column `column` as an integer; nil when it holds something else.
        func integer(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_INTEGER ? sqlite3_column_int64(statement, column) : nil
        }

        /// Column `column`'s bytes (empty for an empty blob); nil for an integer or a null.
        func blob(_ column: Int32) -> UnsafeRawBufferPointer? {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER, SQLITE_NULL: return nil
            default:
                let count = Int(sqlite3_column_bytes(statement, column))
                guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
                return UnsafeRawBufferPointer(start: bytes, count: count)
            }
        }
    }

    /// Runs `sql` with `values` bound, calling `row` with each row's columns.
    func run(_ sql: String, _ values: [Value], row: ([Value]) -> Void = { _ in }) throws {
        try each(sql, values) { columns in
            row(
                (0..<sqlite3_column_count(columns.statement)).map { column in
                    if let number = columns.integer(column) { return .integer(number) }
                    return columns.blob(column).map { .blob(Array($0)) } ?? .null
                })
        }
    }

    /// Runs `sql` with `values` bound, calling `row` with each row read in place (a large
    /// library's replay: no array of values a row, nor a copy of bytes it does not keep).
    func each(_ sql: String, _ values: [Value], row: (Row) -> Void) throws {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .blob(let bytes): _ = bytes.withUnsafeBytes { lb_sqlite_bind_blob(statement, position, $0.baseAddress, Int32($0.count)) }
            case .null: sqlite3_bind_null(statement, position)
            }
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            row(Row(statement: statement))
        }
    }

    /// One integer from `sql` (a pragma, a count), or nil.
    func integer(_ sql: String, _ values: [Value] = []) throws -> Int64? {
        if case .integer(let number)? = try rows(sql, values).first?.first { return number }
        return nil
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        statements[sql] = statement
        return statement
    }

    private func failure(_ code: Int32) -> Failure {
        Failure(code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(code)")
    }
}
