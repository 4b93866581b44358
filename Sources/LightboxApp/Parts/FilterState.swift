/// The state's part for the filter line: the query. Its own reducer edits the query (bounded);
/// the state re-arranges the library when the query changed (whether keys go to it is the mode).
public struct FilterState: Hashable, Sendable {
    /// The query being typed or kept; empty for none.
    public private(set) var text = ""

    /// Most characters the query holds: a query, not a document (each one costs a pass over the library).
    public static let limit = 256

    public init() {}

    /// What a filter action did.
    struct Change: Equatable {
        /// Whether the query is new (the library must be filtered again).
        var queryChanged = false
        /// Something to tell the user.
        var message: String?
    }

    /// Applies `command` (typing, Backspace, Esc) to the query.
    mutating func apply(_ command: Command) -> Change {
        switch command {
        case .cancelFilter:
            guard !text.isEmpty else { return Change() }
            text = ""
            return Change(queryChanged: true)
        case .filterInput(let typed):
            let room = Self.limit - text.count
            let message = typed.count > room ? "the filter holds at most \(Self.limit) characters" : nil
            guard room > 0 else { return Change(message: message) }
            text += typed.prefix(room)
            return Change(queryChanged: true, message: message)
        case .filterBackspace:
            if !text.isEmpty { text.removeLast() }
            return Change(queryChanged: true)
        default: break
        }
        return Change()
    }
}
