/// Sends each file to the decoder that can make its thumbnail: `core` (our own code and
/// libjpeg-turbo, in the app's forks or threads) for JPEG, EXIF, RAW previews and the disk
/// cache; `codecs` (`lightbox-decode` processes: libvips, LibRaw, FFmpeg) for the kinds of file
/// only they read, and for any file `core` answers `.needsCodecs` (a RAW without a preview).
public struct RoutedDecoder: ThumbnailDecoding {
    public let core: any ThumbnailDecoding & CacheWarming
    public let codecs: any ThumbnailDecoding & CacheWarming

    public init(core: any ThumbnailDecoding & CacheWarming, codecs: any ThumbnailDecoding & CacheWarming) {
        self.core = core
        self.codecs = codecs
    }

    /// Whether `core` can make a thumbnail (or the frames) of `file`'s kind, as its row routes
    /// it (it may still find it cannot).
    static func coreCanTry(_ file: ImageFile, frames: Bool = false) -> Bool {
        let traits = file.format.traits
        return (frames ? traits.animation?.route ?? traits.decoding.route : traits.decoding.route) == .ownThenLibraries
    }

    public func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        guard Self.coreCanTry(file) else { return codecs.decode(file, fitting: box) }
        let result = core.decode(file, fitting: box)
        if case .failed(let failure) = result, failure.kind == .needsCodecs { return codecs.decode(file, fitting: box) }
        return result
    }

    public func decodeFrames(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        guard Self.coreCanTry(file, frames: true) else { return codecs.decodeFrames(file, fitting: box) }
        let result = core.decodeFrames(file, fitting: box)
        if case .failed(let failure) = result, failure.kind == .needsCodecs { return codecs.decodeFrames(file, fitting: box) }
        return result
    }

    public func decodeRegion(_ file: ImageFile, region: PhotoRegion, fitting box: PixelSize) -> DecodeResult {
        guard Self.coreCanTry(file) else { return codecs.decodeRegion(file, region: region, fitting: box) }
        let result = core.decodeRegion(file, region: region, fitting: box)
        if case .failed(let failure) = result, failure.kind == .needsCodecs { return codecs.decodeRegion(file, region: region, fitting: box) }
        return result
    }

    /// A video's clip: always the libraries' (our own code plays no video).
    public func decodeClip(_ file: ImageFile, from start: Int, fitting box: PixelSize) -> DecodeResult {
        codecs.decodeClip(file, from: start, fitting: box)
    }

    public func warm(_ file: ImageFile, size: FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome {
        guard Self.coreCanTry(file) else { return codecs.warm(file, size: size) }
        let outcome = core.warm(file, size: size)
        return outcome == .needsCodecs ? codecs.warm(file, size: size) : outcome
    }
}

/// Puts a file's thumbnail in the disk cache.
public protocol CacheWarming: Sendable {
    func warm(_ file: ImageFile, size: FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome
}

extension ThumbnailPipeline: CacheWarming {}
extension WorkerPoolDecoder: CacheWarming {}
