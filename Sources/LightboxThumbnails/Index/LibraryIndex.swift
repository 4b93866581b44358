import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the scan and the metadata reader learned of files, kept between visits in a SQLite
/// database in Lightbox's cache folder (never on the photos' mount), keyed by the file's path,
/// size and modification time: a file whose size and time still match is not opened again to be
/// recognised, nor read again for its metadata.
///
/// It is a cache: a damaged or foreign database is moved aside and made anew, a full disk or a
/// lock held too long by another Lightbox costs what was not written, and none of it stops the
/// gallery. Safe on several threads; writes wait in memory and go in one transaction.
public final class LibraryIndex: @unchecked Sendable {
    /// Whether the index is used (`--index`).
    public enum Mode: String, CaseIterable, Sendable {
        /// Neither read nor written.
        case off
        /// Read, never written (a shared or read-only cache).
        case read
        /// Read, and what is learned written (the default).
        case on
    }

    /// The database's name in Lightbox's cache folder.
    public static let fileName = "index.sqlite"
    /// The kind kept for a file that is not an image.
    static let notAnImage = Array("-".utf8)
    /// Its layout's version (`PRAGMA user_version`): an index of another is made anew.
    static let schemaVersion: Int64 = 3
    /// Says the file is Lightbox's (`PRAGMA application_id`: "LBix").
    static let applicationID: Int64 = 0x4C42_6978
    /// The most the database may grow to; past it the files used longest ago are forgotten.
    public static let defaultByteLimit = 256 << 20
    /// How much of the database is read through a memory map rather than copied a page at a
    /// time (`PRAGMA mmap_size`): a 100,000-photo replay read its 16 MB through `pread`, a sixth
    /// of its time.
    static let mappedBytes = defaultByteLimit
    /// Records that wait in memory before they are written in one transaction.
    static let writeBatch = 512
    /// How long a write waits for another process's lock (ms); past it the batch is dropped.
    static let busyTimeout: Int32 = 500

    /// A file as the index knows it.
    public struct Record: Hashable, Sendable {
        public var byteCount: Int64
        /// Nanoseconds since the epoch, as `ImageFile.modified`.
        public var modified: Int64
        /// Its kind; nil for a file looked at that is not an image (a sidecar, a text).
        public var format: ImageFormat?
        /// What the metadata reader learned, when it has read the file.
        public var metadata: IndexedMetadata?
        /// Its decision's copy (`decisions(of:)`), when read with the record; never written with it.
        public var decision: KnownDecision?
    }

    /// A photo's decision as last read from its XMP, with the stamp its files had then
    /// (`DecisionStamp`): it stands while they have it still.
    public struct KnownDecision: Hashable, Sendable {
        public var stamp: Int64
        /// Nil: its XMP said nothing.
        public var decision: Decision?
        /// Read from the copy kept in Lightbox's state folder.
        public var isKept: Bool

        public init(stamp: Int64, decision: Decision?, isKept: Bool) {
            self.stamp = stamp
            self.decision = decision
            self.isKept = isKept
        }

        /// As a column: bit 0 set when there is a decision, bit 1 when kept, the rating + 1 from
        /// bit 2, the labels from bit 8.
        var encoded: Int64 {
            Int64(decision == nil ? 0 : 1) | (isKept ? 2 : 0) | Int64((decision?.rating ?? 0) + 1) << 2 | Int64(decision?.labelBits ?? 0) << 8
        }

        /// From its columns; nil for a value Lightbox never writes.
        init?(stamp: Int64, encoded: Int64) {
            let rating = Int(encoded >> 2 & 0x3F) - 1, labels = encoded >> 8
            guard stamp != 0, (-1...5).contains(rating), (0..<0x20).contains(labels), encoded & 1 == 1 || encoded >> 2 == 1 else { return nil }
            var decision = Decision(rating: rating)
            decision.labelBits = UInt8(labels)
            self.init(stamp: stamp, decision: encoded & 1 == 1 ? decision : nil, isKept: encoded & 2 != 0)
        }
    }

