import Foundation
import LightboxApp
import LightboxCurses
import LightboxTerminal
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// The interactive gallery's run loop: it polls what `Scheduler` says, reads what came (signals,
/// then input, then results), and sends each as a command or an event whose effects are carried out. What is
/// decided, and when, is the scheduler's and the state's; setting up and finishing are in
/// `InteractiveSession+Setup.swift`.
struct InteractiveSession {
    let options: Options
    let environment: [String: String]
    let scan: BackgroundScan
    /// What the scan had found when the session began.
    let firstBatch: BackgroundScan.Progress
    let pipeline: Decoder
    let terminal: CursesTerminal
    let terminalReport: TerminalReport?
    let capture: StderrCapture?
    let signals: Int32
    /// Decode and read-ahead results wake the loop through it (left open: a decoder thread may
    /// still signal as the process ends).
    let wake: WakePipe
    let provider: ThumbnailProvider
    let reader: MetadataReader
    let readAheadDecoder: Decoder?
    let readAhead: ReadAheadWorker?
    /// Reads and writes decisions in the photos' sidecars, through `sidecars`.
    let keeper: DecisionKeeper
    let sidecars: WorkerPoolDecoder
    let runner: EffectRunner
    var state: GalleryState
    var scheduler: Scheduler
    var router = InputRouter()
    var batch = EffectBatch()
    var marksFile: MarksFile?
    var timeline: Timeline
    /// What `--stats` prints once the terminal is restored.
    var report: String?
    /// The index's problems shown in the status line so far.
    var indexProblemsShown = 0
    /// Whether the keeper's reads wait for the index's library to land.
    var readsHeld = false

    /// Runs until an effect or a signal ends the session.
    mutating func loop() -> Outcome {
        if let outcome = followMounts() { return outcome }
        if let outcome = send(.scanned(firstBatch.batches, isFinished: firstBatch.isFinished)) { return outcome }
        for problem in options.index?.takeProblems() ?? [] {
            if let outcome = send(.notice(problem)) { return outcome }
        }
        indexProblemsShown = options.index?.problemsMetCount().count ?? 0
        if let outcome = perform(batch.take()) { return outcome }
        paint()
        timeline.mark("first paint")
        while true {
            let wait = scheduler.wait(at: Self.now, in: situation)
            let ready = poll(wait)
            if let outcome = step(ready) { return outcome }
        }
    }

    /// Names the mounts not answering (reads there too late, or gone: `ReadWatch`): their threads
    /// stood in for, and what waited for one that answers again asked again.
    mutating func followMounts() -> Outcome? {
        let stalled = ReadWatch.shared.notAnswering()
        if !stalled.isEmpty {
            let late = ReadWatch.shared.lateThreads()
            provider.standIn(for: late)
            reader.standIn(for: late)
            pipeline.readStage?.standIn(for: late)  // their turns to other mounts' reads
        }
        guard stalled != state.mountsNotAnswering else { return nil }
        if state.mountsNotAnswering.contains(where: { !stalled.contains($0) }) {  // one answers again
            reader.retryParked()
            keeper.retryParked()
        }
        return send(.mountsNotAnswering(stalled, unmounted: ReadWatch.shared.unmountedFolders))
    }

    /// One turn: signals first, then input, then results, so a key never waits behind decodes.
    mutating func step(_ ready: Set<LoopSource>) -> Outcome? {
        if scheduler.isFrameDue(at: Self.now, in: situation), let outcome = send(.tick(Self.now)) { return outcome }
        // Reads that wait too long name their mount (the loop wakes at least once a second).
        if let outcome = followMounts() { return outcome }
        for signal in Signals.drain(signals) {
            scheduler.changed()
            switch signal {
            case SIGTSTP: if let outcome = perform([.suspend]) { return outcome }
            case SIGPIPE: break
            case SIGWINCH: terminal.followWindowSize()
            default: return finish(.cancelled(exitCode: 128 + signal))
            }
        }
        if let outcome = readInput() { return outcome }
        wake.drain()
        terminal.takeReadyPictures()
        if let done = readAhead?.takeResults(), !done.isEmpty, let outcome = send(.readAheadDone(done)) { return outcome }  // its progress shows
        if let outcome = takeDecisions() { return outcome }
        if !state.isScanning, !state.library.isEmpty, keeper.isIdle { timeline.mark("decisions read") }
        for (request, result) in provider.takeResults() {
            if let outcome = send(.decoded(request, result)) { return outcome }
            timeline.mark("first thumbnail")
        }
        // Then what the scan found: it lands after everything shown, so nothing moves.
        if scheduler.takesScan(at: Self.now, in: situation) {
            let start = Self.now, progress = scan.take(filesAtMost: scheduler.pacing.scanTakeLimit)
            // A take that found nothing waiting is none: it neither paces the next nor ends the index's parts.
            if !progress.batches.isEmpty || progress.isFinished {
                // A mount the walk found gone is named before its end is taken: what the index had there stays.
                if progress.isFinished || progress.batches.contains(where: \.endsWalk), let outcome = followMounts() { return outcome }
                if let outcome = send(.scanned(progress.batches, isFinished: progress.isFinished)) { return outcome }
                // Listings are shown as the index's copies are: without reading anything.
                scheduler.tookScan(from: start, to: Self.now, fromIndex: progress.batches.contains { $0.isFromIndex || $0.isListing })
                timeline.note(progress.batches)
            }
            progress.release()
            if !state.isScanning { timeline.mark("scan over") }
        }
        // Decisions are checked once the index's library is all there (its copies show meanwhile).
        if scan.isLandingIndex != readsHeld {
            readsHeld.toggle()
            if !readsHeld { timeline.mark("index landed") }
            keeper.holdReads(readsHeld)
            if let outcome = send(.indexLanding(readsHeld)) { return outcome }
        }
        if ready.contains(.metadata) {
            let start = Self.now
            if let outcome = send(.metadataRead(reader.take())) { return outcome }
            scheduler.tookMetadata(from: start, to: Self.now)
        }
        // The index's troubles as they happen (a disk filling up mid-session), besides the end's list.
        if let met = options.index?.problemsMetCount(), met.count > indexProblemsShown, let last = met.last {
            indexProblemsShown = met.count
            if let outcome = send(.notice(last)) { return outcome }
        }
        if let outcome = perform(batch.take()) { return outcome }
        let waiting = terminal.pictures.picturesWaiting, measured = terminal.throughput.kilobitsPerSecond
        if waiting != state.pictures.waiting || (measured != nil && measured != state.pictures.measuredLinkSpeed),
            let outcome = send(.picturesWaiting(waiting, measuredLinkSpeed: measured))
        {
            return outcome
        }
        if scheduler.paintsNow(at: Self.now, screenIsComplete: state.isScreenComplete) {
            paint()
            if state.isScreenComplete && !state.library.isEmpty { timeline.mark("screen complete") }
        }
        // Pictures go in slices between reads of input.
        if terminal.hasPicturesWaiting { terminal.writePictures() }
        let idle = (readAhead?.isIdle ?? false) && provider.outstandingCount == 0 && state.loadingCount == 0
        if scheduler.readAheadIsDue(at: Self.now, nothingElseAsked: idle) { return send(.idle, repaints: false) }
        return nil
    }

