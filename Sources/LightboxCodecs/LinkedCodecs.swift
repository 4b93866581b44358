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

    public func decodeRegion(data: [UInt8], region: PhotoRegion, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult {
        VipsDecoder(limits: limits).decodeRegion(data: data, region: region, fitting: box)
    }

    public func develop(_ file: ImageFile, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult {
        RawDeveloper(limits: limits).develop(file, fitting: box)
    }

    public func decodeVideo(_ file: ImageFile, demuxer: String, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult {
        VideoDecoder(pixelLimit: limits.pixelLimit).decode(file, demuxer: demuxer, fitting: box).result
    }

    public func decodeVideoClip(_ file: ImageFile, demuxer: String, from start: Int, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult {
        VideoDecoder(pixelLimit: limits.pixelLimit).decodeClip(file, demuxer: demuxer, from: start, fitting: box)
    }

    public func readDecision(photo: ImagePath, keptIn keptRoot: ImagePath?, found: DecisionStamp.Found?) -> DecisionRead {
        XMPSidecar.read(photo: photo, keptIn: keptRoot, found: found)
    }

    public func writeDecision(_ decision: Decision, fields: DecisionFields, photo: ImagePath, policy: SidecarPolicy) -> SidecarWrite {
        XMPSidecar.write(decision, fields: fields, photo: photo, policy: policy)
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
