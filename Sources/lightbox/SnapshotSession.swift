import Foundation
import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import LightboxView

/// `--snapshot`: the first screen at a given size, every visible thumbnail decoded, as ANSI text
/// (with kitty or sixel pictures in those modes; `auto` has no terminal to ask: half blocks).
enum SnapshotSession {
    /// Seconds the other tiles' pictures are waited for once a mount stops answering.
    static let stallGrace = 2.0

    /// The scan goes on until the screen is settled: it ended, or, when items arrive in display
    /// order, an item lies beyond the screen (so nothing more can land in view). A mount that
    /// stops answering ends each wait (the scan's, the dates', the pictures'): the screen shows
    /// what was there, saying so, and the snapshot ends.
    static func run(
        scan: BackgroundScan, first: BackgroundScan.Progress, options: Options, decoder pipeline: Decoder,
        size: (width: Int, height: Int)
    ) -> Int32 {
        var settings: GalleryState.Settings
        do { settings = try options.settings() } catch {
            Output.error("\(error)")
            return 2
        }
        settings.prefetches = false
        var state = options.makeState(width: size.width, height: size.height, settings: settings)
        var effects = state.apply(.scanned(first.batches, isFinished: first.isFinished))
        // (In masonry a new item can fill a short column on screen, so there the scan must end.)
        let appendsBelow = options.arrangement.keepsScanOrder && options.layoutMode == .grid
        var stalled: [String] = []
        while state.isScanning && (!appendsBelow || state.visibleItems.upperBound >= state.library.count) {
            stalled = ReadWatch.shared.notAnswering()
            if !stalled.isEmpty {
                effects += state.apply(.scanned(scan.take().batches, isFinished: false))  // what came meanwhile
                break
            }
            scan.waitForBatches(timeout: 0.25)
            let progress = scan.take()
            effects += state.apply(.scanned(progress.batches, isFinished: progress.isFinished))
        }
        scan.stop()
        var fromIndex = false
        if state.library.isEmpty, let (away, batches) = recalled(stalled: stalled, options: options) {
            effects += state.apply(.scanned(batches, isFinished: false))
            (stalled, fromIndex) = (away, true)
        }
        // When dates decide the order, every date is read before the screen is drawn.
        var wanted: [MetadataRequest] = []
        for case .readMetadata(let requests, _) in effects { wanted += requests }
        effects.removeAll { if case .readMetadata = $0 { return true } else { return false } }
        if !wanted.isEmpty, stalled.isEmpty {
            // From the index where it knows the file (the walk's sniff read most of them into it
            // already), the rest as many at once as the gallery's reader (round trips overlap on a share).
            let (read, stalledNow) = readAll(wanted, index: options.index, width: max(ProcessInfo.processInfo.activeProcessorCount, options.metadataReads))
            effects += state.apply(.metadataRead(read))
            stalled = stalledNow
        }
        let decisionReads = wantedDecisions(&effects, state: state)
        if !decisionReads.isEmpty, stalled.isEmpty {
            let (read, stalledNow) = readDecisions(decisionReads, options: options)
            effects += state.apply(.decisionsRead(read))
            stalled = stalledNow
        }
        if state.library.isEmpty && !stalled.isEmpty {
            Output.error("\(named(stalled)) not answering: nothing found before it stopped")
            pipeline.shutdown()
            return 1
        }
        if state.library.isEmpty {
            pipeline.shutdown()
            return reportNothingFound(state.scanProblems, unlisted: state.unlistedScanProblems, options: options)
        }
        let ready = DispatchSemaphore(value: 0)
        let provider = ThumbnailProvider(decoder: pipeline.decoder, background: settings.theme.pictureGround) { ready.signal() }
        // Once a mount is not answering, its tiles say so and get no reads; the others' pictures
        // are waited for `stallGrace` more at most (a decode already sent there may never end).
        var giveUp: Double?
        if !stalled.isEmpty {
            effects += state.apply(.mountsNotAnswering(stalled, unmounted: ReadWatch.shared.unmountedFolders))
            giveUp = InteractiveSession.now + stallGrace
        }
        pictures: while true {
            for case .load(let requests) in effects.coalesced { provider.request(requests) }
            effects = []
            if state.isVisibleComplete { break }
            // Nothing queued or running: what finished is taken, and if nothing did, nothing more will come.
            if provider.outstandingCount == 0 {
                let results = provider.takeResults()
                if results.isEmpty { break }
                effects = results.flatMap { state.apply(.decoded($0, $1)) }
                continue
            }
            if let giveUp {
                if ready.wait(timeout: .now() + max(0, giveUp - InteractiveSession.now)) == .timedOut { break pictures }
            } else {
                stalled = stalledWhile { ready.wait(timeout: .now() + 0.25) == .timedOut }
                if !stalled.isEmpty {
                    effects += state.apply(.mountsNotAnswering(stalled))
                    giveUp = InteractiveSession.now + stallGrace
                    continue
                }
            }
            for (request, result) in provider.takeResults() { effects += state.apply(.decoded(request, result)) }
        }
        if !stalled.isEmpty {
            Output.error(
                "\(GalleryView.mountsAway(stalled, unmounted: ReadWatch.shared.unmountedFolders)): the snapshot shows what \(fromIndex ? "the index had of it" : "was there")"
            )
        }
        // In a pixel mode the pictures come as the terminal would get them: kitty transmissions
        // before the cells (which hold the placeholders), sixel strings after them at their tiles.
        let frame = GalleryView.frame(for: state)
        var painter = ImagePainter(mode: state.pictures.graphics.pixelProtocol, cellPixels: state.pictures.cellPixels)
        let before = painter.prepare(frame).bytes
        Output.write(before + Array(frame.ansiText.utf8) + painter.finish(frame, repaintedRows: []))
        // The screen first; then the decoders end (collected, so their CPU time counts as ours);
        // the threads a mount that does not answer holds are left behind.
        provider.shutdown(waitingAtMost: stalled.isEmpty ? nil : 0)
        pipeline.shutdown()
        if options.printsStatistics {
            Output.write(
                Array(
                    statisticsReport(
                        pipeline.statistics, provider: provider, cacheBytes: state.store.cache.byteCount,
                        cacheCount: state.store.cache.count, pictures: state.pictures.graphics.title, library: state.library,
                        index: options.index
                    ).utf8), to: 2)
        }
        return 0
    }

