import Foundation
import Synchronization
import Testing

@testable import LightboxThumbnails

/// Numbers to square, largest first; odd results are dropped, and a job of 0 hands 1, 2, 3 as it goes.
private struct Squares: WorkSchedule {
    var pending: [Int] = []
    var dropped = 0

    mutating func next() -> Int? { pending.popLast() }

    mutating func finished(_ job: Int, with result: Int?) -> Bool {
        guard let result, result % 2 == 0 else {
            dropped += 1
            return false
        }
        return true
    }

    mutating func removeAll() { pending.removeAll() }
}

@Test func aWorkQueueDoesItsSchedulesJobsAndHandsOnWhatTheScheduleKeeps() {
    let ready = DispatchSemaphore(value: 0)
    let queue = WorkQueue(
        Squares(), threads: 1, name: "test-squares", onResult: { ready.signal() },
        perform: { job, hand in
            if job == 0 { for n in 1...3 { _ = hand(n) } }
            return job * job
        })
    queue.change { schedule, _ in schedule.pending = [4, 3, 2, 1] }  // 1 first, 4 last
    for _ in 0..<2 { #expect(ready.wait(timeout: .now() + 5) == .success) }
    queue.wait(timeout: 5) { schedule, waiting in waiting.count == 2 && schedule.pending.isEmpty }
    #expect(queue.takeResults() == [4, 16], "odd squares dropped by the schedule, in the order done")
    #expect(queue.read { schedule, _, inHand in schedule.dropped == 2 && inHand == 0 })
    // Results handed on as a job goes, then its last (0, even: kept).
    queue.change { schedule, _ in schedule.pending = [0] }
    queue.wait(timeout: 5) { _, waiting in waiting.count == 4 }
    #expect(queue.takeResults() == [1, 2, 3, 0])
    queue.stop(waitingAtMost: nil)
}

/// Stopping never waits on a job that hangs longer than it is told to, forgets what had not
/// begun, and a job that hands a result after the stop is told to end.
@Test func aWorkQueueStopsWithoutWaitingOnAHungJob() {
    let release = DispatchSemaphore(value: 0), began = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
    let handedAfterStop = Mutex(true)
    let queue = WorkQueue(Squares(), threads: 1, name: "test-hung") { job, hand in
        began.signal()
        release.wait()
        handedAfterStop.withLock { $0 = hand(job) }
        ended.signal()
        return nil
    }
    queue.change { schedule, _ in schedule.pending = [2, 1] }
    #expect(began.wait(timeout: .now() + 5) == .success)
    let start = Date()
    queue.stop(waitingAtMost: 0.1)
    #expect(Date().timeIntervalSince(start) < 1, "the stop waited only as long as it was told")
    #expect(queue.read { schedule, _, inHand in schedule.pending.isEmpty && inHand == 1 })
    release.signal()
    #expect(ended.wait(timeout: .now() + 5) == .success)
    #expect(handedAfterStop.withLock { $0 } == false && queue.takeResults().isEmpty)
}

/// Decisions whose sidecar writes a stalled disk holds up are named at the end, never waited for.
@Test func decisionsNotWrittenInTimeAreNamedAtTheEnd() {
    // A "decoder" that never answers: as a sidecar write to a mount that stopped answering.
    let pool = WorkerPoolDecoder(command: ["/bin/sh", "-c", "exec sleep 30"], timeLimit: 20)
    defer { pool.shutdown() }
    let keeper = DecisionKeeper(pool: pool, policy: SidecarPolicy(mode: .appended)) {}
    keeper.write([
        DecisionWrite(id: ItemID(0), paths: [ImagePath("/x/a.jpg")], decision: Decision(rating: 1)),
        DecisionWrite(id: ItemID(1), paths: [ImagePath("/x/b.jpg"), ImagePath("/x/b.CR2")], decision: Decision(rating: 2)),
    ])
    let start = Date()
    let left = keeper.finish(waitingAtMost: 0.3)
    #expect(Date().timeIntervalSince(start) < 2, "the end waits as long as it said, not for the disk")
    #expect(left.unwritten == [ImagePath("/x/a.jpg"), ImagePath("/x/b.jpg"), ImagePath("/x/b.CR2")] && left.kept.isEmpty)
}

/// A job stuck in a read (a mount that does not answer) gets a thread standing in for its own, so
/// the jobs after it go on; the stuck thread ends with its job, and no more than one stands in.
@Test func aStuckJobsThreadIsStoodInForAndEndsWithItsJob() {
    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var stuck: pthread_t?
        let release = DispatchSemaphore(value: 0)
    }
    let box = Box()
    let queue = WorkQueue(Squares(), threads: 1, name: "test-standin") { job, _ in
        if job == 1 {
            box.lock.lock(); box.stuck = pthread_self(); box.lock.unlock()
            box.release.wait()
        }
        return job * 2
    }
    queue.change { schedule, _ in schedule.pending = [3, 2, 1] }  // 1 first
    var stuck: pthread_t?
    for _ in 0..<200 where stuck == nil {
        usleep(5_000)
        box.lock.lock(); stuck = box.stuck; box.lock.unlock()
    }
    guard let stuck else { Issue.record("job 1 never ran"); return }
    #expect(queue.takeResults().isEmpty)
    #expect(queue.standIn(for: [stuck]) == 1)
    #expect(queue.standIn(for: [stuck]) == 0, "one stand-in a stuck thread")
    queue.wait(timeout: 5) { _, waiting in waiting.count == 2 }
    #expect(queue.takeResults() == [4, 6], "the jobs after it ran meanwhile")
    box.release.signal()
    queue.wait(timeout: 5) { _, waiting in waiting.count == 1 }
    #expect(queue.takeResults() == [2])
    queue.stop(waitingAtMost: 5)
    #expect(queue.read { _, _, inHand in inHand } == 0)
}

