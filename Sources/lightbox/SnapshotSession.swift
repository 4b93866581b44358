import Foundation
import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import LightboxView

/// `--snapshot`: the first screen at a given size, every visible thumbnail decoded, as ANSI text
/// (with kitty or sixel pictures in those modes; `auto` has no terminal to ask: half blocks).
enum SnapshotSession {
    /// The scan goes on until the screen is settled: it ended, or, when items arrive in display
    /// order, an item lies beyond the screen (so nothing more can land in view).
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
        while state.isScanning && (!appendsBelow || state.visibleItems.upperBound >= state.library.count) {
            scan.waitForBatches(timeout: 1)
            let progress = scan.take()
            effects += state.apply(.scanned(progress.batches, isFinished: progress.isFinished))
        }
        scan.stop()
        // When dates decide the order, every date is read before the screen is drawn.
        var wanted: [MetadataRequest] = []
        for case .readMetadata(let requests, _) in effects { wanted += requests }
        effects.removeAll { if case .readMetadata = $0 { return true } else { return false } }
        if !wanted.isEmpty { effects += state.apply(.metadataRead(readAll(wanted))) }
        if state.library.isEmpty {
            pipeline.shutdown()
            return reportNothingFound(state.scanProblems, unlisted: state.unlistedScanProblems, options: options)
        }
        let ready = DispatchSemaphore(value: 0)
        let provider = ThumbnailProvider(decoder: pipeline.decoder, background: settings.theme.pictureGround) { ready.signal() }
        while true {
            for case .load(let requests) in effects.coalesced { provider.request(requests) }
            if state.isVisibleComplete { break }
            // Nothing queued or running: what finished is taken, and if nothing did, nothing more will come.
            if provider.outstandingCount == 0 {
                let results = provider.takeResults()
                if results.isEmpty { break }
                effects = results.flatMap { state.apply(.decoded($0, $1)) }
                continue
            }
            ready.wait()
            effects = []
            for (request, result) in provider.takeResults() { effects += state.apply(.decoded(request, result)) }
        }
        // In a pixel mode the pictures come as the terminal would get them: kitty transmissions
        // before the cells (which hold the placeholders), sixel strings after them at their tiles.
        let frame = GalleryView.frame(for: state)
        var painter = ImagePainter(mode: state.pictures.graphics.pixelProtocol, cellPixels: state.pictures.cellPixels)
        let before = painter.prepare(frame).bytes
        Output.write(before + Array(frame.ansiText.utf8) + painter.finish(frame, repaintedRows: []))
        // The screen first; then the decoders end (collected, so their CPU time counts as ours).
        provider.shutdown()
        pipeline.shutdown()
        if options.printsStatistics {
            Output.write(
                Array(
                    statisticsReport(
                        pipeline.statistics, provider: provider, cacheBytes: state.store.cache.byteCount,
                        cacheCount: state.store.cache.count, pictures: state.pictures.graphics.title, library: state.library
                    ).utf8), to: 2)
        }
        return 0
    }

    /// Reads metadata on every core.
    static func readAll(_ requests: [MetadataRequest]) -> [MetadataResult] {
        final class Collected: @unchecked Sendable {
            let lock = NSLock()
            var results: [MetadataResult] = []
        }
        let collected = Collected()
        let workers = ProcessInfo.processInfo.activeProcessorCount
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let part = stride(from: worker, to: requests.count, by: workers).map { MetadataReader.read(requests[$0]) }
            collected.lock.lock()
            collected.results += part
            collected.lock.unlock()
        }
        return collected.results
    }
}
