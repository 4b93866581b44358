import LightboxTerminal

/// Decides what each key, press and paste means in the mode it arrives in (`GalleryState.mode`)
/// and what makes a double click. Pure: event, state and time in, command out. A resize is no
/// command: the run loop sends it as an `Event`.
public struct InputRouter: Sendable {
    /// Seconds within which a second press on the same cell is a double press.
    public static let doubleClickInterval = 0.4

    /// The last plain press: where and when, for double presses.
    var lastPress: (x: Int, y: Int, time: Double)?
    /// Where the mouse was last seen with its button held in the preview or compare (a drag goes on from there).
    var dragFrom: (x: Int, y: Int)?

    public init() {}

    /// The command `event` makes in `state` at `time` (seconds on any steady clock); nil when it
    /// means nothing there.
    public mutating func command(for event: InputEvent, in state: GalleryState, at time: Double) -> Command? {
        switch event {
        case .resize:
            return nil
        case .paste(let text):
            return state.preview == nil && state.compare == nil ? .pasted(text) : nil
        case .key(let key):
            switch state.mode {
            case .handlerKey: return .keyHandler(key.name)  // after Ctrl-x, the next key is the key handler's
            case .filter: return Self.filterCommand(for: key, keys: state.keyTable)
            case .preview: return KeyTable.preview.command(for: key)
            case .compare: return KeyTable.compare.command(for: key)
            case .grid, .help:
                // With the cull keys on, digits rate and label instead of counting.
                if state.cullKeys, let command = KeyTable.cull.command(for: key) { return command }
                return state.keyTable.command(for: key)
            }
        case .mouse(let mouse):
            let modifier: MouseBinding.Modifier = mouse.isShift ? .shift : mouse.isControl ? .control : .none
            // Compare and the preview: a press focuses (compare) and may start a drag, the wheel
            // zooms (compare) or pans; no double presses.
            if state.compare != nil || state.preview != nil {
                let table = state.compare != nil ? MouseTable.compare : MouseTable.preview
                switch mouse.kind {
                case .wheelUp, .wheelDown:
                    return table.command(for: mouse.kind == .wheelUp ? .wheelUp : .wheelDown, modifier: .none, x: mouse.x, y: mouse.y)
                case .press:
                    dragFrom = (mouse.x, mouse.y)
                    return table.command(for: .press, modifier: .none, x: mouse.x, y: mouse.y)
                case .drag:
                    guard let from = dragFrom, from != (mouse.x, mouse.y) else { return nil }
                    dragFrom = (mouse.x, mouse.y)
                    return table.command(for: .drag, modifier: .none, x: mouse.x - from.x, y: mouse.y - from.y)
                case .release:
                    dragFrom = nil
                    return nil
                }
            }
            return MouseTable.standard.command(for: gesture(of: mouse, modifier: modifier, at: time), modifier: modifier, x: mouse.x, y: mouse.y)
        }
    }

    /// What `mouse` is as a gesture: a plain press on the cell of the last one, soon after it, is a
    /// double press (and starts no third).
    mutating func gesture(of mouse: MouseEvent, modifier: MouseBinding.Modifier, at time: Double) -> MouseGesture {
        switch mouse.kind {
        case .wheelUp: return .wheelUp
        case .wheelDown: return .wheelDown
        case .drag, .release: return .drag  // the grid binds none
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
    static func filterCommand(for key: Key, keys: KeyTable) -> Command? {
        switch key {
        case .character(let c): return .filterInput(String(c))
        case .backspace: return .filterBackspace
        case .enter: return .acceptFilter
        case .escape: return .cancelFilter
        default: return keys.command(for: key)
        }
    }
}