/// A sidecar read the decoder does not answer in time is asked again after the others (a share
/// busy with other reads says nothing of the sidecar), and is a problem only the third time.
@Test func aSidecarReadWithoutAnAnswerIsAskedAgainAfterTheOthers() {
    let a = DecisionKeeper.Read(id: ItemID(0), item: ImageFile(path: ImagePath("/x/a.jpg"), byteCount: 1, modified: 0, format: .jpeg))
    let b = DecisionKeeper.Read(id: ItemID(1), item: ImageFile(path: ImagePath("/x/b.jpg"), byteCount: 1, modified: 0, format: .jpeg))
    var schedule = DecisionKeeper.Schedule()
    schedule.reads = [a, b]
    guard case .read(let first)? = schedule.next() else { return #expect(Bool(false)) }
    #expect(first.id == a.id)
    let handed = schedule.finished(.read(first), with: .unanswered(first))
    #expect(!handed, "not handed out")
    guard case .read(let second)? = schedule.next() else { return #expect(Bool(false)) }
    #expect(second.id == b.id)
    let read = schedule.finished(.read(second), with: .read([DecisionKeeper.Known(id: b.id, decision: Decision(rating: 2))]))
    #expect(read)
    guard case .read(let again)? = schedule.next() else { return #expect(Bool(false)) }
    #expect(again.id == a.id && again.unanswered == 1)
    let none = schedule.next()
    #expect(none == nil)

    // A decoder that never answers: three tries, then one problem.
    let pool = WorkerPoolDecoder(command: ["/bin/sh", "-c", "exec sleep 30"], timeLimit: 0.2)
    defer { pool.shutdown() }
    let keeper = DecisionKeeper(pool: pool, policy: SidecarPolicy(mode: .appended)) {}
    keeper.read([a])
    var results: [DecisionKeeper.Result] = []
    for _ in 0..<100 where results.isEmpty {
        usleep(20_000)
        results = keeper.takeResults()
    }
    usleep(300_000)
    results += keeper.takeResults()
    #expect(results == [.problem("its XMP: timed out after 0 s")])
}

/// With an index, local photos are checked against it a batch at a time (one transaction); those
/// that changed since come back to be read one by one, next; held reads wait, recalls do not.
@Test func localSidecarReadsAreCheckedInBatchesAndTheChangedReadNext() {
    let reads = (0..<(DecisionKeeper.checksAtOnce + 2)).map {
        DecisionKeeper.Read(id: ItemID($0), item: ImageFile(path: ImagePath("/tmp/lightbox-none/\($0).jpg"), byteCount: 1, modified: 0, format: .jpeg))
    }
    var schedule = DecisionKeeper.Schedule()
    schedule.checksInBatches = true
    schedule.readsHeld = true
    schedule.recalls = [reads]
    schedule.reads = reads
    guard case .recall(let recalled)? = schedule.next() else { return #expect(Bool(false), "the index's copies, held or not") }
    #expect(recalled.count == reads.count)
    _ = schedule.finished(.recall(recalled), with: nil)
    #expect(schedule.next() == nil, "held")
    schedule.readsHeld = false
    guard case .check(let first)? = schedule.next() else { return #expect(Bool(false)) }
    #expect(first.map { $0.id } == reads.prefix(DecisionKeeper.checksAtOnce).map { $0.id })
    #expect(schedule.next() == nil, "one read in hand on a local disk")
    var changed = first[3]
    changed.isChecked = true
    let handed = schedule.finished(.check(first), with: .changed([changed]))
    #expect(!handed, "not handed out")
    guard case .read(let again)? = schedule.next() else { return #expect(Bool(false), "the changed one next") }
    #expect(again.id == changed.id)
    _ = schedule.finished(.read(again), with: nil)
    guard case .check(let rest)? = schedule.next() else { return #expect(Bool(false)) }
    #expect(rest.map { $0.id } == reads.suffix(2).map { $0.id })
    _ = schedule.finished(.check(rest), with: nil)
    #expect(schedule.next() == nil)
}

/// Reads whose index copies came with the index's library are not recalled again, only checked;
/// the others are recalled first; without an index nothing is.
@Test func readsRecalledWithTheLibraryAreOnlyChecked() {
    var reads = (0..<3).map {
        DecisionKeeper.Read(id: ItemID($0), item: ImageFile(path: ImagePath("/tmp/lightbox-none/\($0).jpg"), byteCount: 1, modified: 0, format: .jpeg))
    }
    reads[0].isRecalled = true
    reads[2].isRecalled = true
    var schedule = DecisionKeeper.Schedule()
    schedule.ask(reads, recalling: true)
    guard case .recall(let recalled)? = schedule.next() else { return #expect(Bool(false), "the one without its copy recalled") }
    #expect(recalled.map(\.id) == [ItemID(1)])
    _ = schedule.finished(.recall(recalled), with: nil)
    guard case .read(let first)? = schedule.next() else { return #expect(Bool(false), "then each read, in order") }
    #expect(first.id == ItemID(0) && schedule.reads.count == 3)
    var all = DecisionKeeper.Schedule()
    all.ask(
        reads.map {
            var read = $0; read.isRecalled = true; return read
        }, recalling: true)
    #expect(all.recalls.isEmpty && all.reads.count == 3)
    var none = DecisionKeeper.Schedule()
    none.ask(reads, recalling: false)
    #expect(none.recalls.isEmpty)
}
