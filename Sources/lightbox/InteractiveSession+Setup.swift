import Foundation
import LightboxApp
import LightboxCurses
import LightboxTerminal
import LightboxThumbnails
import LightboxView

#if canImport(Glibc)
    import Glibc
#endif

extension InteractiveSession {
    /// How a session ended.
    enum Outcome {
        case accepted([ImagePath])
        case cancelled(exitCode: Int32)
        /// The scan ended without finding an image: these are the problems it met.
        case nothingFound([String], unlisted: Int)
    }

    /// Runs the gallery on the terminal until the user accepts, cancels or a signal ends it.
    static func run(scan: BackgroundScan, first: BackgroundScan.Progress, options: Options, decoder pipeline: Decoder) throws -> Outcome {
        var session = try InteractiveSession(scan: scan, first: first, options: options, decoder: pipeline)
        defer {
            session.terminal.restore()
            session.capture?.restore()
            if let report = session.report { Output.write(Array(report.utf8), to: 2) }
        }
        return session.loop()
    }

    /// Starts curses (after asking the terminal what it is), the provider, the metadata reader
    /// and the read-ahead, and makes the first state.
    init(scan: BackgroundScan, first: BackgroundScan.Progress, options: Options, decoder pipeline: Decoder) throws {
        var timeline = Timeline()
        // Marked when images came: a slow mount may bring the first later, in the run loop.
        timeline.note(first.batches)
        let signals = Signals.install()
        let environment = ProcessInfo.processInfo.environment
        var settings = try options.settings()
        // Asked before curses starts, so no answer is left in the input for it.
        let terminalReport = options.asksTerminal(environment: environment) ? TerminalProbe.ask(inTmux: environment["TMUX"] != nil) : nil
        // Its own background, when it said, over COLORFGBG's guess: letterboxes and the UI's colours follow it.
        if !options.backgroundIsSet, let background = terminalReport?.background { settings.theme = settings.theme.following(background: background) }
        let terminal = try CursesTerminal(environment: environment)
        terminal.escapeDelay = InputParser.escapeDelay(environment: environment, roundTrip: terminalReport?.roundTrip)
        let wake = WakePipe()
        terminal.onPictureReady = { wake.signal() }
        // A thread for each read in flight when files are read ahead of the decoders (a network mount).
        let provider = ThumbnailProvider(
            decoder: pipeline.decoder, workers: max(ProcessInfo.processInfo.activeProcessorCount, pipeline.readStage?.width ?? 1),
            background: settings.theme.pictureGround
        ) { wake.signal() }
        let size = terminal.size
        options.settleGraphics(&settings, terminal: terminal, report: terminalReport, environment: environment)
        let state = options.makeState(width: size.width, height: size.height, settings: settings)
        // As many at once as the stage reads: the width main asked of the paths' mounts.
        let reader = MetadataReader(threads: pipeline.readStage?.width ?? 1, index: options.index)
        // The read-ahead: its own decoder at idle priority, and only with a disk cache to fill.
        let readAheadDecoder = state.readAhead.extent != .off && options.diskCache != nil ? options.makeDecoder(idle: true) : nil
        let readAhead = readAheadDecoder.map { decoder in
            ReadAheadWorker(
                threads: options.readAheadWorkers ?? ProcessInfo.processInfo.activeProcessorCount,
                workers: options.readAheadWorkersNow, warm: decoder.warm
            ) { wake.signal() }
        }
        // Decisions go to and come from the photos' XMP through a decoder process of their own.
        let sidecars = options.makeSidecarPool()
        let keeper = DecisionKeeper(pool: sidecars, policy: options.sidecarPolicy, index: options.index) { wake.signal() }
        self.init(
            options: options, environment: environment, scan: scan, firstBatch: first, pipeline: pipeline, terminal: terminal,
            terminalReport: terminalReport, capture: StderrCapture(), signals: signals, wake: wake, provider: provider,
            reader: reader, readAheadDecoder: readAheadDecoder, readAhead: readAhead, keeper: keeper, sidecars: sidecars,
            runner: EffectRunner(
                terminal: terminal, provider: provider, reader: reader, readAhead: readAhead, keeper: keeper, scan: scan,
                printsNul: options.printsNul),
            state: state, scheduler: Scheduler(now: Self.now),
            marksFile: options.marksFile.map { MarksFile(path: $0, nulSeparated: options.printsNul) }, timeline: timeline)
    }

