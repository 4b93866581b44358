import LightboxTerminal

/// A key binding: the keys, the command and its help text, kept together.
public struct KeyBinding: Sendable {
    public var keys: [Key]
    public var command: Command
    public var help: String

    public init(_ keys: [Key], _ command: Command, _ help: String) {
        self.keys = keys
        self.command = command
        self.help = help
    }

}

/// A key table: plain data, read by the router and by the help overlay; the standard one is made
/// from `CommandTable`'s rows, with the user's bindings over it.
public struct KeyTable: Sendable {
    public var bindings: [KeyBinding]
    private var index: [Key: Command] = [:]

    public init(_ bindings: [KeyBinding]) {
        self.bindings = bindings
        for binding in bindings {
            for key in binding.keys where index[key] == nil { index[key] = binding.command }
        }
    }

    /// The command bound to `key`, if any. Digits bound to counts or ratings give their own value.
    public func command(for key: Key) -> Command? {
        let command = index[key]
        guard case .character(let c) = key, let digit = c.wholeNumberValue else { return command }
        switch command {
        case .countDigit: return .countDigit(digit)
        case .rate: return .rate(digit)
        default: return command
        }
    }

    /// This table with `extra` bindings, which win over the standard ones for their keys.
    public func adding(_ extra: [KeyBinding]) -> KeyTable {
        let taken = Set(extra.flatMap(\.keys))
        let kept = bindings.compactMap { binding -> KeyBinding? in
            let keys = binding.keys.filter { !taken.contains($0) }
            return keys.isEmpty ? nil : KeyBinding(keys, binding.command, binding.help)
        }
        return KeyTable(kept + extra)
    }

    /// A key by the name users write: a character, `ctrl-X`, `space`, `enter`, `tab` or `esc`.
    public static func key(named text: String) -> Key? {
        switch text.lowercased() {
        case "space": return .character(" ")
        case "enter": return .enter
        case "tab": return .tab
        case "esc", "escape": return .escape
        default: break
        }
        if text.count == 1, let c = text.first { return .character(c) }
        if text.lowercased().hasPrefix("ctrl-"), text.count == 6, let c = text.last?.lowercased().first, c.isLetter { return .control(c) }
        return nil
    }

    /// The grid's digits while the cull keys are on (`CommandTable.cullKeys`).
    public static let cull = KeyTable(CommandTable.cullKeys)

    /// The keys of the full-screen preview (`CommandTable.previewKeys`).
    public static let preview = KeyTable(CommandTable.previewKeys)

    /// The keys of compare (`CommandTable.compareKeys`).
    public static let compare = KeyTable(CommandTable.compareKeys)

    /// The grid's keys: every row of `CommandTable` that has keys, in its order, with its help.
    public static let standard = KeyTable(CommandTable.rows.filter { !$0.keys.isEmpty }.map { KeyBinding($0.keys, $0.command, $0.help) })
}
