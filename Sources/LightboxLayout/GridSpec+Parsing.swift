extension GridSpec {
    /// Why a column or spacing spec could not be read, naming the part that is wrong.
    public struct ParseError: Error, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// Reads a column spec, as `--columns` takes it: a number `N` (N equal flexible columns), or
    /// a comma list of `adaptive[:MIN[-MAX]]`, `flexible[:MIN[-MAX]]` and `fixed:W`, each
    /// optionally followed by `:leading`, `:center` or `:trailing`. Widths are in cells.
    /// For example `fixed:12,flexible,flexible:20-40:trailing`.
    public init(parsing text: String, rowSpacing: Int = 1, columnSpacing: Int = 2) throws {
        let text = text.trimmingSpaces
        if let n = Int(text) {
            guard (1...100).contains(n) else { throw ParseError(description: "the number of columns must be 1 to 100, not \(n)") }
            self = .flexible(count: n, rowSpacing: rowSpacing, columnSpacing: columnSpacing)
            return
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        var items: [GridItem] = []
        for (index, part) in parts.enumerated() {
            do {
                items.append(try Self.item(parsing: part))
            } catch let error as ParseError {
                let place = parts.count > 1 ? " (column item \(index + 1) of \(parts.count))" : ""
                throw ParseError(description: "'\(part)'\(place): \(error.description)")
            }
        }
        self.init(columns: items, rowSpacing: rowSpacing, columnSpacing: columnSpacing)
    }

    /// Reads `ROW,COL` (or one number for both), the blank lines between rows and cells between columns.
    public static func spacing(parsing text: String) throws -> (row: Int, column: Int) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        let numbers = parts.map { Int($0) }
        guard (1...2).contains(parts.count), numbers.allSatisfy({ $0 != nil && (0...20).contains($0!) }) else {
            throw ParseError(description: "'\(text)' is not ROW,COL with each 0 to 20, as 1,2")
        }
        return (numbers[0]!, numbers.last!!)
    }

    static let widthLimit = 1000

    /// One item: `KIND[:RANGE][:ALIGNMENT]`.
    static func item(parsing part: String) throws -> GridItem {
        guard !part.isEmpty else { throw ParseError(description: "an empty column item; use adaptive, flexible or fixed:W") }
        var fields = part.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var alignment = GridItem.Alignment.center
        if fields.count > 1, let last = fields.last, !last.isEmpty, last.allSatisfy(\.isLetter) {
            guard let parsed = GridItem.Alignment(rawValue: last) else {
                throw ParseError(description: "'\(last)' is not an alignment; use leading, center or trailing")
            }
            alignment = parsed
            fields.removeLast()
        }
        guard fields.count <= 2 else { throw ParseError(description: "too many ':' parts; the form is KIND[:MIN[-MAX]][:ALIGNMENT]") }
        let range = fields.count == 2 ? fields[1] : nil
        switch fields[0] {
        case "fixed":
            guard let range else { throw ParseError(description: "fixed needs a width, as fixed:12") }
            guard let width = Int(range), (1...widthLimit).contains(width) else {
                throw ParseError(description: "the width '\(range)' is not a number from 1 to \(widthLimit)")
            }
            return GridItem(.fixed(width), alignment: alignment)
        case "flexible":
            let (low, high) = try bounds(range, defaults: (1, Int.max), least: 1)
            return GridItem(.flexible(minimum: low, maximum: high), alignment: alignment)
        case "adaptive":
            let (low, high) = try bounds(range, defaults: (16, 24), least: 4)
            return GridItem(.adaptive(minimum: low, maximum: high), alignment: alignment)
        default:
            throw ParseError(description: "unknown kind '\(fields[0])'; use adaptive, flexible or fixed")
        }
    }

    /// `MIN[-MAX]`; a lone MIN leaves MAX open for flexible and 8 more for adaptive.
    static func bounds(_ text: String?, defaults: (Int, Int), least: Int) throws -> (Int, Int) {
        guard let text else { return defaults }
        let numbers = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(numbers.count), numbers.allSatisfy({ $0 != nil }) else {
            throw ParseError(description: "'\(text)' is not MIN or MIN-MAX in cells")
        }
        let low = numbers[0]!
        let high = numbers.count == 2 ? numbers[1]! : (defaults.1 == Int.max ? Int.max : low + 8)
        guard low >= least, low <= widthLimit else { throw ParseError(description: "MIN must be \(least) to \(widthLimit), not \(low)") }
        guard high >= low else { throw ParseError(description: "MAX \(high) is less than MIN \(low)") }
        return (low, high)
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
