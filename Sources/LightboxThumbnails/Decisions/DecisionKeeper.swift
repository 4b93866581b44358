import Foundation
import Synchronization

/// Reads and writes photos' decisions off the UI thread, through a decoder process (Exempi runs
/// there only): writes first, in the order made, then reads, in the order asked. Results are
/// taken with `takeResults()` after `onResult` says there are some.
public final class DecisionKeeper: @unchecked Sendable {
    /// A photo whose decision is to be read, by the item's id.
    public struct Read: Hashable, Sendable {
        public var id: ItemID
        public var file: ImageFile
        /// Times it was asked and got no answer in time.
        var unanswered = 0

        public init(id: ItemID, file: ImageFile) {
            self.id = id
            self.file = file
        }
    }

    /// What came back.
    public enum Result: Hashable, Sendable {
        /// What an item's XMP says, and whether it was kept in the state folder, not beside it.
        case read(ItemID, Decision, isKept: Bool)
        /// A decision stored: beside the photo (nil), or kept in the state folder, and why.
        case stored(ItemID, keptBecause: String?)
        /// A sidecar that could not be read or written, and why.
        case problem(String)
        /// A read that got no answer in time: asked again after the others (never handed out).
        case unanswered(Read)
    }

    /// Times a read without an answer is asked again before it is a problem: on a share busy
    /// with the scan's and the thumbnails' reads, a sidecar's few round trips can wait past the
    /// decoder's limit (seen at a 40 ms round trip), which says nothing of the sidecar.
    public static let readAttempts = 3

    /// One file's decision to write, for an item.
    typealias Write = (id: ItemID, path: ImagePath, decision: Decision, fields: DecisionFields)

    enum Job {
        case write(Write)
        case read(Read)
    }

    struct Schedule: WorkSchedule {
        typealias Result = DecisionKeeper.Result
        var writes: [Write] = []
        var reads: [Read] = []
        var readsTaken = 0
        /// The writes in hand: one a photo at a time, so its decisions land in the order made.
        var writing: [Write] = []
        /// Whether a read is in hand: reads go one at a time (one decoder process), so that the
        /// start's reading of every sidecar never crowds the first screen's decoding.
        var isReading = false

        mutating func next() -> Job? {
            if let index = writes.firstIndex(where: { write in !writing.contains { $0.path == write.path } }) {
                let write = writes.remove(at: index)
                writing.append(write)
                return .write(write)
            }
            // Reads once every write has begun (they are the start's, writes the user's).
            guard writes.isEmpty, !isReading, readsTaken < reads.count else { return nil }
            isReading = true
            defer {
                readsTaken += 1
                if readsTaken == reads.count { reads.removeAll(); readsTaken = 0 }
            }
            return .read(reads[readsTaken])
        }

        mutating func finished(_ job: Job, with result: Result?) -> Bool {
            switch job {
            case .write(let write): if let index = writing.firstIndex(where: { $0.path == write.path }) { writing.remove(at: index) }
            case .read: isReading = false
            }
            if case .unanswered(var read)? = result {
                read.unanswered += 1
                reads.append(read)
                return false
            }
            return result != nil
        }

        mutating func removeAll() {
            writes.removeAll()
            reads.removeAll()
            readsTaken = 0
        }
    }

    private let queue: WorkQueue<Schedule>

    private let pool: WorkerPoolDecoder
    private let policy: SidecarPolicy

    /// Writes in flight at once: on a share each costs many round trips, which overlap.
    public static let writesInFlight = 4

    /// Keeps decisions with `pool` (a pool of `lightbox-decode` processes): a photo without a
    /// sidecar gets one named as `policy` says; one that cannot have it beside, in the policy's
    /// state folder.
    public init(pool: WorkerPoolDecoder, policy: SidecarPolicy, onResult: @escaping @Sendable () -> Void) {
        self.pool = pool
        self.policy = policy
        queue = WorkQueue(
            Schedule(), threads: Self.writesInFlight, name: "lightbox-sidecars", onResult: onResult,
            perform: { job, _ in
                switch job {
                case .write(let write):
                    let file = ImageFile(path: write.path, byteCount: 0, modified: 0, format: .jpeg)
                    switch pool.writeDecision(write.decision, fields: write.fields, for: file, policy: policy) {
                    case .written, .unchanged: return .stored(write.id, keptBecause: nil)
                    case .kept(let reason): return .stored(write.id, keptBecause: reason)
                    case .failed(let reason):
                        let name = write.path.lastComponent.isEmpty ? write.path.description : String(decoding: write.path.lastComponent, as: UTF8.self)
                        return .problem("\(name): \(reason)")
                    }
                case .read(let read):
                    let answer = pool.readDecision(read.file, keptIn: policy.keptRoot)
                    if answer.isUnanswered, read.unanswered + 1 < Self.readAttempts { return .unanswered(read) }
                    if let problem = answer.problem { return .problem(problem) }
                    return answer.decision.map { .read(read.id, $0, isKept: answer.isKept) }
                }
            })
    }

    /// Writes these decisions, before any read still waiting.
    public func write(_ writes: [DecisionWrite]) {
        queue.change { schedule, _ in
            for write in writes { schedule.writes += write.paths.map { (write.id, $0, write.decision, write.fields) } }
        }
    }

    /// Reads these photos' decisions, after what was asked before.
    public func read(_ reads: [Read]) {
        guard !reads.isEmpty else { return }
        queue.change { schedule, _ in schedule.reads += reads }
    }

    public func takeResults() -> [Result] { queue.takeResults() }

    /// What became of the decisions still being written at the end.
    public struct Leftovers: Hashable, Sendable {
        /// The items kept in the state folder instead (their folder did not answer in time).
        public var kept: Set<ItemID> = []
        /// Neither beside the photo nor kept: lost, to be said.
        public var unwritten: [ImagePath] = []
    }

    /// Finishes the writes in hand and waiting, at most `timeout` seconds, and stops. What was
    /// not written by then (a slow or stalled mount) is kept in the policy's state folder (on the
    /// local disk, through a decoder of its own, `timeout` at most again), so nothing is lost;
    /// what could not be kept either is named.
    public func finish(waitingAtMost timeout: Double) -> Leftovers {
        queue.wait(timeout: timeout) { schedule, _ in schedule.writes.isEmpty && schedule.writing.isEmpty }
        let left = queue.read { schedule, _, _ in schedule.writing + schedule.writes }
        queue.stop(waitingAtMost: 0)
        var leftovers = Leftovers()
        guard !left.isEmpty else { return leftovers }
        guard timeout > 0, policy.keptRoot != nil else {
            leftovers.unwritten = left.map(\.path)
            return leftovers
        }
        var straightToKept = policy
        straightToKept.besidePhoto = false
        let keeping = straightToKept
        // On a thread of its own, waited for `timeout` at most: a decoder that hangs never holds the end.
        let kept = Mutex<Set<ImagePath>>([])
        let done = DispatchSemaphore(value: 0)
        let pool = self.pool
        Thread {
            for write in left {
                let file = ImageFile(path: write.path, byteCount: 0, modified: 0, format: .jpeg)
                if case .kept = pool.writeDecision(write.decision, fields: write.fields, for: file, policy: keeping) {
                    kept.withLock { _ = $0.insert(write.path) }
                }
            }
            done.signal()
        }.start()
        _ = done.wait(timeout: .now() + timeout)
        let keptPaths = kept.withLock { $0 }
        for write in left {
            if keptPaths.contains(write.path) { leftovers.kept.insert(write.id) } else { leftovers.unwritten.append(write.path) }
        }
        return leftovers
    }
}
