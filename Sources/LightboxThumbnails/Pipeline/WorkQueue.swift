import Foundation

/// What a background worker keeps of its work, and its rules: which job may start next, what
/// becomes of a result. Its methods run under the queue's lock, so they are quick and do no I/O.
public protocol WorkSchedule: SendableMetatype {
    associatedtype Job
    associatedtype Result

    /// The next job to start, taken out of the schedule; nil when none may start now (the
    /// thread waits until the schedule changes or a job finishes).
    mutating func next() -> Job?

    /// `job` ended, with a last result or none: whether the owner hears of it (its result, if
    /// any, handed on; false: dropped, as a thumbnail no longer wanted is).
    mutating func finished(_ job: Job, with result: Result?) -> Bool

    /// A result handed on while its job goes on (the scan's batches).
    mutating func handing(_ result: Result)

    /// Forgets what has not begun: the queue is stopping.
    mutating func removeAll()
}

extension WorkSchedule {
    public mutating func finished(_ job: Job, with result: Result?) -> Bool { result != nil }
    public mutating func handing(_ result: Result) {}
}

/// Threads that take jobs from a schedule and hand back results: the one shape of Lightbox's
/// background workers (the thumbnail provider, the metadata reader, the read-ahead, the scan).
/// It holds the lock, the threads, the results and the call that wakes the run loop; the
/// schedule says what goes next. The caller's thread never waits on a job: a job that hangs
/// keeps its thread only.
public final class WorkQueue<Schedule: WorkSchedule>: @unchecked Sendable {
    /// Does a job on a worker thread, outside the lock: it may hand results as it goes (`hand`
    /// answers false once the queue stops) and end with one more.
    public typealias Perform = @Sendable (Schedule.Job, _ hand: (Schedule.Result) -> Bool) -> Schedule.Result?

    private let condition = NSCondition()
    private var schedule: Schedule
    private var results: [Schedule.Result] = []
    private var inHand = 0
    private var alive: Int
    private var stopped = false
    private let perform: Perform
    private let onResult: @Sendable () -> Void
    /// The worker threads' ids, once they run (for checking their priority).
    public private(set) var threadIDs: [Int32] = []
    /// The worker threads, each with whether another now stands in for it (its job waits on a
    /// mount that does not answer: it ends when that job does).
    private var workers: [pthread_t: Bool] = [:]
    /// Threads started to stand in for stuck ones, so far.
    public private(set) var standIns = 0
    /// The most stand-ins a queue starts: past them, a mount that never answers costs no more threads.
    public static var mostStandIns: Int { 64 }
    private let name: String
    private let setUp: @Sendable () -> Void

    /// Starts `threads` threads named `name`, each first running `setUp` (to lower its priority,
    /// say), then doing the schedule's jobs with `perform`; `onResult` is called, outside the
    /// lock, after each result is handed on (or a job ends that the schedule says to tell of).
    public init(
        _ schedule: Schedule, threads: Int = 1, name: String, setUp: @escaping @Sendable () -> Void = {},
        onResult: @escaping @Sendable () -> Void = {}, perform: @escaping Perform
    ) {
        self.schedule = schedule
        self.perform = perform
        self.onResult = onResult
        self.name = name
        self.setUp = setUp
        alive = max(1, threads)
        for index in 0..<alive { startThread(named: alive == 1 ? name : "\(name)-\(index)") }
    }

    private func startThread(named threadName: String) {
        // The threads keep the queue alive until `stop` ends them.
        let thread = Thread { [setUp] in
            setUp()
            self.work()
        }
        thread.name = threadName
        thread.start()
    }

    /// Starts a thread in place of each of `stuck` (the queue's threads among them: ones whose
    /// read waits on a mount that does not answer), so the work that needs no such read goes on;
    /// each stuck thread ends when its job does. At most `mostStandIns` in all.
    /// Returns how many were started.
    @discardableResult
    public func standIn(for stuck: Set<pthread_t>) -> Int {
        condition.lock()
        let replaced = stopped ? [] : Array(workers.filter { stuck.contains($0.key) && !$0.value }.keys.prefix(max(0, Self.mostStandIns - standIns)))
        for thread in replaced { workers[thread] = true }
        standIns += replaced.count
        alive += replaced.count
        let started = replaced.count
        condition.unlock()
        for _ in 0..<started { startThread(named: name + "-standin") }
        return started
    }

