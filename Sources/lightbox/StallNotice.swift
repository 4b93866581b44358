import Foundation
import LightboxThumbnails

/// Says on standard error which mounts a session without a screen (`--list`, `--warm`) waits
/// for, once each stops answering (`ReadWatch`: a read there over 3 s), so a list that seems to
/// hang says why; looked at once a second on a thread of its own until `stop()`.
final class StallNotice: @unchecked Sendable {
    private let lock = NSLock()
    private var isStopped = false
    /// The mounts already named.
    private var named: Set<String> = []

    /// Starts looking.
    init() {
        Thread.detachNewThread { [self] in
            while lock.withLock({ !isStopped }) {
                Thread.sleep(forTimeInterval: 1)
                let stalled = ReadWatch.shared.notAnswering().filter { !named.contains($0) }
                guard !stalled.isEmpty, lock.withLock({ !isStopped }) else { continue }
                named.formUnion(stalled)
                Output.error("\(SnapshotSession.named(stalled)) not answering: waiting for it (a signal or Ctrl-C ends the wait)")
            }
        }
    }

    /// Stops looking (a look under way may still say its mount).
    func stop() { lock.withLock { isStopped = true } }
}