    public let mode: Mode
    /// Where the database is, as bytes (a cache folder whose name is not UTF-8 is the one it names).
    public let file: ImagePath
    /// The same, as text for messages.
    public var location: String { file.description }
    private let byteLimit: Int
    private let lock = NSLock()
    private var database: SQLiteDatabase?
    /// Whether its folders say if they were mount points: not in the second layout, read as it is (`IndexMode.read`).
    private var knowsMountPoints = true
    /// Records to write: by absolute path.
    private var pending: [[UInt8]: Record] = [:]
    /// Folders to write: by absolute path, what their listing was.
    private var pendingFolders: [[UInt8]: FolderListing] = [:]
    /// Decisions to write: by the photo's absolute path.
    private var pendingDecisions: [[UInt8]: KnownDecision] = [:]
    /// Files and folders to forget (`forgetGone`): by absolute path, with what is under it.
    private var pendingGone: Set<[UInt8]> = []
    /// Files recognised from the index, and files whose metadata came from it, this run.
    private var recognised = 0, metadataHits = 0, metadataShown = 0
    /// Images shown from the index before the scan looked (`replay`), and items whose
    /// decisions it showed before their sidecars were looked at, this run.
    private var replayed = 0, decisionsShown = 0
    /// Files found in the index today whose last use was another day: their day is written with the next batch.
    private var touched: Set<[UInt8]> = []
    /// What went wrong, under a lock of its own: the UI asks for it each turn, and the index's
    /// lock can be held by a write waiting for another process's (half a second).
    private let problemsLock = NSLock()
    private var problemList: [String] = []
    /// Problems met since the start: `problemList` holds those since the last `takeProblems()`.
    private var problemsMet = 0

    private func note(_ problem: String) {
        problemsLock.withLock {
            problemList.append(problem)
            problemsMet += 1
        }
    }
    private let today: Int64

    /// The index in `folder` (made when missing, 0700), used as `mode` says; nil when off. What
    /// went wrong opening it (a damaged file moved aside, a folder that cannot be written) is in
    /// `takeProblems()`.
    /// `day` (days since 1970) is when its uses count as made, for the pruning.
    public init?(folder: ImagePath, mode: Mode, byteLimit: Int = LibraryIndex.defaultByteLimit, day: Int64 = Int64(time(nil) / 86_400)) {
        guard mode != .off else { return nil }
        self.mode = mode
        self.byteLimit = byteLimit
        file = folder.appending(Array(Self.fileName.utf8))
        today = day
        open(folder: folder)
    }

    /// The index in the folder named by `folder`'s text.
    public convenience init?(folder: String, mode: Mode, byteLimit: Int = LibraryIndex.defaultByteLimit, day: Int64 = Int64(time(nil) / 86_400)) {
        self.init(folder: ImagePath(folder), mode: mode, byteLimit: byteLimit, day: day)
    }

    /// `$XDG_CACHE_HOME/lightbox`, else `~/.cache/lightbox` (the variables' bytes as they are); nil with neither set.
    public static func defaultFolder() -> ImagePath? {
        if let cache = EnvironmentVariable.folder("XDG_CACHE_HOME") { return cache.appending(Array("lightbox".utf8)) }
        if let home = EnvironmentVariable.bytes("HOME") { return ImagePath(bytes: home).appending(Array(".cache/lightbox".utf8)) }
        return nil
    }

    /// Whether the database is open (false once it failed for good).
    public var isOpen: Bool { lock.withLock { database != nil } }

    /// How many problems were met since the start, and the newest of them (for the status line,
    /// while `takeProblems()` still has them for the end).
    public func problemsMetCount() -> (count: Int, last: String?) {
        problemsLock.withLock { (problemsMet, problemList.last) }
    }

    /// What went wrong since the last call, for the status line or standard error.
    public func takeProblems() -> [String] {
        problemsLock.withLock {
            defer { problemList = [] }
            return problemList
        }
    }

    // MARK: Opening

    private func open(folder: ImagePath) {
        if mode == .on, folder.withCString({ mkdir($0, 0o700) }) != 0, errno != EEXIST {
            // A parent missing: made as `mkdir -p` would, each part that is missing.
            let slash = UInt8(ascii: "/")
            var made: [UInt8] = folder.bytes.first == slash ? [slash] : []
            for part in folder.bytes.split(separator: slash) {
                if let last = made.last, last != slash { made.append(slash) }
                made += part
                _ = ImagePath(bytes: made).withCString { mkdir($0, 0o700) }
            }
        }
        do {
            database = try connect()
        } catch let failure as SQLiteDatabase.Failure where failure.isDamage {
            moveAside(because: failure.message)
        } catch {
            // SQLite says "disk I/O error" when the full disk leaves no room for its shared-memory file.
            let reason = isOnFullDisk ? "the disk is full" : "\(error)"
            note("the index \(location) cannot be used (\(reason)): going on without it")
            database = nil
        }
    }