    /// Changes the schedule (more work, a new wish list, a pause) with the results waiting to be
    /// taken in view, and wakes the threads.
    public func change<T>(_ body: (inout Schedule, _ waiting: [Schedule.Result]) -> T) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body(&schedule, results)
    }

    /// Reads the schedule, with the results waiting and how many jobs are in hand.
    public func read<T>(_ body: (Schedule, _ waiting: [Schedule.Result], _ inHand: Int) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(schedule, results, inHand)
    }

    /// The results handed on since the last call, in the order they came.
    public func takeResults() -> [Schedule.Result] { takeResults { _ in () }.results }

    /// The results handed on since the last call, with what `body` reads of the schedule at the
    /// same moment (whether the scan was over when its last batches were taken).
    public func takeResults<T>(reading body: (Schedule) -> T) -> (results: [Schedule.Result], read: T) {
        condition.lock()
        defer { condition.unlock() }
        let taken = results
        results.removeAll()
        return (taken, body(schedule))
    }

    /// The first results handed on since the last call, as many as `weight` adds up to `limit`
    /// (the first whatever its weight) and none after one that `endsTake`, whether any were left,
    /// and what `body` reads of the schedule.
    /// - Complexity: O(*k*) in the results taken.
    public func takeResults<T>(
        upTo limit: Int, weight: (Schedule.Result) -> Int, endsTake: (_ last: Schedule.Result, _ next: Schedule.Result) -> Bool = { _, _ in false },
        reading body: (Schedule) -> T
    ) -> (results: [Schedule.Result], isLeft: Bool, read: T) {
        condition.lock()
        defer { condition.unlock() }
        var end = 0, total = 0
        while end < results.count, end == 0 || (total + weight(results[end]) <= limit && !endsTake(results[end - 1], results[end])) {
            total += weight(results[end])
            end += 1
        }
        let taken = Array(results[..<end])
        results.removeFirst(end)
        return (taken, !results.isEmpty, body(schedule))
    }

    /// Waits until `isDone` holds of the schedule and the results waiting, or `timeout` seconds pass.
    public func wait(timeout: Double, until isDone: (Schedule, _ waiting: [Schedule.Result]) -> Bool) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while !isDone(schedule, results) && condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Stops the threads after the jobs in hand, forgetting what has not begun, and waits for
    /// them: at most `timeout` seconds (nil: until they end; 0: not at all).
    public func stop(waitingAtMost timeout: Double?) {
        condition.lock()
        stopped = true
        schedule.removeAll()
        condition.broadcast()
        if let timeout {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while alive > 0 && condition.wait(until: deadline) {}
        } else {
            while alive > 0 { condition.wait() }
        }
        condition.unlock()
    }

    private func work() {
        condition.lock()
        threadIDs.append(IdlePriority.currentThreadID)
        let me = pthread_self()
        workers[me] = false
        while workers[me] != true {
            var job: Schedule.Job?
            while !stopped {
                job = schedule.next()
                if job != nil { break }
                condition.wait()
            }
            guard let job else { break }
            inHand += 1
            condition.unlock()
            let last = perform(job) { result in self.hand(result) }
            condition.lock()
            inHand -= 1
            let handsOn = schedule.finished(job, with: last)
            if handsOn, let last { results.append(last) }
            // A job's end may let another start (the screen's tiles before those ahead).
            condition.broadcast()
            if handsOn {
                condition.unlock()
                onResult()
                condition.lock()
            }
        }
        workers[me] = nil
        alive -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Hands `result` on while its job goes on; false once the queue stops.
    private func hand(_ result: Schedule.Result) -> Bool {
        condition.lock()
        let keepsGoing = !stopped
        if keepsGoing {
            schedule.handing(result)
            results.append(result)
            condition.broadcast()
        }
        condition.unlock()
        if keepsGoing { onResult() }
        return keepsGoing
    }
}
