import CTurboJPEG

/// JPEG decoding with libjpeg-turbo, scaled in the DCT: 1/8, 1/4 or 1/2 of the size costs a
/// fraction of a full decode.
public enum TurboJPEGDecoder {
    /// Image size (as stored, before orientation), or nil when it is not a JPEG libjpeg-turbo
    /// handles (CMYK and YCCK are left to libvips).
    public static func size(of data: [UInt8]) -> (width: Int, height: Int)? {
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { lb_tj_header($0.baseAddress, UInt($0.count), &width, &height, &message, 256) }
        return status == LB_TJ_OK ? (Int(width), Int(height)) : nil
    }

    /// The smallest DCT scale, in eighths (1, 2, 4 or 8), at which `width` x `height` covers
    /// `needed` (as stored); full size when none does.
    public static func eighths(width: Int, height: Int, covering needed: PixelSize) -> Int {
        for eighths in [1, 2, 4] where (width * eighths + 7) / 8 >= needed.width && (height * eighths + 7) / 8 >= needed.height {
            return eighths
        }
        return 8
    }

    /// The size of `width` x `height` at the smallest DCT scale that still covers `needed`.
    public static func scaledSize(width: Int, height: Int, covering needed: PixelSize) -> (width: Int, height: Int) {
        let eighths = eighths(width: width, height: height, covering: needed)
        return ((width * eighths + 7) / 8, (height * eighths + 7) / 8)
    }

    /// Decodes `data` at the smallest DCT scale covering `needed` (in stored orientation), if
    /// its header's `width` x `height` is within `pixelLimit` (every picture is bounded, embedded
    /// ones too: the buffer is sized from what the header claims).
    public static func decode(_ data: [UInt8], width: Int, height: Int, covering needed: PixelSize, pixelLimit: Int) -> DecodeResult {
        guard width > 0, height > 0, ImageHeader.pixelCount(width, height) <= pixelLimit else {
            return .failed(.refused("too large: \(width)x\(height) (limit \(pixelLimit / 1_000_000) MP)"))
        }
        let scaled = scaledSize(width: width, height: height, covering: needed)
        var pixels = [UInt8](repeating: 0, count: scaled.width * scaled.height * 3)
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                lb_tj_decode(input.baseAddress, UInt(input.count), output.baseAddress, Int32(scaled.width), Int32(scaled.height), &message, 256)
            }
        }
        guard status == LB_TJ_OK else {
            let text = Self.text(message)
            return .failed(.badFile("cannot decode: " + (text.isEmpty ? "bad JPEG data" : text)))
        }
        return .decoded(Thumbnail(width: scaled.width, height: scaled.height, pixels: pixels))
    }

    /// The part of `data` (a `width` x `height` JPEG, as stored) at `rect`, at the smallest DCT
    /// scale at which it covers `needed`: only the part's blocks are transformed (the rows above
    /// it are skipped, the columns beside it left), as `djpeg -crop` does.
    public static func decode(
        _ data: [UInt8], width: Int, height: Int, part rect: (x: Int, y: Int, width: Int, height: Int), covering needed: PixelSize,
        pixelLimit: Int
    ) -> DecodeResult {
        guard width > 0, height > 0, ImageHeader.pixelCount(width, height) <= pixelLimit else {
            return .failed(.refused("too large: \(width)x\(height) (limit \(pixelLimit / 1_000_000) MP)"))
        }
        guard rect.x >= 0, rect.y >= 0, rect.width > 0, rect.height > 0, rect.x + rect.width <= width, rect.y + rect.height <= height else {
            return .failed(.refused("the part is not inside the picture"))
        }
        let eighths = eighths(width: rect.width, height: rect.height, covering: needed)
        // The part in the scaled picture's pixels (libjpeg rounds a scaled size up).
        let scaledWidth = (width * eighths + 7) / 8, scaledHeight = (height * eighths + 7) / 8
        let x = min(scaledWidth - 1, rect.x * eighths / 8), y = min(scaledHeight - 1, rect.y * eighths / 8)
        let w = max(1, min(scaledWidth - x, (rect.width * eighths + 7) / 8)), h = max(1, min(scaledHeight - y, (rect.height * eighths + 7) / 8))
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                lb_jpeg_decode_part(
                    input.baseAddress, UInt(input.count), Int32(eighths), Int32(x), Int32(y), Int32(w), Int32(h), output.baseAddress, &message, 256)
            }
        }
        guard status == LB_TJ_OK else {
            let text = Self.text(message)
            return .failed(.badFile("cannot decode the part: " + (text.isEmpty ? "bad JPEG data" : text)))
        }
        return .decoded(Thumbnail(width: w, height: h, pixels: pixels))
    }

    /// The NUL-ended message libjpeg wrote into `message`.
    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
