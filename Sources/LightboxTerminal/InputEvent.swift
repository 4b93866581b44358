/// A key as the app sees it, whatever terminal sent it.
public enum Key: Hashable, Sendable {
    case character(Character)
    /// Ctrl with a letter, as `.control("c")`.
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab
    /// F1, F2, …
    case function(Int)

    /// A short name for help text.
    public var name: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .control(let c): return "Ctrl-" + String(c)
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .tab: return "Tab"
        case .function(let n): return "F\(n)"
        }
    }
}

/// A mouse event at a screen cell.
public struct MouseEvent: Hashable, Sendable {
    /// A drag is a move with the first button held, a release its end.
    public enum Kind: Hashable, Sendable { case press, wheelUp, wheelDown, drag, release }
    public var kind: Kind
    public var x: Int
    public var y: Int
    public var isShift: Bool
    public var isControl: Bool

    public init(kind: Kind, x: Int, y: Int, isShift: Bool = false, isControl: Bool = false) {
        self.kind = kind
        self.x = x
        self.y = y
        self.isShift = isShift
        self.isControl = isControl
    }
}

/// Something the terminal told us.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(width: Int, height: Int)
    /// Text the user pasted (bracketed paste): text, never keys.
    case paste(String)
}