    /// What earlier visits found under the paths given, from the index, when a mount there stopped
    /// answering (`stalled`) or is gone (its sshfs ended: the walk failed at once, and a look at
    /// what was given says so), as the gallery opens with it: the mounts and the batches; nil
    /// when no mount is away or the index has nothing there.
    static func recalled(stalled: [String], options: Options) -> (away: [String], batches: [LightboxThumbnails.Scanner.Batch])? {
        guard case .paths(let paths) = options.scanSource, let index = options.index else { return nil }
        let away = stalled.isEmpty ? Array(Set(paths.compactMap { ReadWatch.shared.notAnswering(afterLookAt: $0) })).sorted() : stalled
        guard !away.isEmpty else { return nil }
        let batches = paths.flatMap { index.replay(under: $0, pairs: options.pairing != .apart) }.map(supportedOnly)
        return batches.contains(where: { !$0.files.isEmpty }) ? (away, batches) : nil
    }

    /// The decision reads `effects` ask for (taken out of them) that the screen shows: what the
    /// photos' XMP says, every photo's when it decides the order, else the screen's, as the
    /// gallery's first screen shows them.
    static func wantedDecisions(_ effects: inout [Effect], state: GalleryState) -> [DecisionKeeper.Read] {
        var reads: [DecisionKeeper.Read] = []
        for case .readDecisions(let asked) in effects { reads += asked }
        effects.removeAll { if case .readDecisions = $0 { return true } else { return false } }
        guard !state.library.decisionsDecideOrder else { return reads }
        let shown = Set(state.visibleItems.clamped(to: 0..<state.library.count).map { state.library.id(at: $0) })
        return reads.filter { shown.contains($0.id) }
    }

