import Foundation
import LightboxApp
import LightboxCurses
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import LightboxView

#if canImport(Glibc)
    import Glibc
#endif

/// How often the run loop does each thing, in seconds.
enum Pacing {
    /// Results streaming in are painted at most this often (input is painted at once).
    static let frameInterval = 16.0 / 1000
    /// Metadata batches that re-sort the library come at most this often...
    static let metadataInterval = 0.25
    /// ...and scan batches that re-arrange it this often...
    static let scanInterval = 0.1
    /// ...or this many times as long as the last one took, so keys stay quick.
    static let costFactor = 10.0
    /// The longest wait for input when nothing else is due.
    static let idleWait = 1.0
    /// Seconds without a key before the read-ahead starts (or resumes).
    static let readAheadDelay = 0.5
}

/// The interactive gallery: input and decode results become actions, the state's effects are
/// carried out, and each change is painted.
enum InteractiveSession {
    /// How a session ended.
    enum Outcome {
        case accepted([ImagePath])
        case cancelled(exitCode: Int32)
        /// The scan ended without finding an image: these are the problems it met.
        case nothingFound([String], unlisted: Int)
    }

    static func run(scan: BackgroundScan, first: BackgroundScan.Progress, options: Options, decoder pipeline: Decoder) throws -> Outcome {
        var timeline = Timeline()
        timeline.mark("scan's first batch")
        let signalFD = Signals.install()
        let environment = ProcessInfo.processInfo.environment
        // Asked before curses starts, so no answer is left in the input for it.
        let terminalReport = options.asksTerminal(environment: environment) ? TerminalProbe.ask(inTmux: environment["TMUX"] != nil) : nil
        // Its own background, when it said, over COLORFGBG's guess: letterboxes and the UI's colours follow it.
        if !options.backgroundIsSet, let background = terminalReport?.background { Palette.theme = Palette.theme.following(background: background) }
        let terminal = try CursesTerminal(environment: environment)
        terminal.escapeDelay = InputParser.escapeDelay(environment: environment, roundTrip: terminalReport?.roundTrip)
        let capture = StderrCapture()
        var report: String? = nil
        defer {
            terminal.restore()
            capture?.restore()
            if let report { Output.write(Array(report.utf8), to: 2) }
        }
        // Decode results wake the loop through a pipe it polls (left open: a decoder thread may
        // still signal as the process ends).
        let wake = WakePipe()
        let provider = ThumbnailProvider(decoder: pipeline.decoder, background: Palette.pictureGround) { wake.signal() }

        let size = terminal.size
        var settings = try options.settings()
        options.settleGraphics(&settings, terminal: terminal, report: terminalReport, environment: environment)
        var state = options.makeState(width: size.width, height: size.height, settings: settings)
        /// Paints the state, in the mode it is in (`t` may have changed it).
        func paint() {
            let reduction = state.pictures.reduction
            if terminal.images.mode != state.graphics.pixelProtocol || terminal.images.cellPixels != state.cellPixels
                || terminal.images.reduction != reduction
            {
                let modeChanged = terminal.images.mode != state.graphics.pixelProtocol
                terminal.setImageMode(state.graphics.pixelProtocol, cellPixels: state.cellPixels, reduction: reduction)
                if modeChanged { Options.followTmuxPane(terminal, mode: state.graphics.pixelProtocol, environment: environment) }
            }
            terminal.paint(GalleryView.frame(for: state))
        }
        var marksFile = options.marksFile.map { MarksFile(path: $0, nulSeparated: options.printsNul) }
        /// Writes the marks file when the marks changed; a failure shows in the status line.
        func saveMarks() {
            guard var file = marksFile else { return }
            if let problem = file.update(from: state) { _ = state.apply(.notice(problem)) }
            marksFile = file
        }
        let reader = MetadataReader()
        // The read-ahead: its own decoder at idle priority, and only with a disk cache to fill.
        let readAheadDecoder = state.readAhead.extent != .off && options.diskCache != nil ? options.makeDecoder(idle: true) : nil
        let readAhead = readAheadDecoder.map { decoder in
            ReadAheadWorker(
                threads: options.readAheadWorkers ?? ProcessInfo.processInfo.activeProcessorCount,
                workers: options.readAheadWorkersNow, warm: decoder.warm
            ) { wake.signal() }
        }
        func finish(_ outcome: Outcome) -> Outcome {
            scan.stop()
            reader.stop()
            readAhead?.stop()
            readAheadDecoder?.shutdown()
            // With --stats, decodes in hand finish first, so every decoder is idle and can report
            // the cache entries it wrote (at most one decode's wait; without it, quitting waits for none).
            if options.printsStatistics { provider.shutdown() }
            pipeline.shutdown()
            if options.printsStatistics {
                report = statisticsReport(
                    pipeline.statistics, provider: provider, cacheBytes: state.thumbnails.byteCount,
                    cacheCount: state.thumbnails.count,
                    pictures: picturesReport(state: state, terminal: terminal, report: terminalReport),
                    library: state.library, readAhead: readAhead.map { (state.readAhead, $0.activeThreads) },
                    timeline: timeline.report)
            }
            return outcome
        }
        let runner = EffectRunner(terminal: terminal, provider: provider, reader: reader, readAhead: readAhead, printsNul: options.printsNul)
        /// Carries out `effects`; the outcome, finished, when one of them ends the session.
        func perform(_ effects: [Effect]) -> Outcome? { runner.perform(effects, on: &state).map(finish) }
        if let outcome = perform(state.apply(.scanned(first.batches, isFinished: first.isFinished))) { return outcome }
        paint()
        timeline.mark("first paint")

        var fds = [
            pollfd(fd: terminal.inputDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: scan.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: reader.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: -1, events: Int16(POLLOUT), revents: 0),
        ]
        var lastMetadata = Date.distantPast
        var router = InputRouter()
        // Each batch of metadata may re-sort or re-lay the whole library: batches come at most
        // every quarter second, or ten times as long as the last one took, so keys stay quick.
        var metadataInterval = Pacing.metadataInterval
        var lastScanTake = Date.distantPast
        var scanInterval = Pacing.scanInterval
        let frameInterval = Pacing.frameInterval
        var lastPaint = Date.distantPast
        var dirty = false
        /// Whether the last paint showed every tile on screen.
        var paintedComplete = false
        var pendingFilterText = ""
        /// When the last key (or other input) came.
        var lastInput = Date()
        /// Applies the characters typed into the filter so far, as one edit.
        func applyPendingFilterText() -> Outcome? {
            guard !pendingFilterText.isEmpty else { return nil }
            defer { pendingFilterText = "" }
            return perform(state.apply(.filterInput(pendingFilterText)))
        }
        while true {
            var timeout: Int32 = dirty ? Int32(max(0, (frameInterval - Date().timeIntervalSince(lastPaint)) * 1000)) : Int32(Pacing.idleWait * 1000)
            // Metadata: when dates decide the order, each batch re-sorts, so it is taken at most
            // four times a second; otherwise (for the info panel) at once.
            let metadataWait = state.needsAllMetadata ? metadataInterval - Date().timeIntervalSince(lastMetadata) : 0
            fds[4].fd = metadataWait > 0 ? -1 : reader.wakeDescriptor
            if metadataWait > 0 { timeout = min(timeout, Int32(metadataWait * 1000) + 1) }
            if state.isScanning && !state.scanBatchesAreCheap {
                let scanWait = scanInterval - Date().timeIntervalSince(lastScanTake)
                fds[3].fd = scanWait > 0 ? -1 : scan.wakeDescriptor
                if scanWait > 0 { timeout = min(timeout, Int32(scanWait * 1000) + 1) }
            } else if state.isScanning {
                fds[3].fd = scan.wakeDescriptor
            }
            // An animation in the preview: wake for its next frame.
            if let due = state.nextFrameTime {
                timeout = min(timeout, Int32(max(0, (due - ProcessInfo.processInfo.systemUptime) * 1000)))
            }
            // An Esc waiting for the rest of its sequence: wake when it is due as a key.
            if let wait = terminal.inputWait { timeout = min(timeout, Int32(wait * 1000) + 1) }
            // Pictures waiting for the terminal: wake when it can take more.
            fds[5].fd = terminal.hasPicturesWaiting ? terminal.pictureOutputDescriptor : -1
            // The read-ahead starts once no key came for a moment.
            if let readAhead, readAhead.isIdle, !state.readAhead.isExhausted {
                let wait = Pacing.readAheadDelay - Date().timeIntervalSince(lastInput)
                timeout = min(timeout, Int32(max(0, wait) * 1000) + 1)
            }
            _ = poll(&fds, nfds_t(fds.count), timeout)
            if let due = state.nextFrameTime, ProcessInfo.processInfo.systemUptime >= due {
                _ = state.apply(.tick(ProcessInfo.processInfo.systemUptime))
                dirty = true
            }

            // Signals first, then input, then results: a key is never kept waiting behind decodes.
            for signal in Signals.drain(signalFD) {
                switch signal {
                case SIGTSTP: if let outcome = perform([.suspend]) { return outcome }
                case SIGPIPE: break
                case SIGWINCH: terminal.followWindowSize()
                default: return finish(.cancelled(exitCode: 128 + signal))
                }
                dirty = true
            }
            // A batch of events or results asks the provider once, for the final window.
            var loads: [Effect] = []
            let events = terminal.readEvents()
            if !events.isEmpty {
                // A key stops the read-ahead after the file in hand; it resumes at the next pause.
                lastInput = Date()
                if let dropped = readAhead?.pause(), !dropped.isEmpty { _ = state.apply(.readAheadDropped(dropped)) }
            }
            // A split or a zoom in tmux moves the pane: pictures through its passthrough follow
            // (tmux asked once for a batch, however many resizes a drag brought).
            if events.contains(where: { if case .resize = $0 { true } else { false } }) {
                Options.followTmuxPane(terminal, mode: state.graphics.pixelProtocol, environment: environment)
            }
            for event in events {
                // A font change resizes the cells too: pixel boxes follow.
                if case .resize = event, let cell = terminal.reportedCellPixels { loads += state.apply(.cellSizeChanged(cell)) }
                let mapped = router.action(for: event, in: state, at: ProcessInfo.processInfo.systemUptime)
                guard let action = mapped else { continue }
                // Characters typed into the filter in one read are one edit: one pass over the library.
                if case .filterInput(let text) = action {
                    pendingFilterText += text
                    continue
                }
                if let outcome = applyPendingFilterText() { return outcome }
                let effects = state.apply(action)
                saveMarks()  // before a quit the action may bring
                if effects.allSatisfy({ if case .load = $0 { return true } else { return false } }) {
                    loads += effects
                } else {
                    let outcome = perform((loads + effects).coalesced)
                    loads = []
                    if let outcome { return outcome }
                }
            }
            if let outcome = applyPendingFilterText() { return outcome }
            saveMarks()
            if !events.isEmpty {
                // Input is answered at once.
                paint()
                lastPaint = Date()
                dirty = false
                paintedComplete = state.isScreenComplete
            }
            wake.drain()
            if let done = readAhead?.takeResults(), !done.isEmpty {
                _ = state.apply(.readAheadDone(done))
                dirty = true  // the status line's progress
            }
            for (request, result) in provider.takeResults() {
                loads += state.apply(.decoded(request, result))
                dirty = true
                timeline.mark("first thumbnail")
            }
            // Then what the scan found: it lands after everything shown, so nothing moves.
            // Appended at the end, batches cost little; sorted otherwise (or in masonry) each one
            // re-arranges the library, so they are paced like metadata.
            if state.isScanning && (state.scanBatchesAreCheap || Date().timeIntervalSince(lastScanTake) >= scanInterval) {
                let start = Date()
                let progress = scan.take()
                if !progress.batches.isEmpty || progress.isFinished {
                    loads += state.apply(.scanned(progress.batches, isFinished: progress.isFinished))
                    dirty = true
                }
                lastScanTake = Date()
                scanInterval = max(Pacing.scanInterval, Pacing.costFactor * lastScanTake.timeIntervalSince(start))
                if !state.isScanning {
                    fds[3].fd = -1  // poll ignores it from now on
                    if state.library.totalCount == 0 { return finish(.nothingFound(state.scanProblems, unlisted: state.unlistedScanProblems)) }
                }
            }
            if fds[4].fd >= 0 && fds[4].revents != 0 {
                let start = Date()
                loads += state.apply(.metadataRead(reader.take()))
                lastMetadata = Date()
                metadataInterval = max(Pacing.metadataInterval, Pacing.costFactor * lastMetadata.timeIntervalSince(start))
                dirty = true
            }
            if let outcome = perform(loads.coalesced) { return outcome }
            let waiting = terminal.pictures.picturesWaiting, measured = terminal.throughput.kilobitsPerSecond
            if waiting != state.pictures.waiting || (measured != nil && measured != state.pictures.measuredLinkSpeed) {
                _ = state.apply(.picturesWaiting(waiting, measuredLinkSpeed: measured))
                dirty = true
            }
            // Results stream in: paint at most once a frame interval, but the one that completes
            // the screen at once (what the user waits for); a frame's cells go before any more pictures.
            if dirty, Date().timeIntervalSince(lastPaint) >= frameInterval || (!paintedComplete && state.isScreenComplete) {
                paint()
                lastPaint = Date()
                dirty = false
                paintedComplete = state.isScreenComplete && !state.library.isEmpty
                if paintedComplete { timeline.mark("screen complete") }
            }
            // Pictures go in slices between reads of input.
            if terminal.hasPicturesWaiting { terminal.writePictures() }
            // Nothing asked of the screen and no key for a moment: read ahead.
            if let readAhead, readAhead.isIdle, Date().timeIntervalSince(lastInput) >= Pacing.readAheadDelay,
                provider.outstandingCount == 0, state.loadingCount == 0
            {
                if let outcome = perform(state.apply(.idle)) { return outcome }
            }
        }
    }

    /// The mode pictures were in, what they cost the link, and how the terminal scrolled them.
    static func picturesReport(state: GalleryState, terminal: CursesTerminal, report: TerminalReport?) -> String {
        var text = state.graphics.title + (report?.name.map { " (terminal: \($0))" } ?? "")
        let link = state.pictures.linkSpeed.map { "\($0) kbit/s link" + (state.pictures.statedLinkSpeed == nil ? " (measured)" : "") }
        if state.pictures.reduction > 1, let link { text += ", sent at 1/\(state.pictures.reduction) resolution for a \(link)" }
        if state.graphics.isPixels {
            text += "; \(terminal.images.picturesWritten) pictures or parts written (\(terminal.images.rowsWritten) rows of cells)"
            if terminal.scrolls > 0 { text += ", \(terminal.linesScrolled) lines scrolled by the terminal in \(terminal.scrolls) scrolls" }
        }
        return text
    }
}
