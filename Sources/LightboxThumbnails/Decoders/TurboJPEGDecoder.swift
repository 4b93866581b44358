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
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failed(.badFile("cannot decode: " + (text.isEmpty ? "bad JPEG data" : text)))
        }
        return .decoded(Thumbnail(width: scaled.width, height: scaled.height, pixels: pixels))
    }
}
