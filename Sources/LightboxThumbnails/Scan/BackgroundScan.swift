import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a `Scanner` on a thread of its own and hands its batches over as they come, so the
/// first screen shows while a large tree is still being read, and a hanging read never holds up
/// the UI.
public final class BackgroundScan: @unchecked Sendable {
    /// What the scan has found since it was last asked.
    public struct Progress: Sendable {
        /// New batches in order, consecutive batches of one folder merged.
        public var batches: [Scanner.Batch]
        /// Whether the scan is over; then `batches` holds the last of it.
        public var isFinished: Bool

        public init(batches: [Scanner.Batch], isFinished: Bool) {
            self.batches = batches
            self.isFinished = isFinished
        }
    }

    private let condition = NSCondition()
    private var batches: [Scanner.Batch] = []
    private var finished = false
    private var stopped = false
    private var foundImages = false
    private let wake = WakePipe()

    /// Readable when there is something to `take()`: an event loop polls it (and drains it).
    public var wakeDescriptor: Int32 { wake.readEnd }

    /// Starts scanning `paths`. Each batch passes through `transform` on the scan's thread (to
    /// drop files that cannot be shown).
    /// What to scan: paths, or a list of them read from a file descriptor (standard input).
    public enum Source: Sendable {
        case paths([ImagePath])
        case list(fd: Int32, separator: UInt8)
    }

    public convenience init(
        paths: [ImagePath], scanner: Scanner = Scanner(),
        transform: @escaping @Sendable (Scanner.Batch) -> Scanner.Batch = { $0 }
    ) {
        self.init(source: .paths(paths), scanner: scanner, transform: transform)
    }

    public init(
        source: Source, scanner: Scanner = Scanner(),
        transform: @escaping @Sendable (Scanner.Batch) -> Scanner.Batch = { $0 }
    ) {
        let onBatch: @Sendable () -> Void = { [wake] in wake.signal() }
        let thread = Thread { [self] in
            let emit: (Scanner.Batch) -> Bool = { batch in
                let batch = transform(batch)
                self.condition.lock()
                let keepsGoing = !self.stopped
                if keepsGoing {
                    self.batches.append(batch)
                    if !batch.files.isEmpty { self.foundImages = true }
                    self.condition.broadcast()
                }
                self.condition.unlock()
                if keepsGoing { onBatch() }
                return keepsGoing
            }
            switch source {
            case .paths(let paths): scanner.scan(paths, emit: emit)
            case .list(let fd, let separator): scanner.scan(listIn: fd, separator: separator, emit: emit)
            }
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
            onBatch()
        }
        thread.name = "lightbox-scan"
        thread.start()
    }

    deinit {
        wake.close()
    }

    /// The batches found since the last call.
    /// - Complexity: O(*b*) in the number of batches taken.
    public func take() -> Progress {
        wake.drain()
        condition.lock()
        defer { condition.unlock() }
        var merged: [Scanner.Batch] = []
        for batch in batches { merged.appendMerging(batch) }
        batches.removeAll()
        return Progress(batches: merged, isFinished: finished)
    }

    /// Waits until the scan has found an image or ended, or `timeout` seconds pass.
    public func waitForImages(timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while !foundImages && !finished && condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Waits until there is something to take (or the scan ended), or `timeout` seconds pass.
    public func waitForBatches(timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while batches.isEmpty && !finished && condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Stops the scan at its next file. A read that hangs keeps its thread, never the caller.
    public func stop() {
        condition.lock()
        stopped = true
        condition.unlock()
    }
}
