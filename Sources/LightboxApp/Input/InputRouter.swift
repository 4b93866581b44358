import LightboxTerminal

/// Decides what each terminal event means in the state it arrives in: the one place that knows
/// the input modes (the key after Ctrl-x, the filter line, the preview, the grid) and what makes
/// a double click. Pure: event, state and time in, action out.
public struct InputRouter: Sendable {
    /// Seconds within which a second press on the same cell is a double press.
    public static let doubleClickInterval = 0.4

    /// The last plain press: where and when, for double presses.
    var lastPress: (x: Int, y: Int, time: Double)?

    public init() {}

    /// The action `event` makes in `state` at `time` (seconds on any steady clock); nil when it
    /// means nothing there.
    public mutating func action(for event: InputEvent, in state: GalleryState, at time: Double) -> Action? {
        switch event {
        case .resize(let width, let height):
            return .resize(width: width, height: height)
        case .paste(let text):
            return state.preview == nil ? .pasted(text) : nil
        case .key(let key):
            // After Ctrl-x, the next key is the key handler's.
            if state.isAwaitingHandlerKey { return .keyHandler(key.name) }
            if state.isEditingFilter { return Self.filterAction(for: key, keys: state.keyTable) }
            if state.preview != nil { return KeyTable.preview.action(for: key) }
            return state.keyTable.action(for: key)
        case .mouse(let mouse):
            let modifier: MouseBinding.Modifier = mouse.isShift ? .shift : mouse.isControl ? .control : .none
            // The preview takes only the wheel: a press there starts no double press.
            guard state.preview == nil else {
                let gesture: MouseGesture? = mouse.kind == .wheelUp ? .wheelUp : mouse.kind == .wheelDown ? .wheelDown : nil
                return gesture.flatMap { MouseTable.preview.action(for: $0, modifier: .none, x: mouse.x, y: mouse.y) }
            }
            return MouseTable.standard.action(for: gesture(of: mouse, modifier: modifier, at: time), modifier: modifier, x: mouse.x, y: mouse.y)
        }
    }

    /// What `mouse` is as a gesture: a plain press on the cell of the last one, soon after it, is a
    /// double press (and starts no third).
    mutating func gesture(of mouse: MouseEvent, modifier: MouseBinding.Modifier, at time: Double) -> MouseGesture {
        switch mouse.kind {
        case .wheelUp: return .wheelUp
        case .wheelDown: return .wheelDown
        case .press:
            guard modifier == .none else { return .press }
            if let last = lastPress, last.x == mouse.x, last.y == mouse.y, time - last.time < Self.doubleClickInterval {
                lastPress = nil
                return .doublePress
            }
            lastPress = (mouse.x, mouse.y, time)
            return .press
        }
    }

    /// While the filter is typed: characters go to it, Backspace edits it, Enter keeps it, Esc
    /// clears it; arrows, pages and Ctrl keys keep their meaning.
    static func filterAction(for key: Key, keys: KeyTable) -> Action? {
        switch key {
        case .character(let c): return .filterInput(String(c))
        case .backspace: return .filterBackspace
        case .enter: return .acceptFilter
        case .escape: return .cancelFilter
        default: return keys.action(for: key)
        }
    }
}
