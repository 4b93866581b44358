import LightboxTerminal

/// A key binding: the keys, the action and its help text, kept together.
public struct KeyBinding: Sendable {
    public var keys: [Key]
    public var action: Action
    public var help: String

    public init(_ keys: [Key], _ action: Action, _ help: String) {
        self.keys = keys
        self.action = action
        self.help = help
    }
}

/// The key table: plain data, read by the input loop and by the help overlay.
public struct KeyTable: Sendable {
    public var bindings: [KeyBinding]
    private var index: [Key: Action] = [:]

    public init(_ bindings: [KeyBinding]) {
        self.bindings = bindings
        for binding in bindings {
            for key in binding.keys where index[key] == nil { index[key] = binding.action }
        }
    }

    /// The action bound to `key`, if any. Digits bound to counts give their own value.
    public func action(for key: Key) -> Action? {
        let action = index[key]
        if case .countDigit = action, case .character(let c) = key, let digit = c.wholeNumberValue { return .countDigit(digit) }
        return action
    }

    /// This table with `extra` bindings, which win over the standard ones for their keys.
    public func adding(_ extra: [KeyBinding]) -> KeyTable {
        let taken = Set(extra.flatMap(\.keys))
        let kept = bindings.compactMap { binding -> KeyBinding? in
            let keys = binding.keys.filter { !taken.contains($0) }
            return keys.isEmpty ? nil : KeyBinding(keys, binding.action, binding.help)
        }
        return KeyTable(kept + extra)
    }

    /// Every action a key can be bound to, by the name the settings file and the README use.
    public static let actionsByName: [String: Action] = [
        "left": .move(.left), "right": .move(.right), "up": .move(.up), "down": .move(.down),
        "page-down": .pageDown, "page-up": .pageUp, "half-page-down": .halfPageDown, "half-page-up": .halfPageUp,
        "first": .move(.first), "last": .move(.last), "previous-section": .move(.previousSection), "next-section": .move(.nextSection),
        "next-mark": .nextMark, "previous-mark": .previousMark, "jump-back": .jumpBack,
        "mark-and-advance": .toggleMarkAndAdvance, "mark": .toggleMark, "range": .toggleRange, "mark-all": .markAll,
        "mark-section": .markSection, "clear-marks": .clearMarks, "bigger": .zoomIn, "smaller": .zoomOut,
        "sort": .cycleSort, "reverse": .toggleReverse, "collapse": .toggleSection, "collapse-all": .toggleAllSections,
        "layout": .cycleLayout, "symbols": .cycleGraphics, "info": .toggleInfo, "preview": .openPreview, "filter": .startFilter,
        "key-handler": .keyHandlerPrefix, "help": .toggleHelp, "accept": .accept, "cancel": .cancel, "suspend": .suspend, "redraw": .redraw,
    ]

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

    /// The keys of the full-screen preview.
    public static let preview = KeyTable([
        KeyBinding([.character("h"), .character("k")], .move(.left), "previous photo"),
        KeyBinding([.character("l"), .character("j")], .move(.right), "next photo"),
        KeyBinding([.left], .pan(dx: -1, dy: 0), "pan left (or previous photo)"),
        KeyBinding([.right], .pan(dx: 1, dy: 0), "pan right (or next photo)"),
        KeyBinding([.up], .pan(dx: 0, dy: -1), "pan up"),
        KeyBinding([.down], .pan(dx: 0, dy: 1), "pan down"),
        KeyBinding([.character("+"), .character("=")], .zoomIn, "zoom in"),
        KeyBinding([.character("-")], .zoomOut, "zoom out"),
        KeyBinding([.character("m"), .character(" ")], .toggleMark, "mark / unmark"),
        KeyBinding([.character("p")], .togglePlayback, "pause / play an animation"),
        KeyBinding([.enter], .accept, "print marked (or this) and quit"),
        KeyBinding([.escape, .character("q"), .character("o")], .closePreview, "back to the grid"),
        KeyBinding([.control("c")], .cancel, "quit, print nothing"),
        KeyBinding([.control("z")], .suspend, "suspend"),
        KeyBinding([.control("l")], .redraw, "redraw the screen"),
    ])

    public static let standard = KeyTable([
        KeyBinding([.left, .character("h")], .move(.left), "previous image"),
        KeyBinding([.right, .character("l")], .move(.right), "next image"),
        KeyBinding([.up, .character("k")], .move(.up), "row up"),
        KeyBinding([.down, .character("j")], .move(.down), "row down"),
        KeyBinding([.pageDown, .control("f")], .pageDown, "page down"),
        KeyBinding([.pageUp, .control("b")], .pageUp, "page up"),
        KeyBinding([.control("d")], .halfPageDown, "half page down"),
        KeyBinding([.control("u")], .halfPageUp, "half page up"),
        KeyBinding([.character("g"), .home], .move(.first), "first image"),
        KeyBinding([.character("G"), .end], .move(.last), "last image"),
        KeyBinding((0...9).map { .character(Character(String($0))) }, .countDigit(0), "count: 5j, 12G"),
        KeyBinding([.character("n")], .nextMark, "next marked"),
        KeyBinding([.character("N")], .previousMark, "previous marked"),
        KeyBinding([.character("'")], .jumpBack, "back to before the last jump"),
        KeyBinding([.character("[")], .move(.previousSection), "previous section"),
        KeyBinding([.character("]")], .move(.nextSection), "next section"),
        KeyBinding([.character(" ")], .toggleMarkAndAdvance, "mark and go on"),
        KeyBinding([.character("m")], .toggleMark, "mark / unmark"),
        KeyBinding([.character("v")], .toggleRange, "start / end a range mark"),
        KeyBinding([.character("a")], .markAll, "mark all"),
        KeyBinding([.character("A")], .markSection, "mark this section"),
        KeyBinding([.character("u")], .clearMarks, "clear marks"),
        KeyBinding([.character("+"), .character("=")], .zoomIn, "bigger thumbnails"),
        KeyBinding([.character("-")], .zoomOut, "smaller thumbnails"),
        KeyBinding([.character("s")], .cycleSort, "sort by name, date, mtime, size"),
        KeyBinding([.character("S")], .toggleReverse, "reverse the order"),
        KeyBinding([.character("z")], .toggleSection, "collapse / expand this section"),
        KeyBinding([.character("Z")], .toggleAllSections, "collapse / expand all sections"),
        KeyBinding([.character("L")], .cycleLayout, "grid, masonry or strip layout"),
        KeyBinding([.character("t")], .cycleGraphics, "next picture mode"),
        KeyBinding([.character("i")], .toggleInfo, "show / hide the photo's details"),
        KeyBinding([.character("o")], .openPreview, "show this photo full-screen"),
        KeyBinding([.character("/")], .startFilter, "filter by name (Enter keeps, Esc clears)"),
        KeyBinding([.character("x")], .exec(""), "run the --exec command"),
        KeyBinding([.control("x")], .keyHandlerPrefix, "then a key: the key handler"),
        KeyBinding([.character("?")], .toggleHelp, "this help"),
        KeyBinding([.enter], .accept, "print marked (or this) and quit"),
        KeyBinding([.character("q"), .escape, .control("c")], .cancel, "quit, print nothing"),
        KeyBinding([.control("z")], .suspend, "suspend"),
        KeyBinding([.control("l")], .redraw, "redraw the screen"),
    ])
}
