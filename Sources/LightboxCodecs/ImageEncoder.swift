import CVips
import LightboxThumbnails

/// Writes RGB pixels as image files: for the sample library and the tests' generated images.
public enum ImageEncoder {
    public enum Format: Sendable { case jpeg(quality: Int, orientation: Int), png }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `pixels` (RGB, `width` x `height`) to `path`.
    public static func write(_ pixels: [UInt8], width: Int, height: Int, to path: String, as format: Format) throws {
        precondition(pixels.count == width * height * 3)
        VipsDecoder.start()
        let status: Int32 = pixels.withUnsafeBufferPointer { buffer in
            switch format {
            case .png:
                return lb_vips_save(buffer.baseAddress, Int32(width), Int32(height), path, 1, 0, 0)
            case .jpeg(let quality, let orientation):
                return lb_vips_save(buffer.baseAddress, Int32(width), Int32(height), path, 0, Int32(quality), Int32(orientation))
            }
        }
        if status != 0 { throw Failure(description: "cannot write \(path)") }
    }
}