    /// Sends what the sidecars said: the decisions read, and the first problem met (the rest counted).
    mutating func takeDecisions() -> Outcome? {
        var read: [Decisions.ItemChange] = [], stored: [Decisions.Storage] = [], problems: [String] = []
        for result in keeper.takeResults() {
            switch result {
            case .read(let items):
                for item in items {
                    read.append(Decisions.ItemChange(id: item.id, decision: item.decision))
                    if item.isKept { stored.append(Decisions.Storage(id: item.id, isKept: true)) }
                }
            case .stored(let id, let reason): stored.append(Decisions.Storage(id: id, isKept: reason != nil, reason: reason))
            case .problem(let text): problems.append(text)
            case .unanswered, .parked, .changed: break  // asked again by the keeper, never handed out
            }
        }
        if !read.isEmpty, let outcome = send(.decisionsRead(read)) { return outcome }
        if !stored.isEmpty, let outcome = send(.decisionsStored(stored)) { return outcome }
        if let first = problems.first {
            return send(.notice(first + (problems.count > 1 ? " (and \(problems.count - 1) more)" : "")))
        }
        return nil
    }

    /// Reads the terminal's events and sends what they mean; input is painted at once.
    mutating func readInput() -> Outcome? {
        let events = terminal.readEvents()
        guard !events.isEmpty else { return nil }
        // A key stops the read-ahead after the file in hand; it resumes at the next pause.
        scheduler.input(at: Self.now)
        if let dropped = readAhead?.pause(), !dropped.isEmpty, let outcome = send(.readAheadDropped(dropped), repaints: false) { return outcome }
        // A split or a zoom in tmux moves the pane: pictures through its passthrough follow
        // (tmux asked once for a batch, however many resizes a drag brought).
        if events.contains(where: { if case .resize = $0 { true } else { false } }) {
            Options.followTmuxPane(terminal, mode: state.pictures.graphics.pixelProtocol, environment: environment)
        }
        var typed = InputBatch()
        for event in events {
            if case .resize(let width, let height) = event {
                // A font change resizes the cells too: pixel boxes follow.
                if let cell = terminal.reportedCellPixels, let outcome = send(.cellSizeChanged(cell)) { return outcome }
                for ready in typed.finish() { if let outcome = send(ready) { return outcome } }
                if let outcome = send(.resize(width: width, height: height)) { return outcome }
                continue
            }
            guard let command = router.command(for: event, in: state, at: Self.now) else { continue }
            for ready in typed.add(command) { if let outcome = send(ready) { return outcome } }
        }
        for ready in typed.finish() { if let outcome = send(ready) { return outcome } }
        paint()
        return nil
    }

    /// Applies what the user asked for; see `deliver`.
    mutating func send(_ command: Command) -> Outcome? { deliver(state.apply(command)) }

    /// Applies what the world reported; see `deliver`.
    mutating func send(_ event: Event, repaints: Bool = true) -> Outcome? { deliver(state.apply(event), repaints: repaints) }

    /// Carries out the effects of what was applied (loads gather until the batch is taken); the
    /// marks file is written first, before a quit they may bring. Unless it only started or
    /// stopped work (`repaints: false`), the screen is painted again when next due.
    mutating func deliver(_ effects: [Effect], repaints: Bool = true) -> Outcome? {
        if repaints { scheduler.changed() }
        return perform(batch.add(effects + saveMarks()))
    }

    /// Carries out `effects`; the outcome, finished, when one of them ends the session.
    mutating func perform(_ effects: [Effect]) -> Outcome? {
        guard !effects.isEmpty, let outcome = runner.perform(effects, on: &state) else { return nil }
        return finish(outcome)
    }
}
