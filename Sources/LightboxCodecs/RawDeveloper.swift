import CLibRaw
import LightboxThumbnails

/// Develops a camera RAW's sensor data with LibRaw at half size (in the decoder processes): the
/// slow path, for RAWs that hold no usable preview. LibRaw turns the picture by the RAW's orientation.
public struct RawDeveloper: Sendable {
    public var pixelLimit: Int
    public var byteLimit: Int

    public init(pixelLimit: Int = 100_000_000, byteLimit: Int = 512 << 20) {
        self.pixelLimit = pixelLimit
        self.byteLimit = byteLimit
    }

    /// The developed picture of `file`, fitted to `box`.
    public func develop(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        let data: [UInt8]
        switch FileReader.read(file.path, limit: byteLimit) {
        case .success(let bytes): data = bytes
        case .failure(let error): return .failed(.unreadable(error.message))
        }
        var raw = lb_raw()
        let status = data.withUnsafeBytes { lb_raw_develop($0.baseAddress, $0.count, Double(pixelLimit), &raw) }
        switch Int(status) {
        case LB_RAW_OK:
            defer { lb_raw_free(raw.pixels) }
            let pixels = Array(UnsafeBufferPointer(start: raw.pixels, count: Int(raw.width) * Int(raw.height) * 3))
            return .decoded(Thumbnail(width: Int(raw.width), height: Int(raw.height), pixels: pixels).downscaled(toFit: box))
        case LB_RAW_TOO_LARGE:
            return .failed(.tooLarge(Int(raw.raw_width), Int(raw.raw_height), limit: pixelLimit))
        default:
            let message = String(cArray: raw.message)
            return .failed(.badFile(message.isEmpty ? "cannot develop the RAW" : message))
        }
    }
}
