import Foundation
import Synchronization

/// Reads and writes photos' decisions off the UI thread, through decoder processes (Exempi runs
/// there only): writes first, in the order made, then reads, in the order asked. With an index,
/// what it knows of the photos asked for comes first, at once; then each photo's files are
/// looked at, and only those changed since are read again. Results are taken with
/// `takeResults()` after `onResult` says there are some.
public final class DecisionKeeper: @unchecked Sendable {
    /// An item whose decision is to be read: its files (a pair's members), the picture first
    /// (a later file's decision, a RAW's, wins).
    public struct Read: Hashable, Sendable {
        public var id: ItemID
        /// The item (a pair's picture, its companions with it).
        public var item: ImageFile
        /// Times it was asked and got no answer in time.
        var unanswered = 0
        /// Whether its stamps were checked against the index's copies in a batch (and differed).
        var isChecked = false
        /// Whether what the index's copies say of it came with the index's library
        /// (`Scanner.Batch.indexedDecisions`): not recalled again, only checked.
        public var isRecalled = false

        public init(id: ItemID, item: ImageFile) {
            self.id = id
            self.item = item
        }

        /// Its files, the picture first: each as the item with its member's path (made on the
        /// keeper's thread, not the UI's, where a 100,000-photo library asks for them all).
        public var files: [ImageFile] {
            item.memberPaths.map { path in
                var member = item
                member.path = path
                return member
            }
        }
    }

    /// An item's decision, and whether it was kept in the state folder, not beside the photo.
    public struct Known: Hashable, Sendable {
        public var id: ItemID
        public var decision: Decision
        public var isKept: Bool

        public init(id: ItemID, decision: Decision, isKept: Bool = false) {
            self.id = id
            self.decision = decision
            self.isKept = isKept
        }
    }

    /// What came back.
    public enum Result: Hashable, Sendable {
        /// What items' XMP says (the index's copy, or read now: then only when it differs from
        /// what the index said, or says something).
        case read([Known])
        /// A decision stored: beside the photo (nil), or kept in the state folder, and why.
        case stored(ItemID, keptBecause: String?)
        /// A sidecar that could not be read or written, and why.
        case problem(String)
        /// A read that got no answer in time: asked again after the others (never handed out).
        case unanswered(Read)
        /// A read not sent: its mount does not answer; asked again once it does (never handed out).
        case parked(Read)
        /// Reads whose files changed since the index's copies, or that it has none of: read next,
        /// each by a decoder (never handed out).
        case changed([Read])
    }

    /// Times a read without an answer is asked again before it is a problem: on a share busy
    /// with the scan's and the thumbnails' reads, a sidecar's few round trips can wait past the
    /// decoder's limit (seen at a 40 ms round trip), which says nothing of the sidecar.
    public static let readAttempts = 3

    /// One file's decision to write, for an item.
    typealias Write = (id: ItemID, path: ImagePath, decision: Decision, fields: DecisionFields)

    enum Job {
        case write(Write)
        /// What the index knows of these items' decisions.
        case recall([Read])
        /// Local photos' stamps against the index's copies, in one transaction.
        case check([Read])
        case read(Read)
    }

    struct Schedule: WorkSchedule {
        typealias Result = DecisionKeeper.Result
        var writes: [Write] = []
        /// Batches of reads whose index copies are to be shown first.
        var recalls: [[Read]] = []
        var reads: [Read] = []
        var readsTaken = 0
        /// Reads of a mount that did not answer, not sent: asked again once it answers (`retryParked`).
        var parked: [Read] = []
        /// The writes in hand: one a photo at a time, so its decisions land in the order made.
        var writing: [Write] = []
        /// Whether a recall is in hand: no read starts meanwhile, so an older copy never lands
        /// after what was read now.
        var isRecalling = false
        /// Reads in hand: a few, so that on a share their round trips overlap, and few, so that
        /// the start's reading of every sidecar never crowds the first screen's decoding.
        var reading = 0
        /// Whether local photos are checked against the index a batch at a time (with an index).
        var checksInBatches = false
        /// Whether reads wait (recalls, the index's copies, do not): see `holdReads(_:)`.
        var readsHeld = false

