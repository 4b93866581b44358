import LightboxTerminal

/// What the mouse did, as bindings name it: a press (or a second press on the same cell soon
/// after, a double press) or a turn of the wheel.
public enum MouseGesture: Hashable, Sendable {
    case press, doublePress, wheelUp, wheelDown
    /// A move with the button held: its binding's command gets the move in cells, not a cell.
    case drag
}

/// A mouse binding: a gesture with a modifier, the command it makes at a cell, and its help text,
/// kept together as nsxiv keeps `buttons[]` beside `keys[]`.
public struct MouseBinding: Sendable {
    public enum Modifier: Hashable, Sendable { case none, shift, control }
    public var gesture: MouseGesture
    public var modifier: Modifier
    /// The command at the cell (x, y).
    public var command: @Sendable (_ x: Int, _ y: Int) -> Command
    public var help: String

    public init(_ gesture: MouseGesture, _ modifier: Modifier, _ help: String, _ command: @escaping @Sendable (Int, Int) -> Command) {
        self.gesture = gesture
        self.modifier = modifier
        self.command = command
        self.help = help
    }

    /// A binding of the gesture alone.
    public init(_ gesture: MouseGesture, _ help: String, _ command: @escaping @Sendable (Int, Int) -> Command) {
        self.init(gesture, .none, help, command)
    }
}

/// The mouse table: plain data, read by the input router.
public struct MouseTable: Sendable {
    public var bindings: [MouseBinding]

    public init(_ bindings: [MouseBinding]) { self.bindings = bindings }

    /// The command `gesture` with `modifier` makes at (x, y), if any.
    public func command(for gesture: MouseGesture, modifier: MouseBinding.Modifier, x: Int, y: Int) -> Command? {
        bindings.first { $0.gesture == gesture && $0.modifier == modifier }?.command(x, y)
    }

    /// Lines the wheel scrolls a turn.
    public static let wheelLines = 3

    /// The gallery's mouse.
    public static let standard = MouseTable([
        MouseBinding(.press, "move the cursor to the tile (a header: its first photo)") { .click(x: $0, y: $1) },
        MouseBinding(.doublePress, "open the photo full-screen (a header: collapse or expand)") { .doubleClick(x: $0, y: $1) },
        MouseBinding(.press, .shift, "mark from the cursor to the tile") { .shiftClick(x: $0, y: $1) },
        MouseBinding(.press, .control, "mark or unmark the tile") { .controlClick(x: $0, y: $1) },
        MouseBinding(.wheelUp, "scroll up") { _, _ in .scroll(lines: -wheelLines) },
        MouseBinding(.wheelDown, "scroll down") { _, _ in .scroll(lines: wheelLines) },
    ])

    /// The mouse in compare: a press focuses the photo under it, the wheel zooms them all.
    public static let compare = MouseTable([
        MouseBinding(.press, "focus the photo") { .click(x: $0, y: $1) },
        MouseBinding(.wheelUp, "zoom them all in") { _, _ in .zoomIn },
        MouseBinding(.wheelDown, "zoom them all out") { _, _ in .zoomOut },
        MouseBinding(.drag, "drag them all, zoomed") { .drag(dx: $0, dy: $1) },
    ])

    /// The mouse in the full-screen preview: the wheel pans (or goes to the previous or next photo).
    public static let preview = MouseTable([
        MouseBinding(.wheelUp, "pan left, or the previous photo") { _, _ in .pan(dx: -1, dy: 0) },
        MouseBinding(.wheelDown, "pan right, or the next photo") { _, _ in .pan(dx: 1, dy: 0) },
        MouseBinding(.drag, "drag the zoomed photo") { .drag(dx: $0, dy: $1) },
    ])
}