    /// Seconds the end waits for decisions still being written to sidecars.
    static let sidecarWait = 0.5
    /// Seconds the end waits, with `--stats`, for decodes in hand (so their decoders' counts are in).
    static let statisticsWait = 0.5

    /// The monotonic clock the scheduler runs on, in seconds.
    static var now: Double { ProcessInfo.processInfo.systemUptime }

    /// What the scheduler needs to know of the state and the world, now.
    var situation: Scheduler.Situation {
        var situation = Scheduler.Situation()
        situation.needsAllMetadata = state.needsAllMetadata
        situation.isScanning = state.isScanning
        situation.scanBatchesAreCheap = state.scanBatchesAreCheap
        situation.screenWaitsForPictures = state.screenWaitsForPictures
        situation.nextFrame = state.nextFrameTime
        situation.inputWait = terminal.inputWait
        situation.picturesWaiting = terminal.hasPicturesWaiting
        situation.readAheadWaiting = (readAhead?.isIdle ?? false) && !state.readAhead.isExhausted
        return situation
    }

    /// Waits as `wait` says; the sources that have something.
    func poll(_ wait: Scheduler.Wait) -> Set<LoopSource> {
        let sources = LoopSource.allCases
        var fds = sources.map { source in
            pollfd(fd: wait.sources.contains(source) ? descriptor(source) : -1, events: Int16(source == .pictureOutput ? POLLOUT : POLLIN), revents: 0)
        }
        _ = Glibc.poll(&fds, nfds_t(fds.count), wait.milliseconds)
        return Set(zip(sources, fds).filter { $1.fd >= 0 && $1.revents != 0 }.map(\.0))
    }

    /// The descriptor `poll` watches for `source`.
    func descriptor(_ source: LoopSource) -> Int32 {
        switch source {
        case .input: terminal.inputDescriptor
        case .wake: wake.readEnd
        case .signals: signals
        case .scan: scan.wakeDescriptor
        case .metadata: reader.wakeDescriptor
        case .pictureOutput: terminal.pictureOutputDescriptor
        }
    }

    /// Paints the state, in the mode it is in (`t` may have changed it).
    mutating func paint() {
        let reduction = state.pictures.reduction
        if terminal.images.mode != state.pictures.graphics.pixelProtocol || terminal.images.cellPixels != state.pictures.cellPixels
            || terminal.images.reduction != reduction
        {
            let modeChanged = terminal.images.mode != state.pictures.graphics.pixelProtocol
            terminal.setImageMode(state.pictures.graphics.pixelProtocol, cellPixels: state.pictures.cellPixels, reduction: reduction)
            if modeChanged { Options.followTmuxPane(terminal, mode: state.pictures.graphics.pixelProtocol, environment: environment) }
        }
        terminal.paint(GalleryView.frame(for: state))
        scheduler.painted(at: Self.now, complete: state.isScreenComplete && !state.library.isEmpty)
        // The preview's next photos made ready while this one is looked at (not while one plays).
        if state.preview != nil, state.animation == nil, state.isScreenComplete { terminal.prepareAhead(GalleryView.picturesAhead(for: state)) }
    }

    /// Writes the marks file when the marks changed; a failure shows in the status line (the
    /// effects of saying so).
    mutating func saveMarks() -> [Effect] {
        guard var file = marksFile else { return [] }
        let problem = file.update(from: state)
        marksFile = file
        return problem.map { state.apply(.notice($0)) } ?? []
    }

