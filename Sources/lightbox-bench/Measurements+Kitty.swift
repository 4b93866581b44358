import CZlib
import Foundation
import LightboxCodecs
import LightboxThumbnails

extension Measurements {
    /// What each way of sending a thumbnail to kitty costs: the RGB as it is, deflated (`o=z`) at
    /// levels 1 and 6, and as PNG (`f=100`) with the Up or Paeth filter, for the thumbnails of the
    /// photos in `folder` at a tile's size (24x9 cells of 10x20 pixels): bytes and encoding time.
    static func kittyEncodings(folder: String) throws -> String {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + "/" + $0 }
        let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
        var thumbnails: [Thumbnail] = []
        for path in files {
            let file = ImageFile(path: ImagePath(path), byteCount: 0, modified: 0, format: .jpeg)
            if case .decoded(let t) = pipeline.decode(file, fitting: PixelSize(width: 240, height: 180)) { thumbnails.append(t) }
        }
        func deflate(_ bytes: [UInt8], level: Int32) -> [UInt8] {
            var length = compressBound(uLong(bytes.count))
            var out = [UInt8](repeating: 0, count: Int(length))
            _ = compress2(&out, &length, bytes, uLong(bytes.count), level)
            return Array(out.prefix(Int(length)))
        }
        func filtered(_ t: Thumbnail, paeth: Bool) -> [UInt8] {
            let stride = t.width * 3
            var out: [UInt8] = []
            out.reserveCapacity((stride + 1) * t.height)
            for y in 0..<t.height {
                out.append(paeth ? 4 : 2)
                for x in 0..<stride {
                    let value = Int(t.pixels[y * stride + x])
                    let up = y > 0 ? Int(t.pixels[(y - 1) * stride + x]) : 0
                    var predictor = up
                    if paeth {
                        let left = x >= 3 ? Int(t.pixels[y * stride + x - 3]) : 0
                        let upLeft = (x >= 3 && y > 0) ? Int(t.pixels[(y - 1) * stride + x - 3]) : 0
                        let p = left + up - upLeft
                        let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
                        predictor = pa <= pb && pa <= pc ? left : (pb <= pc ? up : upLeft)
                    }
                    out.append(UInt8(truncatingIfNeeded: value - predictor))
                }
            }
            return out
        }
        var lines: [String] = []
        let raw = thumbnails.reduce(0) { $0 + $1.pixels.count }
        lines.append("\(thumbnails.count) thumbnails of \(thumbnails.first.map { "\($0.width)x\($0.height)" } ?? "-"): RGB \(raw / 1024) KB")
        for (name, encode) in [
            ("o=z level 1", { (t: Thumbnail) in deflate(t.pixels, level: 1) }),
            ("o=z level 6", { (t: Thumbnail) in deflate(t.pixels, level: 6) }),
            ("PNG, Up filter, level 1", { (t: Thumbnail) in deflate(filtered(t, paeth: false), level: 1) }),
            ("PNG, Paeth filter, level 1", { (t: Thumbnail) in deflate(filtered(t, paeth: true), level: 1) }),
            ("PNG, Paeth filter, level 6", { (t: Thumbnail) in deflate(filtered(t, paeth: true), level: 6) }),
        ] {
            let start = now()
            let bytes = thumbnails.reduce(0) { $0 + encode($1).count }
            let milliseconds = Double(now() - start) / 1e6 / Double(max(1, thumbnails.count))
            lines.append(String(format: "%@: %d KB (%.0f%% of RGB), %.2f ms a thumbnail", name, bytes / 1024, 100 * Double(bytes) / Double(raw), milliseconds))
        }
        return "kitty encodings: " + lines.joined(separator: "; ")
    }
}