    /// Reads metadata `width` files at once, what `index` knows from it, until done or a mount
    /// stops answering (what was read by then, and the mounts; the threads held by it are left behind).
    static func readAll(_ requests: [MetadataRequest], index: LibraryIndex?, width: Int) -> (results: [MetadataResult], stalled: [String]) {
        inParallel(requests.count, width: width) { MetadataReader.read(requests[$0], index: index) }
    }

    /// What the XMP of `reads`' photos says, as the gallery's first screen shows it: on a
    /// network mount the index's copy where it has one for each of a photo's files (the
    /// gallery checks those later, a few round trips a file: a second a screen at 10 ms); else
    /// read now, through a decoder process of its own (Exempi runs there only), from `index`
    /// where the files are unchanged. A problem (a damaged sidecar) is said on standard error,
    /// as `--list` says it. Stops as `readAll(_:index:width:)` does.
    static func readDecisions(_ reads: [DecisionKeeper.Read], options: Options) -> (results: [Decisions.ItemChange], stalled: [String]) {
        let pool = options.makeSidecarPool()
        defer { pool.shutdown() }
        // A decoder a thread, each started when first asked (a tenth of a second of CPU): on a local
        // disk, where most photos need none (`DecisionKeeper.readNow`), one a core.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let onShare = reads.first.map { ParallelReads.isOnNetworkMount($0.item.path) } ?? false
        let width = onShare ? max(cores, DecisionKeeper.readsInFlight) : cores
        let read = inParallel(reads.count, width: width) { at -> Decisions.ItemChange? in
            let photo = reads[at]
            let first = photo.item.path
            guard ReadWatch.shared.notAnswering(holding: first) == nil else { return nil }
            let onShare = ParallelReads.isOnNetworkMount(first)
            if onShare, let index = options.index, let copy = Scanner.IndexedDecision(index.decisions(of: photo.item.memberPaths)) {
                return Decisions.ItemChange(id: photo.id, decision: copy.decision)
            }
            // A decoder's read is not watched here: looks at its mount beside it name one that stops answering.
            let known = DecisionKeeper.probing(first, watch: .shared, if: onShare) {
                DecisionKeeper.readNow(photo, pool: pool, policy: options.sidecarPolicy, index: options.index, stoppingUnanswered: true) {
                    Output.error($0)
                }
            }
            return known.map { Decisions.ItemChange(id: $0.now.id, decision: $0.now.decision) }
        }
        return (read.results.compactMap { $0 }, read.stalled)
    }

    /// `body` of 0..<`count`, `width` at once on threads of their own, until all are done or a
    /// mount stops answering: the results by then (in no order), and the mounts; the threads
    /// held by it are left behind.
    static func inParallel<Result>(_ count: Int, width: Int, _ body: @escaping @Sendable (Int) -> Result) -> (results: [Result], stalled: [String]) {
        let collected = Collected<Result>()
        let done = DispatchGroup()
        for _ in 0..<max(1, min(width, count)) {
            done.enter()
            Thread.detachNewThread {
                while let at = collected.lock.withLock({ () -> Int? in
                    defer { collected.next += 1 }
                    return collected.next < count ? collected.next : nil
                }) {
                    let result = body(at)
                    collected.lock.withLock { collected.results.append(result) }
                }
                done.leave()
            }
        }
        let stalled = stalledWhile { done.wait(timeout: .now() + 0.25) == .timedOut }
        return (collected.lock.withLock { collected.results }, stalled)
    }

    /// What `inParallel`'s threads hand back, under its lock.
    private final class Collected<Result>: @unchecked Sendable {
        let lock = NSLock()
        var results: [Result] = []
        /// The next one a thread takes (a slow file holds up only its own thread).
        var next = 0
    }

    /// Calls `waitTimedOut` (a wait of a fraction of a second) until it says the wait ended, or
    /// a mount is not answering: those mounts (none when the wait ended).
    static func stalledWhile(_ waitTimedOut: () -> Bool) -> [String] {
        while waitTimedOut() {
            let stalled = ReadWatch.shared.notAnswering()
            if !stalled.isEmpty { return stalled }
        }
        return []
    }

    /// Mounts as a message names them.
    static func named(_ mounts: [String]) -> String { mounts.map { DisplayText.sanitized($0) }.joined(separator: ", ") }
}
