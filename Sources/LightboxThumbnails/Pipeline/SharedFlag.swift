import Synchronization

/// A flag that threads share: set by one, read by others.
final class SharedFlag: Sendable {
    private let value: Mutex<Bool>

    init(_ value: Bool) { self.value = Mutex(value) }

    /// Whether it is set.
    var isSet: Bool { value.withLock { $0 } }

    /// Sets it to `value`.
    func set(_ value: Bool) { self.value.withLock { $0 = value } }
}
