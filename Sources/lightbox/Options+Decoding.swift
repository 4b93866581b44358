import Foundation
import LightboxThumbnails
import LightboxApp

extension Options {
    /// The disk cache the options ask for, if any.
    var diskCache: FreedesktopCache? {
        guard usesDiskCache else { return nil }
        if let cacheDirectory { return FreedesktopCache(root: FreedesktopCache.absolute(cacheDirectory), version: version) }
        return FreedesktopCache.defaultRoot().map { FreedesktopCache(root: $0, version: version) }
    }

    /// The in-process decoder for these options.
    func makePipeline() -> ThumbnailPipeline {
        ThumbnailPipeline(vips: VipsDecoder(pixelLimit: pixelLimit), diskCache: diskCache)
    }

    /// The decoder the app uses: worker processes running this binary, or the in-process pipeline.
    /// With `prestartsDecoders`, the workers start at once rather than at the first file that needs one.
    /// With `idle`, the decoder processes run at idle priority (the read-ahead's); with
    /// `defersCacheWrites`, they write new disk cache entries only when no request waits (the
    /// gallery's, so a screen never waits for PNG encoding).
    func makeDecoder(prestartsDecoders: Bool = false, idle: Bool = false, defersCacheWrites: Bool = false) -> Decoder {
        guard decodesInProcesses, let executable = Self.executablePath else {
            let pipeline = makePipeline()
            return Decoder(decoder: pipeline, statistics: pipeline.statistics, warm: { pipeline.warm($0, size: $1) }, shutdown: {})
        }
        // Bytes throughout: a cache folder whose name is not UTF-8 reaches the workers as it is.
        var command = [executable.bytes] + ["--decode-worker", "--max-megapixels", String(pixelLimit / 1_000_000)].map { Array($0.utf8) }
        if idle { command.append(Array("--idle-priority".utf8)) }
        if defersCacheWrites { command.append(Array("--defer-cache-writes".utf8)) }
        if let cache = diskCache { command += [Array("--cache-dir".utf8), cache.root.bytes] } else { command.append(Array("--no-disk-cache".utf8)) }
        let pool = WorkerPoolDecoder(command: command, timeLimit: decodeTimeLimit)
        pool.local = diskCache.map { ThumbnailPipeline(vips: VipsDecoder(pixelLimit: pixelLimit), diskCache: $0, statistics: pool.statistics) }
        if prestartsDecoders {
            // Forks of this process, ready at once, serving as `--decode-worker` would.
            let options = self
            pool.prestart(ProcessInfo.processInfo.activeProcessorCount) {
                options.serveAsDecoder(idle: idle, defersCacheWrites: defersCacheWrites)
            }
        }
        return Decoder(decoder: pool, statistics: pool.statistics, warm: { pool.warm($0, size: $1) }, shutdown: { pool.shutdown() })
    }

    /// Serves decode requests on standard input and output until they close, as a decoder
    /// process (forked at launch, or run with `--decode-worker`): at idle priority for the
    /// read-ahead, writing cache entries when no request waits for the gallery.
    func serveAsDecoder(idle: Bool, defersCacheWrites: Bool) {
        // The read-ahead's decoder gets only what nothing else wants (its threads inherit it).
        if idle { IdlePriority.lowerCurrentThread() }
        TurboJPEGDecoder.warmUp()  // before the first file comes (a fork: while the app scans)
        var pipeline = makePipeline()
        if defersCacheWrites { pipeline.deferredWrites = DeferredCacheWrites() }
        DecodeWorker.serve(input: 0, output: 1, pipeline: pipeline)
    }

    /// How many read-ahead decoders may work at once now: as the options say, else one on
    /// battery and every core on mains power (asked each time the read-ahead resumes).
    var readAheadWorkersNow: @Sendable () -> Int {
        let stated = readAheadWorkers
        return { stated ?? (PowerSupply.isOnBattery() ? 1 : ProcessInfo.processInfo.activeProcessorCount) }
    }

    /// This program's own executable, for starting decoder processes.
    static let executablePath: ImagePath? = {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBufferPointer { readlink("/proc/self/exe", UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count) }
        return n > 0 && n < buffer.count ? ImagePath(bytes: Array(buffer[..<n])) : nil
    }()
}

/// A decoder with its statistics and its way of warming the disk cache.
struct Decoder {
    var decoder: any ThumbnailDecoding
    var statistics: DecodeStatistics
    var warm: @Sendable (ImageFile, FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome
    /// Ends decoder processes and collects them (so their CPU time counts as ours).
    var shutdown: @Sendable () -> Void
}

/// What `--stats` prints.
func statisticsReport(_ statistics: DecodeStatistics, provider: ThumbnailProvider, cacheBytes: Int, cacheCount: Int,
                      pictures: String, library: Library, readAhead: (ReadAhead, workers: Int)? = nil, timeline: String? = nil) -> String {
    var lines = ["lightbox statistics:", "  pictures: \(pictures)",
                 "  items: \(library.totalCount), files: \(library.fileCount) (pairs are one item)"]
    if let timeline { lines.append("  " + timeline) }
    if let (readAhead, workers) = readAhead, readAhead.extent != .off {
        lines.append("  read ahead: \(readAhead.written) written to the disk cache, \(readAhead.alreadyCached) there already, \(readAhead.failed) failed"
                     + (workers > 0 ? " (\(workers) decoder\(workers == 1 ? "" : "s") at once)" : ""))
    }
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
