/// One key of the settings file, with the README's example lines for it.
public struct SettingRow: Sendable {
    /// The key as the file writes it; one ending in `.` names a family (`color.accent`).
    public let key: String
    /// Whole example lines (`key = value`), each with what its comment says (empty: none).
    public let examples: [(line: String, note: String)]

    init(_ key: String, _ examples: [(line: String, note: String)]) {
        self.key = key
        self.examples = examples
    }

    init(_ key: String, _ value: String, _ note: String = "") { self.init(key, [("\(key) = \(value)", note)]) }
}

/// The settings file's keys: the one list `Configuration` reads by (a key not here is unknown)
/// and the README's example is written from. Adding one is a row plus its case in `Configuration.read`.
public enum SettingTable {
    public static let rows: [SettingRow] = [
        SettingRow("columns", "adaptive:18-26", "as --columns"),
        SettingRow("spacing", "1,2", "as --spacing"),
        SettingRow("layout", "masonry", "as --layout"),
        SettingRow("sections", "month", "as --sections"),
        SettingRow("stacks", "burst", "as --stacks: a burst's frames one tile"),
        SettingRow("sort", "date", "as --sort"),
        SettingRow("reverse", "no"),
        SettingRow("footers", "yes"),
        SettingRow("pairs", "together", "as --pairs"),
        SettingRow("sidecar", "appended", "as --sidecar: appended, replaced or off"),
        SettingRow("advance", "yes", "no: stay on a photo after a decision (as --no-advance)"),
        SettingRow("clipping", "5,250", "as --clipping: where E's marks start"),
        SettingRow("read-ahead", "all", "as --read-ahead: all, off or screens either side"),
        SettingRow("read-ahead-workers", "auto", "as --read-ahead-workers: auto or a number"),
        SettingRow("reads", "auto", "as --reads: files read at once (auto: 32 on a network mount)"),
        SettingRow("io", "auto", "as --io: auto (measured), slow or normal"),
        SettingRow("index", "on", "as --index: on, read or off"),
        SettingRow("graphics", "auto", "as --graphics (LIGHTBOX_GRAPHICS in the environment wins over it)"),
        SettingRow("bind", [("bind = J:next-section", "any key to any action below"), ("bind = x:exec:gimp {+}", "or to a command, as --bind")]),
        SettingRow("color.", [("color.accent = #78beff", Configuration.colorSlots.joined(separator: ", "))]),
        SettingRow("background", "#fdf6e3", "the terminal's: auto (default: asked), light, dark or #rrggbb"),
    ]

    /// The row a key belongs to, if any.
    /// - Complexity: O(*r*) in the rows.
    public static func row(of key: String) -> SettingRow? {
        rows.first { $0.key.hasSuffix(".") ? key.hasPrefix($0.key) && key.count > $0.key.count : $0.key == key }
    }

    /// The README's example settings file: every row's lines, comments aligned.
    public static var example: String {
        let lines = rows.flatMap(\.examples)
        let width = lines.map(\.line.count).max() ?? 0
        let body = lines.map { example in
            example.note.isEmpty ? example.line : example.line + String(repeating: " ", count: max(1, width + 2 - example.line.count)) + "# " + example.note
        }
        return "```\n" + body.joined(separator: "\n") + "\n```\n"
    }
}
