import Foundation
import LightboxApp
import LightboxThumbnails

extension Options {
    /// The disk cache the options ask for, if any.
    var diskCache: FreedesktopCache? {
        guard usesDiskCache else { return nil }
        if let cacheDirectory { return FreedesktopCache(root: FreedesktopCache.absolute(cacheDirectory), version: lightboxVersion) }
        return FreedesktopCache.defaultRoot().map { FreedesktopCache(root: $0, version: lightboxVersion) }
    }

    /// The app's decoder: what its own code reads (JPEG, EXIF, RAW previews, the disk cache) in
    /// forks of this process, or with `--decoders thread` in its own threads; the rest in
    /// `lightbox-decode` processes, the only ones that load libvips, LibRaw and FFmpeg.
    /// With `prestartsDecoders`, the factory that forks them is made at once rather than the
    /// decoders started from the executable at the first file.
    /// With `idle`, the decoder processes run at idle priority (the read-ahead's); with
    /// `defersCacheWrites`, they write new disk cache entries only when no request waits (the
    /// gallery's, so a screen never waits for PNG encoding). With `readsAhead` over one, files
    /// are read that many at once ahead of the decoders (`FileReadStage`: a network mount).
    func makeDecoder(prestartsDecoders: Bool = false, idle: Bool = false, defersCacheWrites: Bool = false, readsAhead: Int = 1) -> Decoder {
        let cache = diskCache, limits = DecodeLimits(pixelLimit: pixelLimit), statistics = DecodeStatistics()
        let settings = DecoderSettings(pixelLimit: pixelLimit, cacheRoot: cache?.root, isIdle: idle, defersCacheWrites: defersCacheWrites)
        // A warm start or a screen of EXIF thumbnails needs no decoder process: the disk cache
        // and the thumbnails are read here, by our own code.
        let local = ThumbnailPipeline(limits: limits, codecs: nil, diskCache: cache, statistics: statistics)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Measured where files are read ahead (a network mount), else as --io says.
        let speed = readsAhead > 1 || io != .auto ? ReadSpeed(mode: io) : nil
        let stage = readsAhead > 1 ? FileReadStage(width: readsAhead, decoders: cores, speed: speed) : nil
        func pool(_ command: [[UInt8]]) -> WorkerPoolDecoder {
            let pool = WorkerPoolDecoder(command: command + settings.arguments, timeLimit: decodeTimeLimit, statistics: statistics)
            pool.local = local
            pool.readStage = stage
            pool.speed = idle ? nil : speed  // the read-ahead fills the disk cache at full size
            pool.countsAtShutdown = printsStatistics  // entries written after a decoder's last answer count too
            return pool
        }
        let codecs = pool([Self.decoderPath.bytes])
        guard decodesInProcesses, let executable = Self.executablePath else {
            let pipeline = ThumbnailPipeline(limits: limits, codecs: nil, diskCache: cache, statistics: statistics)
            let routed = RoutedDecoder(core: ThreadedPipeline(pipeline, stage: stage, speed: idle ? nil : speed), codecs: codecs)
            return Decoder(
                decoder: routed, statistics: statistics, readStage: stage, speed: speed, warm: { routed.warm($0, size: $1) },
                shutdown: { codecs.shutdown() })
        }
        let forks = pool([executable.bytes, Array("--decode-worker".utf8)])
        if prestartsDecoders {
            // Forks serving as `--decode-worker` would, up to one per core (started from the
            // executable instead, each costs about 6 ms of CPU, which slowed the cold screen and
            // keys during the read-ahead); made by a factory forked from this process, so the main
            // thread pays for one fork, each when first needed, so a screen of EXIF thumbnails
            // never shares the cores with decoders starting.
            forks.prestart(cores) { settings.serve(codecs: nil) }
        }
        let routed = RoutedDecoder(core: forks, codecs: codecs)
        return Decoder(
            decoder: routed, statistics: statistics, readStage: stage, speed: speed, warm: { routed.warm($0, size: $1) },
            shutdown: {
                forks.shutdown(); codecs.shutdown()
            })
    }

    /// Decoder processes for the photos' XMP (Exempi runs in `lightbox-decode` only): what
    /// decisions are read from and written to, a worker a calling thread.
    func makeSidecarPool() -> WorkerPoolDecoder {
        WorkerPoolDecoder(
            command: [Self.decoderPath.bytes] + DecoderSettings(pixelLimit: pixelLimit, cacheRoot: nil).arguments, timeLimit: decodeTimeLimit)
    }