    /// Stops the workers and decoders; with `--stats`, keeps what to report.
    mutating func finish(_ outcome: Outcome) -> Outcome {
        // Decisions made are written before the end, for a moment at most (a stalled mount
        // never holds the exit); after a signal, not waited for.
        let leftovers: DecisionKeeper.Leftovers
        var lost: String?
        if case .cancelled(let code) = outcome, code != 130 {
            leftovers = keeper.finish(waitingAtMost: 0)
        } else {
            leftovers = keeper.finish(waitingAtMost: Self.sidecarWait)
        }
        let unwritten = leftovers.unwritten
        if !unwritten.isEmpty {
            let names = unwritten.prefix(5).map { DisplayText.sanitized(bytes: $0.bytes) }.joined(separator: ", ")
            let more = unwritten.count > 5 ? " and \(unwritten.count - 5) more" : ""
            lost = "lightbox: decisions not written to the sidecars of \(names)\(more) (the disk did not answer in time)\n"
        }
        sidecars.shutdown()
        scan.stop()
        reader.stop()
        readAhead?.stop()
        readAheadDecoder?.shutdown()
        // With --stats, decodes in hand finish first, so every decoder is idle and can report
        // the cache entries it wrote (at most one decode's wait, and never past half a second: a read
        // of a mount that does not answer may never end; without it, quitting waits for none).
        if options.printsStatistics { provider.shutdown(waitingAtMost: Self.statisticsWait) }
        pipeline.shutdown()
        if options.printsStatistics {
            report = statisticsReport(
                pipeline.statistics, provider: provider, cacheBytes: state.store.cache.byteCount,
                cacheCount: state.store.cache.count,
                pictures: Self.picturesReport(state: state, terminal: terminal, report: terminalReport),
                library: state.library, readAhead: readAhead.map { (state.readAhead, $0.activeThreads) },
                readStage: pipeline.readStage, speed: pipeline.speed, index: options.index, timeline: timeline.report, upgraded: state.store.upgradedCount)
        }
        if let lost { report = (report ?? "") + lost }
        // Kept in the state folder: the ones a write put there, and those the end did.
        let kept = state.decisions.keptAside.union(leftovers.kept).count
        if kept > 0, let root = options.sidecarPolicy.keptRoot {
            let late = leftovers.kept.isEmpty ? "" : " (\(leftovers.kept.count) because their folder did not answer in time)"
            report =
                (report ?? "")
                + "lightbox: the decisions of \(kept) photo\(kept == 1 ? "" : "s") are kept in \(DisplayText.sanitized(bytes: root.bytes)), not beside the photos\(late); lightbox --write-sidecars PATH writes them there\n"
        }
        return outcome
    }

    /// The mode pictures were in, what they cost the link, and how the terminal scrolled them.
    static func picturesReport(state: GalleryState, terminal: CursesTerminal, report: TerminalReport?) -> String {
        var text = state.pictures.graphics.title + (report?.name.map { " (terminal: \($0))" } ?? "")
        let link = state.pictures.linkSpeed.map { "\($0) kbit/s link" + (state.pictures.statedLinkSpeed == nil ? " (measured)" : "") }
        if state.pictures.reduction > 1, let link { text += ", sent at 1/\(state.pictures.reduction) resolution for a \(link)" }
        if state.pictures.graphics.isPixels {
            text += "; \(terminal.images.picturesWritten) pictures or parts written (\(terminal.images.rowsWritten) rows of cells)"
            let (ahead, spot) = (terminal.images.madeAhead, terminal.images.madeOnTheSpot)
            if ahead > 0 { text += "; of those shown, \(ahead) made ahead, \(spot) as they were painted" }
            if terminal.scrolls > 0 { text += ", \(terminal.linesScrolled) lines scrolled by the terminal in \(terminal.scrolls) scrolls" }
        }
        return text
    }
}
