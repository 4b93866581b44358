/// How the commands of one read of input are applied: characters typed into the filter come
/// together as one edit (one pass over the library), applied before the next other command.
public struct InputBatch: Hashable, Sendable {
    private var typed = ""

    public init() {}

    /// The commands to apply now for `command`: none while characters gather.
    public mutating func add(_ command: Command) -> [Command] {
        if case .filterInput(let text) = command {
            typed += text
            return []
        }
        return finish() + [command]
    }

    /// What is left at the end of the read: the characters gathered, as one edit.
    public mutating func finish() -> [Command] {
        guard !typed.isEmpty else { return [] }
        defer { typed = "" }
        return [.filterInput(typed)]
    }
}

/// The effects of a batch of actions and results: loads wait for the batch's end, so the
/// provider is asked once, for the final window; any other effect goes at once, with the loads
/// before it.
public struct EffectBatch: Hashable, Sendable {
    private var loads: [Effect] = []

    public init() {}

    /// What to carry out now of `effects`: nothing when they are only loads.
    public mutating func add(_ effects: [Effect]) -> [Effect] {
        if effects.allSatisfy({ if case .load = $0 { true } else { false } }) {
            loads += effects
            return []
        }
        defer { loads = [] }
        return (loads + effects).coalesced
    }

    /// The loads gathered, as one.
    public mutating func take() -> [Effect] {
        defer { loads = [] }
        return loads.coalesced
    }
}
