#if canImport(Glibc)
    import Glibc
#endif

/// The decoder the app uses: each file takes the fastest path that gives enough pixels.
///
/// 1. a valid entry of the freedesktop thumbnail cache, at least as large as needed;
/// 2. the JPEG's embedded EXIF thumbnail, when large enough and of the same shape;
/// 3. JPEG through libjpeg-turbo at the smallest DCT scale that covers the box;
/// 4. a camera RAW's embedded JPEG preview, at the smallest DCT scale; a video's frame, by FFmpeg's libraries;
/// 5. libvips' thumbnail (shrink-on-load) for everything else.
/// What paths 3 to 5 make is written to the disk cache at the standard size. Paths 4 (developing,
/// video) and 5 need `codecs`; without them (the app's own processes) such a file is answered
/// `.needsCodecs`.
public struct ThumbnailPipeline: ThumbnailDecoding {
    public var limits: DecodeLimits
    /// libvips, LibRaw and FFmpeg, in `lightbox-decode` only.
    public var codecs: (any ImageCodecs)?
    public var diskCache: FreedesktopCache?
    public let statistics: DecodeStatistics
    /// Where new disk cache entries wait to be written when the process is idle (a decoder
    /// process serving the gallery); nil: written at once.
    public var deferredWrites: DeferredCacheWrites?
    /// The file's bytes as the app read them ahead of this decode (many reads in flight on a
    /// network mount, `FileReadStage`); nil: the file is read here.
    public var contents: [UInt8]?
    /// On a slow link (`ReadSpeed`): a source with half the box's pixels is enough (an EXIF
    /// thumbnail, a RAW's small preview, a smaller disk cache entry), scaled up to the box, so no
    /// whole file is read for it. Never written to the disk cache.
    public var smallerSuffices = false
    /// Bytes read to find the EXIF thumbnail before deciding to read the whole file: first the
    /// most that cameras' header segments take, then, when they go on, up to the larger figure.
    static let (firstHeaderBytes, headerBytes) = (16 << 10, 128 << 10)

    public init(
        limits: DecodeLimits = DecodeLimits(), codecs: (any ImageCodecs)?, diskCache: FreedesktopCache?,
        statistics: DecodeStatistics = DecodeStatistics()
    ) {
        self.limits = limits
        self.codecs = codecs
        self.diskCache = diskCache
        self.statistics = statistics
    }

