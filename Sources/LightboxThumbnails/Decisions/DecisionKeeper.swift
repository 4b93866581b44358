/// Reads and writes photos' decisions off the UI thread, through a decoder process (Exempi runs
/// there only): writes first, in the order made, then reads, in the order asked. Results are
/// taken with `takeResults()` after `onResult` says there are some.
public final class DecisionKeeper: @unchecked Sendable {
    /// A photo whose decision is to be read, by the item's id.
    public struct Read: Hashable, Sendable {
        public var id: ItemID
        public var file: ImageFile

        public init(id: ItemID, file: ImageFile) {
            self.id = id
            self.file = file
        }
    }

    /// What came back.
    public enum Result: Hashable, Sendable {
        case read(ItemID, Decision)
        /// A sidecar that could not be read or written, and why.
        case problem(String)
    }

    enum Job {
        case write(ImagePath, Decision)
        case read(Read)
    }

    struct Schedule: WorkSchedule {
        typealias Result = DecisionKeeper.Result
        var writes: [(ImagePath, Decision)] = []
        var reads: [Read] = []
        var readsTaken = 0
        /// The photo whose decision is being written.
        var writing: ImagePath?

        mutating func next() -> Job? {
            if !writes.isEmpty {
                let (path, decision) = writes.removeFirst()
                writing = path
                return .write(path, decision)
            }
            guard readsTaken < reads.count else { return nil }
            defer {
                readsTaken += 1
                if readsTaken == reads.count { reads.removeAll(); readsTaken = 0 }
            }
            return .read(reads[readsTaken])
        }

        mutating func finished(_ job: Job, with result: Result?) -> Bool {
            if case .write = job { writing = nil }
            return result != nil
        }

        mutating func removeAll() {
            writes.removeAll()
            reads.removeAll()
            readsTaken = 0
        }
    }

    private let queue: WorkQueue<Schedule>

    /// Keeps decisions with `pool` (a pool of `lightbox-decode` processes); a photo without a
    /// sidecar gets one named as `mode` says.
    public init(pool: WorkerPoolDecoder, mode: SidecarMode, onResult: @escaping @Sendable () -> Void) {
        queue = WorkQueue(
            Schedule(), name: "lightbox-sidecars", onResult: onResult,
            perform: { job, _ in
                switch job {
                case .write(let path, let decision):
                    let file = ImageFile(path: path, byteCount: 0, modified: 0, format: .jpeg)
                    if case .failed(let reason) = pool.writeDecision(decision, for: file, mode: mode) {
                        return .problem("\(path.lastComponent.count > 0 ? String(decoding: path.lastComponent, as: UTF8.self) : path.description): \(reason)")
                    }
                    return nil
                case .read(let read):
                    let (decision, problem) = pool.readDecision(read.file)
                    if let problem { return .problem(problem) }
                    return decision.map { .read(read.id, $0) }
                }
            })
    }

    /// Writes these decisions, before any read still waiting.
    public func write(_ writes: [DecisionWrite]) {
        queue.change { schedule, _ in
            for write in writes { schedule.writes += write.paths.map { ($0, write.decision) } }
        }
    }

    /// Reads these photos' decisions, after what was asked before.
    public func read(_ reads: [Read]) {
        guard !reads.isEmpty else { return }
        queue.change { schedule, _ in schedule.reads += reads }
    }

    public func takeResults() -> [Result] { queue.takeResults() }

    /// Finishes the writes in hand and waiting, at most `timeout` seconds, and stops; the photos
    /// whose decisions were not written by then (a stalled mount), to be said.
    public func finish(waitingAtMost timeout: Double) -> [ImagePath] {
        queue.wait(timeout: timeout) { schedule, _ in schedule.writes.isEmpty && schedule.writing == nil }
        let left = queue.read { schedule, _, _ in (schedule.writing.map { [$0] } ?? []) + schedule.writes.map(\.0) }
        queue.stop(waitingAtMost: timeout)
        return left
    }
}
