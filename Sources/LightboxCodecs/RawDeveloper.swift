import CLibRaw
import LightboxThumbnails

/// Develops a camera RAW's sensor data with LibRaw at half size (in the decoder processes): the
/// slow path, for RAWs that hold no usable preview. LibRaw turns the picture by the RAW's orientation.
public struct RawDeveloper: Sendable {
    public var limits: DecodeLimits

    public init(limits: DecodeLimits = DecodeLimits()) {
        self.limits = limits
    }

    /// The developed picture of `file`, fitted to `box`.
    public func develop(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        let data: [UInt8]
        switch FileReader.read(file.path, limit: limits.byteLimit) {
        case .success(let bytes): data = bytes
        case .failure(let error): return .failed(.unreadable(error.message))
        }
        var raw = lb_raw()
        let status = data.withUnsafeBytes {
            lb_raw_develop($0.baseAddress, $0.count, Double(limits.pixelLimit), Double(limits.memoryLimit), &raw)
        }
        switch Int(status) {
        case LB_RAW_OK:
            let pixels = Array(UnsafeBufferPointer(start: raw.pixels, count: Int(raw.width) * Int(raw.height) * 3))
            lb_raw_free(&raw)
            return .decoded(Thumbnail(width: Int(raw.width), height: Int(raw.height), pixels: pixels).downscaled(toFit: box))
        case LB_RAW_TOO_LARGE:
            return .failed(.tooLarge(Int(raw.raw_width), Int(raw.raw_height), limit: limits.pixelLimit))
        case LB_RAW_TOO_MUCH_MEMORY:
            let pixels = ImageHeader.pixelCount(Int(raw.raw_width), Int(raw.raw_height))
            let needed = (data.count + pixels * Int(LB_RAW_BYTES_PER_PIXEL)) >> 20
            return .failed(.needsMemory(Int(raw.raw_width), Int(raw.raw_height), megabytes: needed, to: "develop", limit: limits.memoryLimit))
        default:
            let message = String(cArray: raw.message)
            return .failed(.badFile(message.isEmpty ? "cannot develop the RAW" : message))
        }
    }
}