    /// A connection to the database as it should be: ours, of this layout, in WAL mode.
    private func connect() throws -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: file, readOnly: mode == .read)
        db.setBusyTimeout(Self.busyTimeout)
        let application = try db.integer("PRAGMA application_id") ?? 0
        let version = try db.integer("PRAGMA user_version") ?? 0
        let tables = try db.integer("SELECT count(*) FROM sqlite_master") ?? 0
        if application == Self.applicationID, version == Self.schemaVersion { return try ready(db) }
        if application == Self.applicationID, version == 2, mode == .read {
            // Read as it is, no folder a mount point, until a run that may write gains the column.
            knowsMountPoints = false
            return try ready(db)
        }
        if application == Self.applicationID, version == 1 || version == 2, mode == .on {
            // The first layout lacked the decisions, the second whether a folder was a mount
            // point: added, what it holds kept.
            let decisions = version == 1 ? "ALTER TABLE file ADD COLUMN decision_stamp INTEGER; ALTER TABLE file ADD COLUMN decision INTEGER;" : ""
            try db.execute(
                """
                BEGIN IMMEDIATE;
                \(decisions)
                ALTER TABLE folder ADD COLUMN mount INTEGER NOT NULL DEFAULT 0;
                PRAGMA user_version = \(Self.schemaVersion);
                COMMIT;
                """)
            return try ready(db)
        }
        if tables > 0, application != Self.applicationID {
            throw SQLiteDatabase.Failure(code: 26, message: "it is not Lightbox's index")  // SQLITE_NOTADB
        }
        if application == Self.applicationID, version > Self.schemaVersion {
            // A newer Lightbox's (an upgrade undone, or one running beside): left whole for it.
            throw SQLiteDatabase.Failure(code: 1, message: "it is a newer Lightbox's, left as it is")
        }
        guard mode == .on else { throw SQLiteDatabase.Failure(code: 1, message: "it is of another version and may not be written") }
        // New, or another version's: made anew in this layout (it is a cache).
        try db.execute(
            """
            PRAGMA auto_vacuum = INCREMENTAL;
            BEGIN IMMEDIATE;
            DROP TABLE IF EXISTS file;
            CREATE TABLE file (
                path BLOB PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL,
                kind TEXT NOT NULL, metadata BLOB, used INTEGER NOT NULL, decision_stamp INTEGER, decision INTEGER
            ) WITHOUT ROWID;
            CREATE INDEX file_used ON file (used);
            DROP TABLE IF EXISTS folder;
            CREATE TABLE folder (
                path BLOB PRIMARY KEY, mtime INTEGER NOT NULL, listing INTEGER NOT NULL, used INTEGER NOT NULL, mount INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            PRAGMA application_id = \(Self.applicationID);
            PRAGMA user_version = \(Self.schemaVersion);
            COMMIT;
            VACUUM;
            """)
        return try ready(db)
    }

    private func ready(_ db: SQLiteDatabase) throws -> SQLiteDatabase {
        // A mapped page that cannot be read is a signal, not an error SQLite can report: a cache
        // folder on a network mount (a home on NFS) is read a page at a time, as before.
        if !ParallelReads.isOnNetworkMount(file) { try db.execute("PRAGMA mmap_size = \(Self.mappedBytes)") }
        if mode == .on {
            try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        }
        return db
    }

    /// A damaged or foreign file: kept beside as `index.sqlite.bad` (one such), and made anew.
    private func moveAside(because reason: String) {
        database?.close()
        database = nil
        guard mode == .on else {
            note("the index \(location) cannot be read (\(reason)): going on without it")
            return
        }
        let bad = ImagePath(bytes: file.bytes + Array(".bad".utf8))
        _ = file.withCString { from in bad.withCString { rename(from, $0) } }
        for suffix in ["-wal", "-shm"] { _ = ImagePath(bytes: file.bytes + Array(suffix.utf8)).withCString { unlink($0) } }
        do {
            database = try connect()
            note("the index \(location) was damaged or not Lightbox's (\(reason)): moved to \(Self.fileName).bad and made anew")
        } catch {
            note("the index \(location) cannot be made anew (\(error)): going on without it")
        }
    }

    // MARK: Reading

    /// What the index knows of `path` (made absolute), whatever its size and time now.
    public func record(of path: ImagePath) -> Record? {
        lock.withLock { lockedRecord(of: path.absoluteBytes) }
    }

    /// What the index knows of each of `paths`, in their order (one read transaction for them all).
    /// - Complexity: O(*k* log *n*) for *k* paths.
    public func records(of paths: [ImagePath]) -> [Record?] {
        lock.withLock {
            let many = paths.count > 1 && (try? database?.execute("BEGIN")) != nil
            defer {
                if many, let db = database, (try? db.execute("COMMIT")) == nil { try? db.execute("ROLLBACK") }
            }
            return paths.map { lockedRecord(of: $0.absoluteBytes) }
        }
    }

    /// `record(of:)` of the absolute path `key`, the lock held.
    private func lockedRecord(of key: [UInt8]) -> Record? {
        var record = pending[key]
        if record == nil {
            record =
                perform { db -> Record? in
                    var found: Record?
                    try db.each("SELECT size, mtime, kind, metadata, used, decision_stamp, decision FROM file WHERE path = ?", [.blob(key)]) { row in
                        found = Self.record(in: row, from: 0, notImages: true)
                        if found != nil, mode == .on, let used = row.integer(4), used != today { touched.insert(key) }
                    }
                    return found
                } ?? nil
        }
        // A decision read since, not written yet, over the written one (as `decisions(of:)` has it).
        if record != nil, let waiting = pendingDecisions[key] { record?.decision = waiting }
        return record
    }

    /// The kind of the file at `path` when the index knows it at this size and time.
    public func format(of path: ImagePath, byteCount: Int64, modified: Int64) -> ImageFormat? {
        guard let known = record(of: path), known.byteCount == byteCount, known.modified == modified, known.format != nil else { return nil }
        countRecognised()
        return known.format
    }

    /// Counts files shown from the index before the scan looked (for `--stats`).
    func countReplayed(_ count: Int) { lock.withLock { replayed += count } }

    /// Counts a file recognised from the index (for `--stats`).
    public func countRecognised() { lock.withLock { recognised += 1 } }

    /// What was read of `file`'s metadata, when the index has it for this size and time.
    public func metadata(of file: ImageFile) -> IndexedMetadata? {
        guard let known = record(of: file.path), known.byteCount == file.byteCount, known.modified == file.modified, known.format == file.format
        else { return nil }
        if known.metadata != nil { lock.withLock { metadataHits += 1 } }
        return known.metadata
    }

    /// The decisions last read of the photos at `paths`, in their order (nil: none known).
    /// - Complexity: O(*k* log *n*) for *k* paths.
    public func decisions(of paths: [ImagePath]) -> [KnownDecision?] {
        lock.withLock {
            // Many in one read transaction: one snapshot and one lock, not one a path.
            let many = paths.count > 1 && (try? database?.execute("BEGIN")) != nil
            defer {
                if many, let db = database, (try? db.execute("COMMIT")) == nil { try? db.execute("ROLLBACK") }
            }
            return paths.map { path in
                let key = path.absoluteBytes
                if let waiting = pendingDecisions[key] { return waiting }
                return perform { db -> KnownDecision? in
                    var known: KnownDecision?
                    try db.each("SELECT decision_stamp, decision FROM file WHERE path = ?", [.blob(key)]) { row in
                        if let stamp = row.integer(0), let encoded = row.integer(1) { known = KnownDecision(stamp: stamp, encoded: encoded) }
                    }
                    return known
                } ?? nil
            }
        }
    }

    /// Counts items whose decisions were shown from the index (for `--stats`).
    public func countDecisionsShown(_ count: Int) { lock.withLock { decisionsShown += count } }

    /// Counts items shown with the metadata the index kept for them (for `--stats`).
    func countMetadataShown(_ count: Int) { lock.withLock { metadataShown += count } }

    /// What this run took from the index, for `--stats`.
    public var statistics: String {
        lock.withLock {
            let shown = replayed > 0 ? "\(replayed) files shown from it before the scan looked, " : ""
            let decided = decisionsShown > 0 ? ", decisions shown from it for \(decisionsShown) photo\(decisionsShown == 1 ? "" : "s")" : ""
            // Shown with the files it replayed, or taken by the metadata reader (a snapshot, a first visit's).
            let shownMetadata = metadataShown > 0 ? "shown from it for \(metadataShown) file\(metadataShown == 1 ? "" : "s") and " : ""
            return
                "index: \(shown)\(recognised) files recognised from it, metadata \(shownMetadata)taken from it \(metadataHits) times\(decided) (\(location), \(mode.rawValue))"
        }
    }

    // MARK: Writing

    /// Keeps that `file` was found (its metadata, when read, kept with it; a record of the same
    /// size and time keeps its metadata); written with the next batch.
    public func remember(_ file: ImageFile, metadata: IndexedMetadata? = nil) {
        remember(file.path, Record(byteCount: file.byteCount, modified: file.modified, format: file.format, metadata: metadata))
    }

    /// Keeps that the file at `path`, of that size and time, is not an image.
    public func rememberNotAnImage(_ path: ImagePath, byteCount: Int64, modified: Int64) {
        remember(path, Record(byteCount: byteCount, modified: modified, format: nil))
    }

    private func remember(_ path: ImagePath, _ record: Record) {
        guard mode == .on else { return }
        let key = path.absoluteBytes
        let full = lock.withLock {
            var record = record
            if record.metadata == nil, let waiting = pending[key], waiting.byteCount == record.byteCount, waiting.modified == record.modified,
                waiting.format == record.format
            {
                record.metadata = waiting.metadata
            }
            pending[key] = record
            return pending.count + touched.count >= Self.writeBatch
        }
        if full { flush() }
    }

    /// Keeps the decision read of the photo at `path`; written with the next batch (to a photo
    /// the index holds: it is a photo's part).
    public func rememberDecision(_ known: KnownDecision, of path: ImagePath) {
        guard mode == .on else { return }
        let full = lock.withLock {
            pendingDecisions[path.absoluteBytes] = known
            return pending.count + pendingDecisions.count + touched.count >= Self.writeBatch
        }
        if full { flush() }
    }

    /// A folder's listing as the scan saw it: the folder's modification time, a fingerprint of
    /// its entries' names and types, and whether it was a mount point (a share mounted there).
    public struct FolderListing: Hashable, Sendable {
        public var modified: Int64
        public var fingerprint: Int64
        public var isMountPoint: Bool

        public init(modified: Int64, fingerprint: Int64, isMountPoint: Bool = false) {
            self.modified = modified
            self.fingerprint = fingerprint
            self.isMountPoint = isMountPoint
        }
    }

    /// Whether the folder at `path` had this listing when it was last looked at through: then
    /// its files are taken as the index has them, without a look at each.
    public func hasListing(_ listing: FolderListing, of path: ImagePath) -> Bool {
        let key = path.absoluteBytes
        return lock.withLock {
            if let waiting = pendingFolders[key] { return waiting == listing }
            return perform {
                try $0.rows(
                    "SELECT 1 FROM folder WHERE path = ? AND mtime = ? AND listing = ?",
                    [
                        .blob(key), .integer(listing.modified), .integer(listing.fingerprint),
                    ]
                ).isEmpty == false
            } ?? false
        }
    }

    /// The folder at `path`'s listing when it was last listed whole, and the day (days since
    /// 1970) of that listing, if it was.
    public func lastListing(of path: ImagePath) -> (listing: FolderListing, day: Int64)? {
        let key = path.absoluteBytes
        return lock.withLock {
            if let waiting = pendingFolders[key] { return (waiting, today) }
            return perform { db -> (FolderListing, Int64)? in
                var found: (FolderListing, Int64)?
                try db.each("SELECT mtime, listing, used, \(knowsMountPoints ? "mount" : "0") FROM folder WHERE path = ?", [.blob(key)]) { row in
                    guard let modified = row.integer(0), let fingerprint = row.integer(1), let day = row.integer(2) else { return }
                    found = (FolderListing(modified: modified, fingerprint: fingerprint, isMountPoint: row.integer(3) == 1), day)
                }
                return found
            } ?? nil
        }
    }

    /// Keeps a folder's listing once every file of it is known to the index.
    public func rememberListing(_ listing: FolderListing, of path: ImagePath) {
        guard mode == .on else { return }
        lock.withLock { pendingFolders[path.absoluteBytes] = listing }
    }

    /// Forgets the files and subfolders `names` of the folder at `path`, with all under them: its
    /// whole listing no longer names them (deleted, or moved). Written with the next batch.
    /// - Complexity: O(*k* log *n*) for *k* rows forgotten, when written.
    public func forgetGone(_ names: some Sequence<[UInt8]>, in path: ImagePath) {
        guard mode == .on else { return }
        let folder = path.absoluteBytes, slash = UInt8(ascii: "/")
        let below = folder == [slash] ? folder : folder + [slash]
        let full = lock.withLock {
            for name in names {
                let key = below + name
                pendingGone.insert(key)
                pending[key] = nil
                pendingFolders[key] = nil
            }
            return pending.count + pendingGone.count + touched.count >= Self.writeBatch
        }
        if full { flush() }
    }

    /// Writes what waits, in one transaction; then forgets the files used longest ago when the
    /// database has grown past its limit.
    public func flush() {
        lock.withLock {
            guard !pending.isEmpty || !touched.isEmpty || !pendingFolders.isEmpty || !pendingDecisions.isEmpty || !pendingGone.isEmpty, database != nil
            else {
                pending = [:]
                pendingFolders = [:]
                pendingDecisions = [:]
                pendingGone = []
                touched = []
                return
            }
            let batch = pending, uses = touched, folders = pendingFolders, decided = pendingDecisions, gone = pendingGone
            pending = [:]
            pendingFolders = [:]
            pendingDecisions = [:]
            pendingGone = []
            touched = []
            let wrote = perform { db -> Bool in
                try db.execute("BEGIN IMMEDIATE")
                do {
                    // First: a name gone and found again since (put back) is written below.
                    for key in gone { _ = try Self.deleteRows(at: key, in: db) }
                    for (key, entry) in batch {
                        try db.run(
                            """
                            INSERT INTO file (path, size, mtime, kind, metadata, used) VALUES (?, ?, ?, ?, ?, ?)
                            ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, kind = excluded.kind,
                                metadata = CASE WHEN excluded.metadata IS NOT NULL THEN excluded.metadata
                                    WHEN file.size = excluded.size AND file.mtime = excluded.mtime AND file.kind = excluded.kind THEN file.metadata END,
                                used = excluded.used
                            """,
                            [
                                .blob(key), .integer(entry.byteCount), .integer(entry.modified),
                                .blob(entry.format.map { Array($0.rawValue.utf8) } ?? Self.notAnImage),
                                entry.metadata.map { .blob($0.encoded) } ?? .null, .integer(today),
                            ])
                    }
                    for (key, listing) in folders {
                        try db.run(
                            "INSERT OR REPLACE INTO folder (path, mtime, listing, used, mount) VALUES (?, ?, ?, ?, ?)",
                            [.blob(key), .integer(listing.modified), .integer(listing.fingerprint), .integer(today), .integer(listing.isMountPoint ? 1 : 0)])
                    }
                    for key in uses where batch[key] == nil { try db.run("UPDATE file SET used = ? WHERE path = ?", [.integer(today), .blob(key)]) }
                    for (key, known) in decided {
                        try db.run(
                            "UPDATE file SET decision_stamp = ?, decision = ? WHERE path = ?", [.integer(known.stamp), .integer(known.encoded), .blob(key)])
                    }
                    try db.execute("COMMIT")
                } catch {
                    try? db.execute("ROLLBACK")
                    throw error
                }
                return true
            }
            if wrote == true { pruneIfLarge() }
        }
    }

    /// Forgets every file at or under `path`; how many.
    public func forget(under path: ImagePath) -> Int {
        let key = path.absoluteBytes
        let below = key + [UInt8(ascii: "/")]
        return lock.withLock {
            pending = pending.filter { $0.key != key && !$0.key.starts(with: below) }
            pendingFolders = pendingFolders.filter { $0.key != key && !$0.key.starts(with: below) }
            pendingDecisions = pendingDecisions.filter { $0.key != key && !$0.key.starts(with: below) }
            return perform { try Self.deleteRows(at: key, in: $0) } ?? 0
        }
    }

    /// Deletes the rows of the file or folder at the absolute path `key` and of all under it; how many files.
    private static func deleteRows(at key: [UInt8], in db: SQLiteDatabase) throws -> Int {
        let below = key + [UInt8(ascii: "/")], end = key + [UInt8(ascii: "0")]  // "0" follows "/"
        try db.run("DELETE FROM folder WHERE path = ? OR (path >= ? AND path < ?)", [.blob(key), .blob(below), .blob(end)])
        try db.run("DELETE FROM file WHERE path = ? OR (path >= ? AND path < ?)", [.blob(key), .blob(below), .blob(end)])
        return db.changes
    }

    /// The folders at or under the absolute path `key` whose listings the index holds (those
    /// waiting to be written included).
    /// - Complexity: O(*f* log *n*) for *f* folders there.
    func folders(under key: [UInt8]) -> [[UInt8]] {
        let below = key == [UInt8(ascii: "/")] ? key : key + [UInt8(ascii: "/")]
        let end = below.dropLast() + [UInt8(ascii: "0")]  // "0" follows "/"
        return lock.withLock {
            var found: Set<[UInt8]> = [key]
            _ = perform { db in
                try db.run("SELECT path FROM folder WHERE path >= ? AND path < ?", [.blob(below), .blob(Array(end))]) { row in
                    if case .blob(let path) = row[0] { found.insert(path) }
                }
            }
            for path in pendingFolders.keys where path.starts(with: below) { found.insert(path) }
            return Array(found)
        }
    }

    /// A folder's rows as the index has them: its files' names and records, in the order of the
    /// names' bytes (two arrays, not an array of pairs: each access to a pair copied all of it),
    /// and the names of its other subfolders holding files.
    struct FolderRows {
        var names: [[UInt8]] = []
        var records: [Record] = []
        var others: Set<[UInt8]> = []
    }

    /// The images the index holds directly in the folder at the absolute path `key`, in the
    /// order of their names' bytes; the rows of the subfolders named in `skipping` are not read,
    /// and the names of other subfolders holding images are in `others` (for their own call).
    /// Hidden files (a list named them) are left out, as the walk leaves them out of the folder.
    /// - Complexity: O((*k* + *s*) log *n*) for *k* files there and *s* subfolders skipped, plus the
    ///   rows of subfolders not skipped.
    func images(in key: [UInt8], skipping subfolders: [[UInt8]]) -> FolderRows {
        var found = rows(in: key, skipping: subfolders, notImages: false)
        if found.names.contains(where: DirectoryEntry.isHidden) {
            let shown = found.names.indices.filter { !DirectoryEntry.isHidden(found.names[$0]) }
            found.names = shown.map { found.names[$0] }
            found.records = shown.map { found.records[$0] }
        }
        lock.withLock { replayed += found.names.count }
        return found
    }

    /// What the index knows of the files directly in the folder at the absolute path `key`, by
    /// name, read in one go (the walk's look at each file then asks nothing more): the images,
    /// and with `notImages` the files it knows are none (a nil `format`); what is known is
    /// marked used today. Subfolders as `images(in:skipping:)`.
    /// - Complexity: as `images(in:skipping:)`.
    func records(in key: [UInt8], skipping subfolders: [[UInt8]], notImages: Bool) -> (records: [[UInt8]: Record], others: Set<[UInt8]>) {
        let found = rows(in: key, skipping: subfolders, notImages: notImages)
        return (Dictionary(zip(found.names, found.records), uniquingKeysWith: { _, last in last }), found.others)
    }

    /// `records(in:skipping:notImages:)`'s rows in the order of their names' bytes, each name
    /// once (what waits to be written in place of what the database has).
    private func rows(in key: [UInt8], skipping subfolders: [[UInt8]], notImages: Bool) -> FolderRows {
        let slash = UInt8(ascii: "/")
        let below = key == [slash] ? key : key + [slash]
        // The ranges between the subfolders' own (a subfolder's rows start with "name/" and end before "name0").
        var bounds: [([UInt8], [UInt8])] = []
        var from = below
        for name in subfolders.map({ below + $0 + [slash] }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            bounds.append((from, name))
            from = name.dropLast() + [UInt8(ascii: "0")]
        }
        bounds.append((from, below.dropLast() + [UInt8(ascii: "0")]))
        var found = FolderRows()
        var used: [[UInt8]] = []
        // The kind is a blob, so the files known to be no image are left out by a blob's value.
        let sql = "SELECT path, size, mtime, kind, metadata, used, decision_stamp, decision FROM file WHERE path >= ? AND path < ? AND kind != ?"
        let leftOut: [UInt8] = notImages ? [] : Self.notAnImage
        return lock.withLock {
            _ = perform { db in
                for (low, high) in bounds where low.lexicographicallyPrecedes(high) {
                    try db.each(sql, [.blob(low), .blob(high), .blob(leftOut)]) { row in
                        guard let path = row.blob(0), path.count > below.count else { return }
                        let name = UnsafeRawBufferPointer(rebasing: path[below.count...])
                        if let cut = name.firstIndex(of: slash) {
                            found.others.insert(Array(name[..<cut]))
                            return
                        }
                        guard let record = Self.record(in: row, from: 1, notImages: notImages) else { return }
                        if notImages, let day = row.integer(5), day != today { used.append(Array(path)) }
                        found.names.append(Array(name))
                        found.records.append(record)
                    }
                }
            }
            let waiting = pending.filter { $0.key.count > below.count && $0.key.starts(with: below) }
            if !waiting.isEmpty {
                // Rare (a replay waits for nothing to be written): by name, what waits over what is written.
                var byName = Dictionary(zip(found.names, found.records), uniquingKeysWith: { _, last in last })
                for (path, record) in waiting {
                    let name = Array(path[below.count...])
                    if let cut = name.firstIndex(of: slash) {
                        found.others.insert(Array(name[..<cut]))
                    } else {
                        byName[name] = record.format == nil && !notImages ? nil : record
                    }
                }
                let sorted = byName.sorted { $0.key.lexicographicallyPrecedes($1.key) }
                found.names = sorted.map(\.key)
                found.records = sorted.map(\.value)
            }
            if !pendingDecisions.isEmpty {
                for i in found.names.indices { if let waiting = pendingDecisions[below + found.names[i]] { found.records[i].decision = waiting } }
            }
            if mode == .on { touched.formUnion(used) }
            found.others.subtract(subfolders)
            return found
        }
    }

    /// How many files the index holds (what waits to be written not counted).
    public var count: Int {
        lock.withLock { perform { try $0.integer("SELECT count(*) FROM file") }.flatMap { $0 }.map(Int.init) ?? 0 }
    }

    /// Past `byteLimit`, the files used longest ago go until a quarter is free.
    private func pruneIfLarge() {
        _ = perform { db in
            let pages = try db.integer("PRAGMA page_count") ?? 0, size = try db.integer("PRAGMA page_size") ?? 4096
            let free = try db.integer("PRAGMA freelist_count") ?? 0
            guard (pages - free) * size > byteLimit else { return }
            let rows = try db.integer("SELECT count(*) FROM file") ?? 0
            let target = Int64(byteLimit) * 3 / 4
            let drop = max(1, rows - rows * target / max(1, (pages - free) * size))
            let cutoff = try db.integer("SELECT max(used) FROM (SELECT used FROM file ORDER BY used LIMIT ?)", [.integer(drop)]) ?? 0
            try db.run("DELETE FROM file WHERE path IN (SELECT path FROM file ORDER BY used LIMIT ?)", [.integer(drop)])
            // A folder whose files may have gone is looked through again.
            try db.run("DELETE FROM folder WHERE used <= ?", [.integer(cutoff)])
            try db.execute("PRAGMA incremental_vacuum")
        }
    }

    /// A `file` row's record from its columns `size, mtime, kind, metadata, used, decision_stamp,
    /// decision` from `first` on; nil when they are not as Lightbox writes them, or (unless
    /// `notImages`) for a file that is no image.
    private static func record(in row: SQLiteDatabase.Row, from first: Int32, notImages: Bool) -> Record? {
        guard let size = row.integer(first), let modified = row.integer(first + 1), let kind = row.blob(first + 2) else { return nil }
        let format = ImageFormat(kind: kind)
        guard format != nil || (notImages && kind.elementsEqual(notAnImage)) else { return nil }
        var decision: KnownDecision?
        if let stamp = row.integer(first + 5), let encoded = row.integer(first + 6) { decision = KnownDecision(stamp: stamp, encoded: encoded) }
        return Record(
            byteCount: size, modified: modified, format: format, metadata: row.blob(first + 3).flatMap { IndexedMetadata(encoded: $0) },
            decision: decision)
    }

    /// Whether the index's file system has no room left for it.
    var isOnFullDisk: Bool {
        var info = statvfs()
        let folder = file.parent
        return folder.withCString { statvfs($0, &info) } == 0 && info.f_bavail == 0
    }

    /// `body` with the database; a failure says why once, and damage or a full disk ends the
    /// index's use for this run (a lock held too long by another process costs only this batch).
    private func perform<T>(_ body: (SQLiteDatabase) throws -> T) -> T? {
        guard let db = database else { return nil }
        do {
            return try body(db)
        } catch let failure as SQLiteDatabase.Failure {
            if failure.isDamage {
                moveAside(because: failure.message)
            } else if failure.isFull || (failure.isInputOutput && isOnFullDisk) {
                note("the index \(location) cannot be written: the disk is full; going on without it")
                db.close()
                database = nil
            } else if !problemsLock.withLock({ problemList.contains { $0.contains(failure.message) } }) {
                note("the index \(location): \(failure.message)")
            }
            return nil
        } catch {
            return nil
        }
    }
}

extension ImageFormat {
    /// The kinds by their names' bytes, as the index's `kind` column holds them.
    private static let byName: [(name: [UInt8], format: ImageFormat)] = allCases.map { (Array($0.rawValue.utf8), $0) }

    /// The kind named by `kind`, a `kind` column's bytes; nil for any other (a file that is no image, damage).
    /// - Complexity: O(*k*) in the kinds.
    init?(kind: UnsafeRawBufferPointer) {
        guard let known = Self.byName.first(where: { kind.elementsEqual($0.name) }) else { return nil }
        self = known.format
    }
}
