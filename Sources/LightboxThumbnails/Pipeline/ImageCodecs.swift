/// What only the big image libraries can do (libvips, LibRaw, FFmpeg). They are linked into
/// `lightbox-decode` alone (`LightboxCodecs`), so the app starts without loading them (their
/// ~170 shared libraries cost a start ~35 ms) and never runs their code. A pipeline without
/// codecs does everything else (the disk cache, EXIF, JPEG by libjpeg-turbo, RAW previews) and
/// answers `.needsCodecs` for the rest, which `RoutedDecoder` sends to a `lightbox-decode`.
public protocol ImageCodecs: Sendable {
    /// An encoded image held in memory, by libvips (shrink-on-load, orientation, sRGB).
    func decode(data: [UInt8], fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult
    /// An animation's frames (GIF, WebP) one above the other, with their delays.
    func decodeFrames(data: [UInt8], fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult
    /// The part `region` of an encoded image (upright) at full resolution, fitted to `box`.
    func decodeRegion(data: [UInt8], region: PhotoRegion, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult
    /// A camera RAW's sensor data developed at half size.
    func develop(_ file: ImageFile, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult
    /// A video's frame, read with the demuxer its kind names.
    func decodeVideo(_ file: ImageFile, demuxer: String, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult
    /// A video's frames to play from `start` milliseconds on (see `ThumbnailDecoding.decodeClip`).
    func decodeVideoClip(_ file: ImageFile, demuxer: String, from start: Int, fitting box: PixelSize, limits: DecodeLimits) -> DecodeResult
    /// What a photo's kept decision, sidecar or embedded XMP says was decided of it (see
    /// `DecisionRead`); with `found`, those files are as a look just now found them.
    func readDecision(photo: ImagePath, keptIn keptRoot: ImagePath?, found: DecisionStamp.Found?) -> DecisionRead
    /// Keeps a decision's fields in a photo's sidecar, else where the policy says.
    func writeDecision(_ decision: Decision, fields: DecisionFields, photo: ImagePath, policy: SidecarPolicy) -> SidecarWrite
}

/// The bounds every decode keeps to, whichever library does it.
public struct DecodeLimits: Hashable, Sendable {
    /// Images with more pixels than this are refused before decoding.
    public var pixelLimit: Int
    /// Files larger than this are refused before reading.
    public var byteLimit: Int
    /// What one decode may hold in memory: pictures whose decoder would need more are refused
    /// before it runs (`ImageFormat.Traits.decodeBytesPerPixel`).
    public var memoryLimit: Int

    public init(pixelLimit: Int = 100_000_000, byteLimit: Int = 512 << 20, memoryLimit: Int = Self.decoderMemory - Self.decoderBaseline) {
        self.pixelLimit = pixelLimit
        self.byteLimit = byteLimit
        self.memoryLimit = memoryLimit
    }

    /// The memory a decoder process may have at most (its data, `RLIMIT_DATA`), and what it
    /// holds before any picture (the libraries, the runtime, the thread stacks).
    public static let decoderMemory = 512 << 20, decoderBaseline = 64 << 20
}

extension DecodeFailure {
    /// The file needs an image library this process does not have: not a failure of the file's,
    /// a request to send it to a decoder that has (never shown, never remembered).
    public static let needsCodecs = DecodeFailure(.needsCodecs, "needs the image libraries of lightbox-decode")
}
