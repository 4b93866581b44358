// lightbox-layout-example: lays out three sections of photos as an adaptive grid for a terminal
// of COLUMNS x LINES, scrolled to OFFSET, and prints it as text: each tile a box with its number
// and a label line, the header of the section under the top edge pinned there.
// Usage: lightbox-layout-example [COLUMNS] [LINES] [OFFSET]
import LightboxLayout

/// Lines of characters, written at content coordinates scrolled by `offset`; what falls outside is cut.
struct TextScreen {
    var lines: [[Character]]
    let offset: Int

    init(width: Int, height: Int, offset: Int) {
        lines = Array(repeating: Array(repeating: " ", count: width), count: height)
        self.offset = offset
    }

    mutating func write(_ text: String, x: Int, y: Int) {
        let row = y - offset
        guard lines.indices.contains(row) else { return }
        for (i, character) in text.enumerated() where lines[row].indices.contains(x + i) { lines[row][x + i] = character }
    }

    /// A whole line on screen (not scrolled), filled out with `fill`.
    mutating func replaceLine(_ row: Int, with text: String, fill: Character) {
        guard lines.indices.contains(row) else { return }
        let width = lines[row].count
        lines[row] = Array((Array(text) + Array(repeating: fill, count: width)).prefix(width))
    }

    var text: String { lines.map { String($0) }.joined(separator: "\n") }
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let width = arguments.count > 0 ? max(10, arguments[0]) : 60
let height = arguments.count > 1 ? max(3, arguments[1]) : 16
let offset = arguments.count > 2 ? max(0, arguments[2]) : 9

let sections = [("Lisbon, May", 7), ("Porto, June", 4), ("Sintra, August", 9)]
// Columns of 12 to 18 cells, as many as fit: parsed as Lightbox's --columns parses it.
let spec = try GridSpec(parsing: "adaptive:12-18", rowSpacing: 1, columnSpacing: 2)
let layout = GridLayout(sectionCounts: sections.map(\.1), spec: spec, width: width)
var screen = TextScreen(width: width, height: height, offset: offset)

// The tiles on screen: O(log n) to find them, however long the library.
for item in layout.visibleItems(offset: offset, height: height) where layout.isVisible(item, offset: offset, height: height) {
    let box = layout.boxFrame(ofItem: item)
    let inside = String(repeating: " ", count: max(0, box.width - 2)), edge = String(repeating: "-", count: max(0, box.width - 2))
    for y in box.y..<box.maxY { screen.write(y == box.y || y == box.maxY - 1 ? "+\(edge)+" : "|\(inside)|", x: box.x, y: y) }
    screen.write(" \(item + 1)", x: box.x + 1, y: box.y + box.height / 2)
    screen.write("IMG_\(item + 1).jpg", x: box.x, y: box.maxY)  // the label line under the box
}
// Every section's header where it is, then the pinned one over the top (pushed up by the next).
for s in 0..<layout.sectionCount { screen.write("== \(sections[s].0) (\(sections[s].1)) ", x: 0, y: layout.headerTop(ofSection: s)) }
if let pinned = layout.pinnedHeader(atOffset: offset), pinned.y >= 0 {
    screen.replaceLine(pinned.y, with: "== \(sections[pinned.section].0) (\(sections[pinned.section].1)) ", fill: "=")
}
print(screen.text)