        mutating func next() -> Job? {
            if let index = writes.firstIndex(where: { write in !writing.contains { $0.path == write.path } }) {
                let write = writes.remove(at: index)
                writing.append(write)
                return .write(write)
            }
            // Reads once every write has begun (they are the start's, writes the user's).
            guard writes.isEmpty, !isRecalling else { return nil }
            if !recalls.isEmpty {
                isRecalling = true
                return .recall(recalls.removeFirst())
            }
            guard !readsHeld, readsTaken < reads.count else { return nil }
            let isLocal = DecisionKeeper.isLocal(reads[readsTaken])
            guard reading < DecisionKeeper.readsInFlight(isLocal: isLocal) else { return nil }
            reading += 1
            if checksInBatches, !reads[readsTaken].isChecked, isLocal {
                var end = readsTaken + 1
                while end < reads.count, end - readsTaken < DecisionKeeper.checksAtOnce, !reads[end].isChecked, DecisionKeeper.isLocal(reads[end]) {
                    end += 1
                }
                defer {
                    readsTaken = end
                    if readsTaken == reads.count { reads.removeAll(); readsTaken = 0 }
                }
                return .check(Array(reads[readsTaken..<end]))
            }
            defer {
                readsTaken += 1
                if readsTaken == reads.count { reads.removeAll(); readsTaken = 0 }
            }
            return .read(reads[readsTaken])
        }

        mutating func finished(_ job: Job, with result: Result?) -> Bool {
            switch job {
            case .write(let write): if let index = writing.firstIndex(where: { $0.path == write.path }) { writing.remove(at: index) }
            case .recall: isRecalling = false
            case .check, .read: reading -= 1
            }
            if case .changed(let left)? = result {
                reads.insert(contentsOf: left, at: readsTaken)
                return false
            }
            if case .unanswered(var read)? = result {
                read.unanswered += 1
                reads.append(read)
                return false
            }
            if case .parked(let read)? = result {
                parked.append(read)
                return false
            }
            return result != nil
        }

        /// Asks for `reads`, after what was asked before; first what the index's copies say of
        /// those whose copies did not come with them (`recalling`: there is an index).
        mutating func ask(_ reads: [Read], recalling: Bool) {
            let recall = reads.filter { !$0.isRecalled }
            if recalling, !recall.isEmpty { recalls.append(recall) }
            self.reads += reads
        }

        mutating func removeAll() {
            writes.removeAll()
            recalls.removeAll()
            reads.removeAll()
            parked.removeAll()
            readsTaken = 0
        }
    }

    private let queue: WorkQueue<Schedule>

    private let pool: WorkerPoolDecoder
    private let policy: SidecarPolicy
    private let index: LibraryIndex?

    /// Writes in flight at once: on a share each costs many round trips, which overlap.
    public static let writesInFlight = 4
    /// Reads in flight at once (each a decoder process)...
    public static let readsInFlight = 4

    /// ...on a share; on a local disk one, which checks an unchanged photo in microseconds
    /// (four at once took a core from the first screen and the index's replay).
    static func readsInFlight(isLocal: Bool) -> Int { isLocal ? 1 : readsInFlight }

    /// Local photos checked against the index at once: one read transaction, not one a photo
    /// (a 100,000-photo relaunch's checks, one at a time, slowed the replay beside them threefold).
    static let checksAtOnce = 500

    /// Whether a read's photo is on a local disk, told by the mount table.
    static func isLocal(_ read: Read) -> Bool { !ParallelReads.isOnNetworkMount(read.item.path) }

    /// Keeps decisions with `pool` (a pool of `lightbox-decode` processes): a photo without a
    /// sidecar gets one named as `policy` says; one that cannot have it beside, in the policy's
    /// state folder. What is read is kept in `index`, and what it knows shown first.
    /// Reads of a mount `watch` says is not answering are not sent: they wait, parked, until it
    /// answers (`retryParked`), instead of each timing out three times.
    public init(
        pool: WorkerPoolDecoder, policy: SidecarPolicy, index: LibraryIndex? = nil, watch: ReadWatch = .shared,
        onResult: @escaping @Sendable () -> Void
    ) {
        self.pool = pool
        self.policy = policy
        self.index = index
        var schedule = Schedule()
        schedule.checksInBatches = index != nil
        queue = WorkQueue(
            schedule, threads: max(Self.writesInFlight, Self.readsInFlight), name: "lightbox-sidecars", onResult: onResult,
            perform: { job, hand in
                switch job {
                case .write(let write): return Self.perform(write, pool: pool, policy: policy, index: index)
                case .recall(let reads): return Self.recall(reads, index: index)
                case .check(let reads): return Self.check(reads, policy: policy, index: index)
                case .read(let read): return Self.perform(read, pool: pool, policy: policy, index: index, watch: watch, hand: hand)
                }
            })
    }

    /// Writes a decision; then reads the sidecar again for the index (it may hold other
    /// programs' fields too), so its copy is never older than the file.
    static func perform(_ write: Write, pool: WorkerPoolDecoder, policy: SidecarPolicy, index: LibraryIndex?) -> Result {
        let file = ImageFile(path: write.path, byteCount: 0, modified: 0, format: .jpeg)
        let result: Result
        switch pool.writeDecision(write.decision, fields: write.fields, for: file, policy: policy) {
        case .written, .unchanged: result = .stored(write.id, keptBecause: nil)
        case .kept(let reason): result = .stored(write.id, keptBecause: reason)
        case .failed(let reason):
            let name = write.path.lastComponent.isEmpty ? write.path.description : String(decoding: write.path.lastComponent, as: UTF8.self)
            return .problem("\(name): \(reason)")
        }
        if let index {
            let answer = pool.readDecision(file, keptIn: policy.keptRoot)
            if answer.problem == nil, answer.stamp != 0 {
                index.rememberDecision(LibraryIndex.KnownDecision(stamp: answer.stamp, decision: answer.decision, isKept: answer.isKept), of: write.path)
            }
        }
        return result
    }

