import Foundation
import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import LightboxView

/// `--snapshot`: the first screen at a given size, every visible thumbnail decoded, as ANSI text.
enum SnapshotSession {
    static func run(library: Library, options: Options, decoder pipeline: Decoder, size: (width: Int, height: Int), problems: [String]) -> Int32 {
        var state = GalleryState(library: library, spec: options.spec, width: size.width, height: size.height,
                                 cacheBudget: options.cacheBytes, scanProblems: problems)
        state.prefetches = false
        let ready = DispatchSemaphore(value: 0)
        let provider = ThumbnailProvider(decoder: pipeline.decoder) { ready.signal() }
        var effects = state.initialEffects()
        while true {
            for case .load(let requests) in effects.coalesced { provider.request(requests) }
            if state.isVisibleComplete { break }
            ready.wait()
            effects = []
            for (request, result) in provider.takeResults() { effects += state.apply(.decoded(request, result)) }
        }
        provider.shutdown()
        pipeline.shutdown()
        Output.write(Array(GalleryView.frame(for: state).ansiText.utf8))
        if options.printsStatistics {
            Output.write(Array(statisticsReport(pipeline.statistics, provider: provider, cacheBytes: state.thumbnails.byteCount,
                                                cacheCount: state.thumbnails.count).utf8), to: 2)
        }
        return 0
    }
}
