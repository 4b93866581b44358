import Foundation
import LightboxCodecs
import LightboxThumbnails

extension Measurements {
    /// A zoomed view's part of a large photo: an 8000x6000 JPEG (made in `folder` if missing)
    /// decoded whole at full resolution (from memory), against the part (read from the file, as
    /// a decoder does) a 100% view of a 160x48 screen of
    /// 10x20-pixel cells asks for (twice the view, 3200x1880, in the middle), and djpeg's own
    /// `-crop` of the same part (a process each, its output thrown away). Medians of `runs`.
    static func parts(folder: String, runs: Int = 9) throws -> String {
        let path = folder + "/large-8000x6000.jpg"
        let (width, height) = (8000, 6000)
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = (UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8((x ^ y) & 0xFF))
                }
            }
            try ImageEncoder.write(pixels, width: width, height: height, to: path, as: .jpeg(quality: 90, orientation: 1))
        }
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let pipeline = ThumbnailPipeline(codecs: nil, diskCache: nil)
        let file = ImageFile(path: ImagePath(path), byteCount: Int64(data.count), modified: 0, format: .jpeg)
        let (pw, ph) = (3200, 1880)
        let region = PhotoRegion(
            fromX: Double(width - pw) / 2 / Double(width), y: Double(height - ph) / 2 / Double(height), toX: Double(width + pw) / 2 / Double(width),
            y: Double(height + ph) / 2 / Double(height))
        func median(_ work: () -> Void) -> Double {
            var times: [Double] = []
            for _ in 0..<runs {
                let start = now()
                work()
                times.append(Double(now() - start) / 1e6)
            }
            return times.sorted()[runs / 2]
        }
        let whole = median {
            guard
                case .decoded = TurboJPEGDecoder.decode(
                    data, width: width, height: height, covering: PixelSize(width: width, height: height), pixelLimit: 1 << 27)
            else { fatalError("the whole photo did not decode") }
        }
        let part = median {
            guard case .decoded = pipeline.decodeRegion(file, region: region, fitting: PixelSize(width: pw, height: ph))
            else { fatalError("the part did not decode") }
        }
        let cut = median {
            guard
                case .decoded = TurboJPEGDecoder.decode(
                    data, width: width, height: height, part: ((width - pw) / 2, (height - ph) / 2, pw, ph), covering: PixelSize(width: pw, height: ph),
                    pixelLimit: 1 << 27)
            else { fatalError("the part did not decode") }
        }
        let djpeg = median {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/djpeg")
            process.arguments = ["-crop", "\(pw)x\(ph)+\((width - pw) / 2)+\((height - ph) / 2)", "-outfile", "/dev/null", path]
            try? process.run()
            process.waitUntilExit()
        }
        return String(
            format:
                "a 100%% view's part (%dx%d) of an 8000x6000 JPEG: decoded whole at full resolution %.0f ms, the part read and decoded by a decoder's pipeline %.0f ms (%.2fx of whole; the part's decode alone %.0f ms), djpeg -crop of it %.0f ms, a process (ours %.2fx of djpeg's)",
            pw, ph, whole, part, part / whole, cut, djpeg, part / djpeg)
    }
}
