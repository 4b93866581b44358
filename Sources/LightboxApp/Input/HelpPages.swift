import LightboxTerminal

/// How the help overlay shows a key table in the room it has: one column of keys, or two when one
/// does not fit and two do, and pages when even that is too few lines. The state turns the pages
/// (space, PgDn, j, the down arrow; PgUp, k, the up arrow back); the view draws one.
public struct HelpPages: Hashable, Sendable {
    /// A binding as the help lists it: its keys, and what they do.
    public struct Row: Hashable, Sendable {
        public var keys: String
        public var help: String
    }

    public let rows: [Row]
    /// The widest keys and help texts, in columns of the terminal.
    public let keyWidth: Int, textWidth: Int
    public let columnCount: Int
    /// Rows a column holds on one page.
    public let linesPerColumn: Int
    /// The box: its width and height, within the room given.
    public let width: Int, height: Int
    public let pageCount: Int

    /// The pages of `keys` in a room of `width` x `height` cells.
    public init(_ keys: KeyTable, width roomWidth: Int, height roomHeight: Int) {
        rows = keys.bindings.map { binding in
            // A run of keys (the digits) shows as its ends.
            let names = binding.keys.map(\.name)
            return Row(keys: names.count > 4 ? names.first! + "…" + names.last! : names.joined(separator: " "), help: binding.help)
        }
        keyWidth = rows.map { DisplayWidth.of($0.keys) }.max() ?? 0
        textWidth = rows.map { DisplayWidth.of($0.help) }.max() ?? 0
        let columnWidth = keyWidth + textWidth + 4
        columnCount = rows.count + 4 > roomHeight && 2 * columnWidth + 4 <= roomWidth ? 2 : 1
        let perColumn = (rows.count + columnCount - 1) / columnCount
        width = min(roomWidth, columnCount * columnWidth + 3)
        height = min(roomHeight, perColumn + 4)
        // A title line above, a blank and the footer below.
        linesPerColumn = max(0, min(perColumn, height - 3))
        let perPage = columnCount * linesPerColumn
        pageCount = perPage == 0 ? 1 : max(1, (rows.count + perPage - 1) / perPage)
    }

    /// Columns of the terminal from one column's start to the next's.
    public var columnWidth: Int { keyWidth + textWidth + 4 }

    /// The rows on `page` (counted from 0), with their column and line in the box.
    public func rows(onPage page: Int) -> [(row: Row, column: Int, line: Int)] {
        let perPage = columnCount * linesPerColumn
        guard perPage > 0 else { return [] }
        let first = min(max(0, page), pageCount - 1) * perPage
        return rows[first..<min(rows.count, first + perPage)].enumerated().map { k, row in
            (row, k / linesPerColumn, k % linesPerColumn)
        }
    }

    /// The box's last line: how to turn the pages, and how to close.
    public func footer(onPage page: Int) -> String {
        pageCount > 1 ? "page \(min(page, pageCount - 1) + 1)/\(pageCount) · space: more, PgUp: back · other keys close" : "any key closes"
    }
}