    public func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        let source = diskCache.map { _ in cacheSource(for: file) }
        if let source, let known = fromDiskCache(source, fitting: box, usingLibraries: true) { return known }
        if file.format.traits.decoding.takesExifThumbnail, let thumbnail = exifThumbnail(file, fitting: box) {
            statistics.record(.exif)
            return .decoded(thumbnail)
        }
        // With a disk cache, decode at the standard size it stores; else straight to the box.
        let cacheSize = diskCache == nil ? nil : FreedesktopCache.Size.covering(max(box.width, box.height))
        let target = cacheSize.map { PixelSize(width: $0.rawValue, height: $0.rawValue) } ?? box
        let fresh = freshThumbnail(file, fitting: target, allowingExif: false, box: box)
        switch fresh.result {
        case .decoded(let thumbnail):
            if fresh.isSmaller { return .decoded(thumbnail.downscaled(toFit: box).upscaled(toFit: box)) }
            if let cache = diskCache, let source, let cacheSize, deferredWrites?.keep(thumbnail, for: source, size: cacheSize) != true,
                cache.store(thumbnail, for: source, size: cacheSize)
            {
                statistics.recordWrite()
            }
            return .decoded(thumbnail.downscaled(toFit: box))
        case .failed(let failure):
            // Only the file's own faults are worth remembering; limits may change.
            if let cache = diskCache, let source, failure.kind == .badFile { cache.storeFailure(failure.message, for: source) }
            return failure.kind == .needsCodecs ? .failed(failure) : failed(failure)
        }
    }

    /// Every frame of an animation (GIF, WebP; APNG by our own decoder) fitted to `box`; a still for other kinds.
    /// Never from or to the disk cache, which keeps stills.
    public func decodeFrames(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        guard file.format.mayAnimate else { return decode(file, fitting: box) }
        let data: [UInt8]
        switch read(file) {
        case .success(let bytes): data = bytes
        case .failure(let error): return failed(.unreadable(error.message))
        }
        if let refusal = headerRefusal(data, format: file.format) { return failed(refusal) }
        if case .own(let frames) = file.format.traits.animation {
            // Ours gives nil for a file it does not read or whose canvas would not fit a
            // decoder's memory: then the still, which libvips decodes shrinking as it reads.
            guard let decoded = frames(data, box, limits) else { return decode(file, fitting: box) }
            return .decoded(decoded)
        }
        guard let codecs else { return .failed(.needsCodecs) }
        let result = codecs.decodeFrames(data: data, fitting: box, limits: limits)
        if case .decoded = result { statistics.record(.vips) }
        return result
    }

    /// A video's frames to play from `start` milliseconds on, by FFmpeg's libraries (never
    /// from or to the disk cache); other kinds have none.
    public func decodeClip(_ file: ImageFile, from start: Int, fitting box: PixelSize) -> DecodeResult {
        guard case .video(let demuxer) = file.format.traits.decoding else { return .failed(.refused("not a video")) }
        guard let codecs else { return .failed(.needsCodecs) }
        let result = codecs.decodeVideoClip(file, demuxer: demuxer, from: start, fitting: box, limits: limits)
        if case .decoded = result { statistics.record(.video) }
        return result
    }

    /// Our own header check, before any image library sees the file: a picture with no pixels,
    /// or more than the limit, is refused.
    func headerRefusal(_ data: [UInt8], format: ImageFormat) -> DecodeFailure? {
        guard let size = ImageHeader.dimensions(of: Array(data.prefix(ImageHeader.prefixLength)), format: format) else { return nil }
        if size.width <= 0 || size.height <= 0 { return .refused("image has no pixels (\(size.width)x\(size.height))") }
        let pixels = ImageHeader.pixelCount(size.width, size.height)
        if pixels > limits.pixelLimit { return .tooLarge(size.width, size.height, limit: limits.pixelLimit) }
        if let perPixel = format.traits.decodeBytesPerPixel, case let needed = pixels.multipliedReportingOverflow(by: perPixel),
            needed.overflow || needed.partialValue > limits.memoryLimit
        {
            return .needsMemory(size.width, size.height, megabytes: pixels / (1 << 20) * perPixel, to: "decode", limit: limits.memoryLimit)
        }
        return nil
    }

    /// What the disk cache already knows of `file`: a valid entry (decoded by our own PNG decoder,
    /// or by libvips too when `usingLibraries`), a recorded failure, or a refusal; nil when the
    /// file itself must be decoded. Without libraries no image library runs, so it is safe in the
    /// app's own process.
    public func fromDiskCache(_ file: ImageFile, fitting box: PixelSize, usingLibraries: Bool) -> DecodeResult? {
        guard diskCache != nil else { return nil }
        return fromDiskCache(cacheSource(for: file), fitting: box, usingLibraries: usingLibraries)
    }

    func fromDiskCache(_ source: FreedesktopCache.Source, fitting box: PixelSize, usingLibraries: Bool) -> DecodeResult? {
        guard let cache = diskCache else { return nil }
        if cache.contains(source.absolutePath) { return failed(.refused("inside the thumbnail cache: not thumbnailed")) }
        let needed = max(box.width, box.height)
        // On a slow link an entry of half the size will do (only one made smaller than its photo: its
        // longest side a standard size's), scaled up.
        let found =
            cache.lookup(source, needing: needed).map { ($0, false) }
            ?? (smallerSuffices ? cache.lookup(source, needing: max(1, needed / 2)).map { ($0, true) } : nil)
        if let (png, mayBeSmaller) = found {
            var thumbnail = PNGDecoder.decode(png)?.downscaled(toFit: box)
            if thumbnail == nil, usingLibraries, let codecs, case .decoded(let decoded) = codecs.decode(data: png, fitting: box, limits: limits) {
                thumbnail = decoded
            }
            if var thumbnail {
                statistics.record(.diskCache)
                if mayBeSmaller, FreedesktopCache.Size(rawValue: max(thumbnail.width, thumbnail.height)) != nil {
                    statistics.record(.smaller)
                    thumbnail = thumbnail.upscaled(toFit: box)
                }
                return .decoded(thumbnail)
            }
            if !usingLibraries { return nil }
        }
        if let reason = cache.recordedFailure(for: source) { return failed(.badFile(reason)) }
        return nil
    }

    /// What our own code makes of `file`, with no image library (so safe in the app's own
    /// process): a disk cache entry, a recorded failure, or the EXIF thumbnail decoded by
    /// `BaselineJPEGDecoder`; nil when a decoder process must decode it.
    public func decodeWithoutLibraries(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult? {
        fromDiskCache(file, fitting: box, usingLibraries: false) ?? exifWithoutLibraries(file, fitting: box)
    }

    /// The file's EXIF thumbnail decoded by our own `BaselineJPEGDecoder`, when it has one that
    /// will do; nil otherwise. Reads the file's first bytes (the disk cache is not asked).
    public func exifWithoutLibraries(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult? {
        guard file.format.traits.decoding.takesExifThumbnail, let thumbnail = exifThumbnail(file, fitting: box, usingLibraries: false) else { return nil }
        statistics.record(.exif)
        return .decoded(thumbnail)
    }

    /// What `warm(_:size:)` did with one file.
    public enum WarmOutcome: Hashable, Sendable {
        case alreadyCached, written
        case failed(String)
        /// The thumbnail was made but the disk cache took none of it (full, read-only): the reason.
        case cacheUnwritable(String)
        /// Only a decoder with the image libraries can make it (`DecodeFailure.needsCodecs`).
        case needsCodecs
    }

    /// Makes sure the disk cache holds a valid entry for `file` at `size`.
    public func warm(_ file: ImageFile, size: FreedesktopCache.Size = .normal) -> WarmOutcome {
        guard let cache = diskCache else { return .failed("no disk cache") }
        let source = cacheSource(for: file)
        if cache.contains(source.absolutePath) { return .failed("inside the thumbnail cache") }
        if cache.lookup(source, needing: size.rawValue) != nil { return .alreadyCached }
        if let reason = cache.recordedFailure(for: source) { return .failed(reason) }
        switch freshThumbnail(file, fitting: PixelSize(width: size.rawValue, height: size.rawValue), allowingExif: true).result {
        case .decoded(let thumbnail):
            if case .failure(let failure) = cache.put(thumbnail, for: source, size: size) {
                return .cacheUnwritable("the thumbnail cache cannot be written: " + failure.reason)
            }
            statistics.recordWrite()
            return .written
        case .failed(let failure):
            if failure.kind == .needsCodecs { return .needsCodecs }
            if failure.kind == .badFile { cache.storeFailure(failure.message, for: source) }
            return .failed(failure.message)
        }
    }

    func cacheSource(for file: ImageFile) -> FreedesktopCache.Source {
        FreedesktopCache.Source(
            absolutePath: FreedesktopCache.absolute(file.path),
            modifiedSeconds: file.modified / 1_000_000_000, byteCount: file.byteCount,
            mayBeTransparent: file.format.traits.decoding.mayBeTransparent)
    }

    /// A thumbnail made from the file itself (EXIF when allowed and enough, DCT, or libvips),
    /// fitted to `target`; `isSmaller` when, with `smallerSuffices`, a RAW's preview too small for
    /// `box` (the tile's, inside `target`) was enough.
    func freshThumbnail(_ file: ImageFile, fitting target: PixelSize, allowingExif: Bool, box: PixelSize? = nil) -> (result: DecodeResult, isSmaller: Bool) {
        let decoding = file.format.traits.decoding
        switch decoding {
        case .dctScaled:
            if allowingExif, let thumbnail = exifThumbnail(file, fitting: target) {
                statistics.record(.exif)
                return (.decoded(thumbnail), false)
            }
        case .embeddedPreview: return rawPreview(file, fitting: target, enough: smallerSuffices ? (box ?? target).halved : nil)
        case .video(let demuxer):
            // Never read whole: FFmpeg reads the parts it needs, from our descriptor.
            guard let codecs else { return (.failed(.needsCodecs), false) }
            let result = codecs.decodeVideo(file, demuxer: demuxer, fitting: target, limits: limits)
            if case .decoded = result { statistics.record(.video) }
            return (result, false)
        case .vips: break
        }
        return (wholeFileThumbnail(file, fitting: target, decoding: decoding), false)
    }

    /// A thumbnail from the whole file's bytes: DCT-scaled for a JPEG libjpeg-turbo sizes, else libvips'.
    func wholeFileThumbnail(_ file: ImageFile, fitting target: PixelSize, decoding: ImageFormat.Decoding) -> DecodeResult {
        let data: [UInt8]
        switch read(file) {
        case .success(let bytes): data = bytes
        case .failure(let error): return .failed(.unreadable(error.message))
        }
        // Our own header check first: no image library sees a bomb or an empty image.
        if let refusal = headerRefusal(data, format: file.format) { return .failed(refusal) }
        // A JPEG libjpeg-turbo cannot size goes to libvips, which may still read it.
        if decoding == .dctScaled, let header = JPEGHeader(parsing: data), let size = TurboJPEGDecoder.size(of: data) {
            guard ImageHeader.pixelCount(size.width, size.height) <= limits.pixelLimit else {
                return .failed(.tooLarge(size.width, size.height, limit: limits.pixelLimit))
            }
            let result = dctDecode(data, size: size, orientation: header.orientation, fitting: target)
            if case .decoded = result { statistics.record(.dct) }
            return result
        }
        guard let codecs else { return .failed(.needsCodecs) }
        let result = codecs.decode(data: data, fitting: target, limits: limits)
        if case .decoded = result { statistics.record(.vips) }
        return result
    }

    func failed(_ failure: DecodeFailure) -> DecodeResult {
        statistics.record(.failed)
        return .failed(failure)
    }

    /// The pixels a `width` x `height` image (as stored) must have to fill `box` once oriented.
    static func neededStoredSize(width: Int, height: Int, orientation: Int, box: PixelSize) -> PixelSize {
        let transposed = orientation >= 5
        let shown = Thumbnail.fittedSize(width: transposed ? height : width, height: transposed ? width : height, in: box)
        return transposed ? PixelSize(width: shown.height, height: shown.width) : shown
    }

    /// Decodes at the smallest DCT scale that covers the box, then orients and area-averages.
    func dctDecode(_ data: [UInt8], size: (width: Int, height: Int), orientation: Int, fitting box: PixelSize) -> DecodeResult {
        let needed = Self.neededStoredSize(width: size.width, height: size.height, orientation: orientation, box: box)
        switch TurboJPEGDecoder.decode(data, width: size.width, height: size.height, covering: needed, pixelLimit: limits.pixelLimit) {
        case .decoded(let scaled): return .decoded(scaled.oriented(orientation).downscaled(toFit: box))
        case .failed(let failure): return .failed(failure)
        }
    }

    /// The embedded EXIF thumbnail, oriented as the main image, when it has enough pixels
    /// and the main image's shape (within 2%; some cameras pad theirs). Decoded by libjpeg-turbo
    /// when `usingLibraries` (the faster), else by our own `BaselineJPEGDecoder`.
    func exifThumbnail(_ file: ImageFile, fitting box: PixelSize, usingLibraries: Bool = true) -> Thumbnail? {
        guard case .success(let (prefix, header)) = jpegHeader(file), let header, let range = header.exifThumbnail,
            header.width > 0, header.height > 0, ImageHeader.pixelCount(header.width, header.height) <= limits.pixelLimit
        else { return nil }
        let embedded = Array(prefix[range])
        // A thumbnail larger than its photo lies about its size (and would be decoded at it).
        guard let size = JPEGHeader(parsing: embedded).map({ (width: $0.width, height: $0.height) }), size.width > 0, size.height > 0,
            size.width <= header.width, size.height <= header.height
        else { return nil }
        let needed = Self.neededStoredSize(width: header.width, height: header.height, orientation: header.orientation, box: box)
        let enough =
            smallerSuffices ? Self.neededStoredSize(width: header.width, height: header.height, orientation: header.orientation, box: box.halved) : needed
        let mainAspect = Double(header.width) / Double(header.height)
        let aspect = Double(size.width) / Double(size.height)
        guard size.width >= enough.width, size.height >= enough.height, abs(aspect - mainAspect) <= 0.02 * mainAspect else { return nil }
        let isSmaller = size.width < needed.width || size.height < needed.height
        let decoded: Thumbnail?
        if usingLibraries {
            let result = TurboJPEGDecoder.decode(embedded, width: size.width, height: size.height, covering: needed, pixelLimit: limits.pixelLimit)
            if case .decoded(let pixels) = result { decoded = pixels } else { decoded = nil }
        } else {
            decoded = BaselineJPEGDecoder.decode(embedded, covering: needed)
        }
        guard let shown = decoded?.oriented(header.orientation).downscaled(toFit: box) else { return nil }
        guard isSmaller else { return shown }
        statistics.record(.smaller)
        return shown.upscaled(toFit: box)
    }

    /// The whole file: the bytes read ahead, else read now (no more than the limit).
    func read(_ file: ImageFile) -> Result<[UInt8], FileReader.Failure> {
        if let contents { return .success(contents) }
        return FileReader.read(file.path, limit: limits.byteLimit)
    }

    /// The start of `file` and what its JPEG header segments say, from the bytes read ahead when there are some.
    func jpegHeader(_ file: ImageFile) -> Result<([UInt8], JPEGHeader?), FileReader.Failure> {
        guard let contents else { return Self.jpegHeader(file.path) }
        let prefix = Array(contents.prefix(Self.headerBytes))
        return .success((prefix, JPEGHeader(parsing: prefix)))
    }

    /// The start of the file at `path` and what its JPEG header segments say: `firstHeaderBytes`
    /// read, and more (up to `headerBytes`) only when the segments go on past them.
    static func jpegHeader(_ path: ImagePath) -> Result<([UInt8], JPEGHeader?), FileReader.Failure> {
        FileReader.withRegularFile(path, limit: .max) { fd, size in
            var prefix = FileReader.readUpTo(fd, count: min(size, firstHeaderBytes))
            if headerGoesOn(prefix) && prefix.count < min(size, headerBytes) {
                prefix += FileReader.readUpTo(fd, count: min(size, headerBytes) - prefix.count)
            }
            return .success((prefix, JPEGHeader(parsing: prefix)))
        }
    }

    /// Whether a JPEG's header segments go on past `prefix`: its frame header (which follows the
    /// EXIF block) has not come, or its EXIF block ends beyond. False for what is not a JPEG.
    static func headerGoesOn(_ prefix: [UInt8]) -> Bool {
        guard let header = JPEGHeader(parsing: prefix) else { return false }
        return header.width == 0 || (header.exifBlock?.upperBound ?? 0) >= prefix.count
    }
}
