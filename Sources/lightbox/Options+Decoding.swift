import Foundation
import LightboxThumbnails

extension Options {
    /// The disk cache the options ask for, if any.
    var diskCache: FreedesktopCache? {
        guard usesDiskCache else { return nil }
        if let cacheDirectory { return FreedesktopCache(root: FreedesktopCache.absolute(cacheDirectory), version: version) }
        return FreedesktopCache.defaultRoot(environment: ProcessInfo.processInfo.environment).map { FreedesktopCache(root: $0, version: version) }
    }

    /// The decoder for these options.
    func makePipeline() -> ThumbnailPipeline {
        ThumbnailPipeline(vips: VipsDecoder(pixelLimit: pixelLimit), diskCache: diskCache)
    }
}

/// What `--stats` prints.
func statisticsReport(_ statistics: DecodeStatistics, provider: ThumbnailProvider, cacheBytes: Int, cacheCount: Int) -> String {
    var lines = ["lightbox statistics:"]
    for source in DecodeStatistics.Source.allCases {
        lines.append("  \(source.rawValue): \(statistics.count(source))")
    }
    let cancellations = provider.cancellations
    lines.append("  decodes cancelled before starting: \(cancellations.dropped)")
    lines.append("  results discarded (tile left the window): \(cancellations.discarded)")
    lines.append("  disk cache entries written: \(statistics.cacheWrites)")
    lines.append("  memory cache: \(cacheCount) thumbnails, \(cacheBytes) bytes")
    return lines.joined(separator: "\n") + "\n"
}
