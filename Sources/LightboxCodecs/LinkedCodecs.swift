import LightboxThumbnails

/// The image libraries themselves, for the pipeline of a `lightbox-decode` process (and the
/// tests, the sample maker and the benchmarks): libvips, LibRaw and FFmpeg.
public struct LinkedCodecs: ImageCodecs {
    public init() {}

    public func decode(data: [UInt8], fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult {
        VipsDecoder(limits: limits).decode(data: data, fitting: box)
    }

    public func decodeFrames(data: [UInt8], fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult {
        VipsDecoder(limits: limits).decodeFrames(data: data, fitting: box)
    }

    public func develop(_ file: ImageFile, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult {
        RawDeveloper(limits: limits).develop(file, fitting: box)
    }

    public func decodeVideo(_ file: ImageFile, demuxer: String, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult {
        VideoDecoder(pixelLimit: limits.pixelLimit).decode(file, demuxer: demuxer, fitting: box).result
    }

    public func readDecision(photo: ImagePath) -> (decision: Decision?, problem: String?) { XMPSidecar.read(photo: photo) }

    public func writeDecision(_ decision: Decision, photo: ImagePath, mode: SidecarMode) -> SidecarWrite {
        XMPSidecar.write(decision, photo: photo, mode: mode)
    }
}

extension ThumbnailPipeline {
    /// A pipeline with every image library: what a `lightbox-decode` process runs.
    public static func withCodecs(
        limits: DecodeLimits = DecodeLimits(), diskCache: FreedesktopCache?,
        statistics: DecodeStatistics = DecodeStatistics()
    ) -> ThumbnailPipeline {
        ThumbnailPipeline(limits: limits, codecs: LinkedCodecs(), diskCache: diskCache, statistics: statistics)
    }
}
