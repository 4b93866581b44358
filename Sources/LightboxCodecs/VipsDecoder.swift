import CVips
import LightboxThumbnails

/// Decodes with libvips' thumbnail operation (shrink-on-load, EXIF orientation, sRGB).
///
/// Files are read into memory by our own code first: only regular files are read, nothing is
/// mapped (a file truncated under us cannot raise SIGBUS), and names never reach libvips' option parser.
public struct VipsDecoder: ThumbnailDecoding {
    public var limits: DecodeLimits
    var pixelLimit: Int { limits.pixelLimit }
    var byteLimit: Int { limits.byteLimit }

    public init(limits: DecodeLimits = DecodeLimits()) {
        self.limits = limits
    }

    /// Starts libvips once per process, from any thread; later callers wait for the first.
    /// Starting takes tens of milliseconds, so it happens only when a file first needs libvips.
    public static func start() { _ = started }
    private static let started: Bool = lb_vips_start() == 0

    /// Formats this libvips build can load: those that need no optional loader, and those whose loader it has.
    public static var supportedFormats: Set<ImageFormat> {
        start()
        return Set(ImageFormat.table.filter { row in row.traits.vipsLoader.map { vips_type_find("VipsOperation", $0) != 0 } ?? true }.map(\.format))
    }

    public func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        switch FileReader.read(file.path, limit: byteLimit) {
        case .success(let data): return decode(data: data, fitting: box)
        case .failure(let error): return .failed(.unreadable(error.message))
        }
    }

    /// Decodes an encoded image held in memory.
    public func decode(data: [UInt8], fitting box: PixelSize) -> DecodeResult {
        Self.start()
        var result = lb_thumbnail()
        let status = data.withUnsafeBytes { raw in
            lb_vips_thumbnail(
                raw.baseAddress, raw.count, Int32(max(1, box.width)), Int32(max(1, box.height)),
                Double(pixelLimit), &result)
        }
        switch Int(status) {
        case LB_OK:
            return .decoded(Self.taken(&result))
        case LB_TOO_LARGE:
            return .failed(.tooLarge(Int(result.source_width), Int(result.source_height), limit: pixelLimit))
        default:
            return .failed(.badFile(Self.cleaned(String(cArray: result.message))))
        }
    }

    /// The part `region` of an encoded image (upright, by its orientation) at full resolution,
    /// fitted to `box`.
    public func decodeRegion(data: [UInt8], region: PhotoRegion, fitting box: PixelSize) -> DecodeResult {
        Self.start()
        var result = lb_thumbnail()
        let status = data.withUnsafeBytes { raw in
            lb_vips_region(
                raw.baseAddress, raw.count, Int32(region.x), Int32(region.y), Int32(region.width), Int32(region.height),
                Int32(max(1, box.width)), Int32(max(1, box.height)), Double(pixelLimit), &result)
        }
        switch Int(status) {
        case LB_OK: return .decoded(Self.taken(&result))
        case LB_TOO_LARGE: return .failed(.tooLarge(Int(result.source_width), Int(result.source_height), limit: pixelLimit))
        default: return .failed(.badFile(Self.cleaned(String(cArray: result.message))))
        }
    }

    /// An animation's frames (GIF, WebP) fitted to `box`, one above the other, with their delays:
    /// as many of the first frames as `Thumbnail.animationBudget` holds at that size.
    public func decodeFrames(data: [UInt8], fitting box: PixelSize) -> DecodeResult {
        Self.start()
        var result = lb_thumbnail()
        let maxFrames = max(1, Thumbnail.animationBudget / max(1, box.width * box.height * 3))
        var delays = [Int32](repeating: 0, count: min(maxFrames, 10_000))
        var frames: Int32 = 0
        let status = data.withUnsafeBytes { raw in
            delays.withUnsafeMutableBufferPointer { delayBuffer in
                lb_vips_animation(
                    raw.baseAddress, raw.count, Int32(max(1, box.width)), Int32(max(1, box.height)), Double(pixelLimit),
                    Int32(delayBuffer.count), &result, delayBuffer.baseAddress, Int32(delayBuffer.count), &frames)
            }
        }
        switch Int(status) {
        case LB_OK:
            var thumbnail = Self.taken(&result)
            let count = Int(frames)
            if count > 1, thumbnail.height % count == 0 {
                // Browsers play delays of 10 ms or less at 100 ms: so do we.
                thumbnail.delays = delays.prefix(count).map { $0 > 10 ? Int($0) : 100 }
            }
            return .decoded(thumbnail)
        case LB_TOO_LARGE:
            return .failed(.tooLarge(Int(result.source_width), Int(result.source_height), limit: pixelLimit))
        default:
            return .failed(.badFile(Self.cleaned(String(cArray: result.message))))
        }
    }

    /// The pixels (and alpha) libvips gave, copied out and freed.
    static func taken(_ result: inout lb_thumbnail) -> Thumbnail {
        defer {
            lb_vips_free(result.pixels)
            lb_vips_free(result.alpha)
            (result.pixels, result.alpha) = (nil, nil)
        }
        let (width, height) = (Int(result.width), Int(result.height))
        var thumbnail = Thumbnail(width: width, height: height, pixels: Array(UnsafeBufferPointer(start: result.pixels, count: width * height * 3)))
        if let alpha = result.alpha {
            let plane = Array(UnsafeBufferPointer(start: alpha, count: width * height))
            if plane.contains(where: { $0 < 255 }) { thumbnail.alpha = plane }
        }
        return thumbnail
    }

    /// A libvips message without its operation prefix, or a generic one.
    static func cleaned(_ message: String) -> String {
        var text = message
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains(" ") {
            text = String(text[text.index(after: colon)...].drop { $0 == " " })
        }
        return text.isEmpty ? "cannot decode image" : "cannot decode: " + text
    }
}
