#if canImport(Glibc)
    import Glibc
#endif

/// The version written into the thumbnail cache's failure records, and printed by `--version`.
public let lightboxVersion = "0.1.0"

/// How a decoder process works, as the arguments it is started with: the app's own forks and
/// `lightbox --decode-worker` (no image libraries), and `lightbox-decode` (all of them).
public struct DecoderSettings: Hashable, Sendable {
    public var pixelLimit: Int
    /// The thumbnail cache's folder; nil: none.
    public var cacheRoot: ImagePath?
    /// At idle priority (the read-ahead's decoders).
    public var isIdle: Bool
    /// Writes new cache entries only when no request waits (the gallery's).
    public var defersCacheWrites: Bool

    public init(pixelLimit: Int, cacheRoot: ImagePath?, isIdle: Bool = false, defersCacheWrites: Bool = false) {
        self.pixelLimit = pixelLimit
        self.cacheRoot = cacheRoot
        self.isIdle = isIdle
        self.defersCacheWrites = defersCacheWrites
    }

    /// The arguments that start a decoder process with these settings (bytes: a cache folder
    /// whose name is not UTF-8 reaches it as it is).
    public var arguments: [[UInt8]] {
        var words = ["--max-megapixels", String(pixelLimit / 1_000_000)].map { Array($0.utf8) }
        if isIdle { words.append(Array("--idle-priority".utf8)) }
        if defersCacheWrites { words.append(Array("--defer-cache-writes".utf8)) }
        if let cacheRoot { words += [Array("--cache-dir".utf8), cacheRoot.bytes] } else { words.append(Array("--no-disk-cache".utf8)) }
        return words
    }

    /// The settings `arguments` gave; nil for anything else.
    public init?(parsing arguments: [[UInt8]]) {
        self.init(pixelLimit: DecodeLimits().pixelLimit, cacheRoot: nil)
        var rest = arguments[...]
        while let word = rest.popFirst() {
            switch String(decoding: word, as: UTF8.self) {
            case "--max-megapixels":
                guard let value = rest.popFirst().flatMap({ Int(String(decoding: $0, as: UTF8.self)) }), (1...100_000).contains(value) else { return nil }
                pixelLimit = value * 1_000_000
            case "--cache-dir":
                guard let root = rest.popFirst(), !root.isEmpty else { return nil }
                cacheRoot = ImagePath(bytes: root)
            case "--no-disk-cache": cacheRoot = nil
            case "--idle-priority": isIdle = true
            case "--defer-cache-writes": defersCacheWrites = true
            default: return nil
            }
        }
    }

    /// Serves decode requests on standard input and output until they close, with `codecs`
    /// (nil in the app's own processes).
    public func serve(codecs: (any ImageCodecs)?) {
        Self.limitMemory()
        // The read-ahead's decoder gets only what nothing else wants (its threads inherit it).
        if isIdle { IdlePriority.lowerCurrentThread() }
        // No warm-up before the first request: a fork decoding a sample JPEG took a core from the
        // app while it scanned and drew its first screen.
        var pipeline = ThumbnailPipeline(
            limits: DecodeLimits(pixelLimit: pixelLimit), codecs: codecs,
            diskCache: cacheRoot.map { FreedesktopCache(root: $0, version: lightboxVersion) })
        if defersCacheWrites { pipeline.deferredWrites = DeferredCacheWrites() }
        DecodeWorker.serve(input: 0, output: 1, pipeline: pipeline)
    }

    /// The last line against a file that makes a decoder ask for more than it lets through: its
    /// data (heap, anonymous mappings, thread stacks) held to `DecodeLimits.decoderMemory`, so an
    /// allocation past it fails in this process (a broken tile) instead of the machine swapping.
    static func limitMemory() {
        var limit = rlimit(rlim_cur: rlim_t(DecodeLimits.decoderMemory), rlim_max: rlim_t(DecodeLimits.decoderMemory))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &limit)
    }
}