    /// What the index knows of these items' decisions: those it knows for every file of the
    /// item, and that say something.
    static func recall(_ reads: [Read], index: LibraryIndex?) -> Result? {
        guard let index else { return nil }
        var known = index.decisions(of: reads.flatMap(\.item.memberPaths))[...]
        var shown: [Known] = []
        for read in reads {
            let copies = known.prefix(read.item.memberCount)
            known = known.dropFirst(read.item.memberCount)
            guard let item = Scanner.IndexedDecision(Array(copies)), !item.decision.isEmpty else { continue }
            shown.append(item.known(read.id))
        }
        index.countDecisionsShown(shown.count)
        return shown.isEmpty ? nil : .read(shown)
    }

    /// Local photos' stamps against the index's copies: the items all of whose files are
    /// unchanged need nothing more (what the index said of them stands); the others are said
    /// `changed`, to be read.
    /// - Complexity: one index transaction, and a few `lstat` calls a file.
    static func check(_ reads: [Read], policy: SidecarPolicy, index: LibraryIndex?) -> Result? {
        let copies = index?.decisions(of: reads.flatMap(\.item.memberPaths)) ?? []
        var changed: [Read] = []
        var next = 0
        for var read in reads {
            let mine = next < copies.count ? copies[next..<min(copies.count, next + read.item.memberCount)] : []
            next += read.item.memberCount
            let unchanged =
                mine.count == read.item.memberCount
                && zip(read.files, mine).allSatisfy { file, copy in
                    copy.map { DecisionStamp.of(photo: file.path, keptIn: policy.keptRoot) == $0.stamp } ?? false
                }
            if !unchanged {
                read.isChecked = true
                changed.append(read)
            }
        }
        return changed.isEmpty ? nil : .changed(changed)
    }

    /// An item's decision from its files': the last that says one wins (none when none does).
    static func combined(_ files: some BidirectionalCollection<(decision: Decision?, isKept: Bool)>) -> (decision: Decision, isKept: Bool) {
        guard let last = files.last(where: { $0.decision != nil }) else { return (.none, false) }
        return (last.decision!, last.isKept)
    }

    /// Reads an item's files' decisions (those the index has a copy of, only when their files
    /// changed since), keeps what was read in the index, and says the item's decision when it
    /// differs from what the index said of it (a problem is handed on as it is met).
    static func perform(
        _ read: Read, pool: WorkerPoolDecoder, policy: SidecarPolicy, index: LibraryIndex?, watch: ReadWatch, hand: (Result) -> Bool
    ) -> Result? {
        let photo = read.item.path
        if watch.notAnswering(holding: photo) != nil { return .parked(read) }
        // Not itself watched: a decoder's read says nothing while it moves, and one slowed by a
        // busy link is no stall. Looks at the mount beside it, once a second, name a share that
        // stops answering within seconds (and one when the read gets no answer).
        let found = probing(photo, watch: watch, if: !isLocal(read)) {
            readNow(read, pool: pool, policy: policy, index: index, stoppingUnanswered: true, problem: { _ = hand(.problem($0)) })
        }
        guard let found else {
            // No answer: the mount is looked at, and named if it does not answer that either.
            if watch.notAnswering(holding: photo) != nil || !watch.answers(photo) { return .parked(read) }
            if read.unanswered + 1 < Self.readAttempts { return .unanswered(read) }
            return .problem("its XMP: timed out after \(Int(pool.timeLimit)) s")
        }
        return found.now == found.indexed ? nil : .read([found.now])
    }

    /// Whether `file` has no XMP that could say a decision, told here without an XMP library:
    /// nothing kept for it and no sidecar (`found`), and its bytes a JPEG whose header segments,
    /// read whole, hold no XMP packet. Most photos of a first visit, each spared a decoder's
    /// exchange (a snapshot, its decoder's start: a tenth of a second). False when there is XMP,
    /// or when it cannot be told so (other kinds: Exempi looks).
    /// - Complexity: a read of the file's first bytes (16 KB; up to 128 KB of long headers).
    static func hasNoXMP(_ file: ImageFile, found: DecisionStamp.Found) -> Bool {
        guard !found.hasKept, found.sidecar == nil, file.format == .jpeg,
            case .success((_, let header?)) = ThumbnailPipeline.jpegHeader(file.path)
        else { return false }
        return header.headersAreWhole && header.xmpPacket == nil
    }