    /// How many read-ahead decoders may work at once now: as the options say, else one on
    /// battery and every core on mains power (asked each time the read-ahead resumes).
    var readAheadWorkersNow: @Sendable () -> Int {
        let stated = readAheadWorkers
        return { stated ?? (PowerSupply.isOnBattery() ? 1 : ProcessInfo.processInfo.activeProcessorCount) }
    }

    /// The kinds of file `lightbox-decode`'s libvips loads: as an earlier launch kept the answer
    /// in the cache folder while libvips and the decoder are as they were, else asked of it (and
    /// kept); when it cannot be asked, every kind (their tiles then say what is wrong).
    static let codecFormats: Set<ImageFormat> = {
        let kept = LibraryIndex.defaultFolder()?.appending(Array("decoder-formats".utf8))
        if let kept, let known = DecoderFormats.load(from: kept, decoder: decoderPath) { return known.formats }
        let text = Subprocess.output(of: decoderPath.description, ["--supported-formats"]) ?? ""
        guard let answer = DecoderFormats(answer: text, decoder: decoderPath) else {
            let formats = DecoderFormats.formats(inAnswer: text)
            return formats.isEmpty ? Set(ImageFormat.allCases) : formats
        }
        if let kept { answer.save(to: kept) }
        return answer.formats
    }()

    /// `lightbox-decode`: beside this program's executable (as `swift build` leaves it), else
    /// in `../libexec/lightbox/` from it (as `make install` and the package put it).
    static let decoderPath: ImagePath = {
        guard let executable = executablePath, let slash = executable.bytes.lastIndex(of: UInt8(ascii: "/")) else { return ImagePath("lightbox-decode") }
        let folder = Array(executable.bytes[...slash])
        let beside = ImagePath(bytes: folder + Array("lightbox-decode".utf8))
        if access(beside.description, X_OK) == 0 { return beside }
        return ImagePath(bytes: folder + Array("../libexec/lightbox/lightbox-decode".utf8))
    }()

    /// This program's own executable, for starting decoder processes.
    static let executablePath: ImagePath? = {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBufferPointer {
            readlink("/proc/self/exe", UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count)
        }
        return n > 0 && n < buffer.count ? ImagePath(bytes: Array(buffer[..<n])) : nil
    }()
}

/// A decoder with its statistics and its way of warming the disk cache.
struct Decoder {
    var decoder: any ThumbnailDecoding
    var statistics: DecodeStatistics
    /// Where files are read ahead of the decoders (a network mount), if anywhere.
    var readStage: FileReadStage?
    /// How fast the photos' link is, and whether smaller sources will do (`--io`), if measured or set.
    var speed: ReadSpeed?
    var warm: @Sendable (ImageFile, FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome
    /// Ends decoder processes and collects them (so their CPU time counts as ours).
    var shutdown: @Sendable () -> Void
}

/// What `--stats` prints.
func statisticsReport(
    _ statistics: DecodeStatistics, provider: ThumbnailProvider, cacheBytes: Int, cacheCount: Int,
    pictures: String, library: Library, readAhead: (ReadAhead, workers: Int)? = nil, readStage: FileReadStage? = nil, speed: ReadSpeed? = nil,
    index: LibraryIndex? = nil,
    timeline: String? = nil, upgraded: Int = 0
) -> String {
    var lines = [
        "lightbox statistics:", "  pictures: \(pictures)",
        "  items: \(library.foundCount), files: \(library.fileCount) (pairs are one item)",
    ]
    if let timeline { lines.append("  " + timeline) }
    if library.changedCount > 0 { lines.append("  changed in place since the index had them, read again: \(library.changedCount) files") }
    if library.listedCount > 0 { lines.append("  shown from their folders' listings before they were read: \(library.listedCount) files") }
    if let (readAhead, workers) = readAhead, readAhead.extent != .off {
        lines.append(
            "  read ahead: \(readAhead.written) written to the disk cache, \(readAhead.alreadyCached) there already, \(readAhead.failed) failed"
                + (workers > 0 ? " (\(workers) decoder\(workers == 1 ? "" : "s") at once)" : ""))
        if upgraded > 0 { lines.append("  pictures smaller than their tiles made sharp once read whole: \(upgraded)") }
    }
    if let stage = readStage {
        let read = stage.readSoFar
        lines.append(
            "  files read ahead of the decoders: \(read.files), \(read.bytes >> 20) MiB (\(stage.width) reads at once)"
                + (stage.answeredEarly > 0 ? "; \(stage.answeredEarly) answered by their first bytes (EXIF thumbnails), not read whole" : ""))
    }
    if let speed { lines.append("  " + speed.report) }
    if let index { lines.append("  " + index.statistics) }
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