    /// `body`, with `watch.probe(photo)` at its start and every second while it runs (when `probes`).
    public static func probing<T>(_ photo: ImagePath, watch: ReadWatch, if probes: Bool, _ body: () -> T) -> T {
        guard probes else { return body() }
        let over = SharedFlag(false)
        @Sendable func look() {
            guard !over.isSet else { return }
            watch.probe(photo)
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { look() }
        }
        look()
        defer { over.set(true) }
        return body()
    }

    /// An item's decision read now, and what the index said of it (its copy when it had one for
    /// every file, else none): a file the index has a copy of is read only when it changed
    /// since, and what is read is kept in the index. Nil when a read got no answer in time and
    /// `stoppingUnanswered` (to be asked again); else that is a problem like any.
    /// - Complexity: one decoder exchange a file (a few `lstat` calls for one unchanged on a local disk).
    public static func readNow(
        _ read: Read, pool: WorkerPoolDecoder, policy: SidecarPolicy, index: LibraryIndex?, stoppingUnanswered: Bool = false,
        problem: (String) -> Void
    ) -> (now: Known, indexed: Known)? {
        let files = read.files
        let copies = index?.decisions(of: read.item.memberPaths) ?? files.map { _ in nil }
        // On a local disk the stamp is a few `lstat` calls, taken here: a decoder's exchange for
        // each unchanged photo cost a 100,000-photo relaunch seconds of both cores. On a share a
        // look may hang for as long as the mount does, so a decoder takes it there.
        let isLocal = !ParallelReads.isOnNetworkMount(read.item.path)
        var now: [(decision: Decision?, isKept: Bool)] = []
        for (file, copy) in zip(files, copies) {
            if isLocal {
                let (stamp, found) = DecisionStamp.look(photo: file.path, keptIn: policy.keptRoot)
                if let copy, stamp == copy.stamp {
                    now.append((copy.decision, copy.isKept))
                    continue
                }
                if hasNoXMP(file, found: found) {
                    now.append((nil, false))
                    index?.rememberDecision(LibraryIndex.KnownDecision(stamp: stamp, decision: nil, isKept: false), of: file.path)
                    continue
                }
            }
            let answer = pool.readDecision(file, keptIn: policy.keptRoot, unless: copy?.stamp ?? 0)
            if answer.isUnanswered, stoppingUnanswered { return nil }
            if let text = answer.problem { problem(text) }
            if answer.isUnchanged, let copy {
                now.append((copy.decision, copy.isKept))
                continue
            }
            now.append((answer.decision, answer.isKept))
            if answer.problem == nil, answer.stamp != 0 {
                index?.rememberDecision(LibraryIndex.KnownDecision(stamp: answer.stamp, decision: answer.decision, isKept: answer.isKept), of: file.path)
            }
        }
        let indexed = Scanner.IndexedDecision(copies)?.known(read.id) ?? Known(id: read.id, decision: .none)
        let current = combined(now)
        return (Known(id: read.id, decision: current.decision, isKept: current.isKept), indexed)
    }

    /// Asks again for the reads parked while their mount did not answer (call when one answers again).
    public func retryParked() {
        queue.change { schedule, _ in
            schedule.reads.insert(contentsOf: schedule.parked, at: schedule.readsTaken)
            schedule.parked.removeAll()
        }
    }

    /// Holds the reads (`true`) or lets them go: what the index said of the photos is shown
    /// meanwhile; writes are never held. A relaunch's 100,000 checks took a core from the replay
    /// of the index they are checked against.
    public func holdReads(_ held: Bool) {
        queue.change { schedule, _ in schedule.readsHeld = held }
    }

    /// Reads parked on a mount that does not answer.
    public var parkedCount: Int { queue.read { schedule, _, _ in schedule.parked.count } }

    /// Writes these decisions, before any read still waiting.
    public func write(_ writes: [DecisionWrite]) {
        queue.change { schedule, _ in
            for write in writes { schedule.writes += write.paths.map { (write.id, $0, write.decision, write.fields) } }
        }
    }

    /// Reads these items' decisions, after what was asked before (what the index knows of
    /// them before any read).
    public func read(_ reads: [Read]) {
        guard !reads.isEmpty else { return }
        queue.change { schedule, _ in
            schedule.ask(reads, recalling: index != nil)
        }
    }

    public func takeResults() -> [Result] { queue.takeResults() }

    /// Whether nothing is asked, in hand or waiting to be taken.
    public var isIdle: Bool {
        queue.read { schedule, waiting, inHand in schedule.writes.isEmpty && schedule.reads.isEmpty && inHand == 0 && waiting.isEmpty }
    }

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
