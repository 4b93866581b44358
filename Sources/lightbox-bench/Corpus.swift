import Foundation
import LightboxCodecs
import LightboxTestSupport
import LightboxThumbnails

/// The benchmark corpus: photo-like 4000x3000 JPEGs (smooth scenes plus sensor-like noise, so
/// they compress like photos), some with EXIF thumbnails, and some PNGs. Made once, then reused.
enum Corpus {
    static let width = 4000, height = 3000

    /// Creates what is missing under `root`: photos24/, exif24/ and library/f00…f09 (2,000 files).
    static func make(at root: String) throws {
        let bases = (0..<6).map { base(seed: Double($0) * 1.7 + 0.3) }
        var jobs: [(path: String, base: Int, variant: Int, exif: Bool, png: Bool)] = []
        for i in 0..<24 {
            jobs.append(("\(root)/photos24/IMG_\(1000 + i).jpg", i % bases.count, i, false, false))
            jobs.append(("\(root)/exif24/IMG_\(2000 + i).jpg", (i + 3) % bases.count, 100 + i, true, false))
        }
        for i in 0..<2000 {
            let png = i % 50 == 49
            jobs.append(
                (
                    "\(root)/library/f\(String(format: "%02d", i / 200))/IMG_\(String(format: "%04d", i)).\(png ? "png" : "jpg")",
                    i % bases.count, 1000 + i, i % 10 == 0 && !png, png
                ))
        }
        try makeMillion(at: root)
        let missing = jobs.filter { !FileManager.default.fileExists(atPath: $0.path) }
        if missing.isEmpty { return }
        print("generating \(missing.count) corpus files in \(root) (once; a few minutes)")
        DispatchQueue.concurrentPerform(iterations: ProcessInfo.processInfo.activeProcessorCount) { worker in
            for (k, job) in missing.enumerated() where k % ProcessInfo.processInfo.activeProcessorCount == worker {
                do {
                    try write(job, base: bases[job.base])
                } catch {
                    print("cannot write \(job.path): \(error)")
                }
                if k % 100 == 99 { print("  \(k + 1)/\(missing.count)") }
            }
        }
    }

    /// million/: one folder of 1,000,000 small JPEGs (640x480), as hard links to 20 files in
    /// million-sources/, so it costs directory entries rather than disk.
    static func makeMillion(at root: String) throws {
        let folder = "\(root)/million", sources = "\(root)/million-sources"
        let count = 1_000_000, perSource = 50_000  // ext4 allows 65,000 links to a file
        if FileManager.default.fileExists(atPath: "\(folder)/IMG_\(String(format: "%07d", count - 1)).jpg") { return }
        print("linking \(count) files in \(folder) (once; about a minute)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        let base = base(seed: 0.9)
        for k in 0..<(count / perSource) {
            let path = "\(sources)/source-\(k).jpg"
            if FileManager.default.fileExists(atPath: path) { continue }
            let small = variant(of: base, variant: 5000 + k).downscaled(toFit: PixelSize(width: 640, height: 480))
            try ImageEncoder.write(small.pixels, width: small.width, height: small.height, to: path, as: .jpeg(quality: 85, orientation: 1))
        }
        for i in 0..<count {
            let name = "\(folder)/IMG_\(String(format: "%07d", i)).jpg"
            if link("\(sources)/source-\(i / perSource).jpg", name) != 0 && errno != EEXIST {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: name])
            }
        }
    }

    static func write(_ job: (path: String, base: Int, variant: Int, exif: Bool, png: Bool), base: [UInt8]) throws {
        try FileManager.default.createDirectory(atPath: (job.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let temporary = job.path + ".part"
        if job.png {
            // PNGs at a smaller size: a 12 MP noisy PNG would be 30 MB.
            let small = variant(of: base, variant: job.variant).downscaled(toFit: PixelSize(width: 1600, height: 1200))
            try ImageEncoder.write(small.pixels, width: small.width, height: small.height, to: temporary, as: .png)
        } else {
            let pixels = variant(of: base, variant: job.variant)
            if job.exif {
                let main = try TestImages.jpegBytes(pixels.pixels, width: width, height: height, quality: 90)
                let thumb = pixels.downscaled(toFit: PixelSize(width: 160, height: 120))
                let small = try TestImages.jpegBytes(thumb.pixels, width: thumb.width, height: thumb.height, quality: 85)
                try TestImages.bytes(TestImages.withExif(main: main, thumbnail: small), at: temporary)
            } else {
                try ImageEncoder.write(pixels.pixels, width: width, height: height, to: temporary, as: .jpeg(quality: 90, orientation: 1))
            }
        }
        try FileManager.default.moveItem(atPath: temporary, toPath: job.path)
    }

    /// A smooth scene: sky, sun, hills and water, from a seed.
    static func base(seed: Double) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let v = Double(y) / Double(height)
            for x in 0..<width {
                let u = Double(x) / Double(width)
                var r = 0.2 + 0.5 * v + 0.1 * sin(seed), g = 0.35 + 0.3 * v, b = 0.8 - 0.3 * v
                let ridge = 0.55 + 0.08 * sin(u * 7 + seed) + 0.04 * sin(u * 31 + seed * 2)
                if v > ridge { r = 0.15 + 0.1 * sin(u * 40 + seed); g = 0.4 + 0.15 * sin(u * 90 + v * 30); b = 0.2 }
                let d = (u - 0.3 - 0.3 * sin(seed)) * (u - 0.3 - 0.3 * sin(seed)) + (v - 0.25) * (v - 0.25)
                if d < 0.004 { r = 1; g = 0.9; b = 0.6 }
                let i = (y * width + x) * 3
                pixels[i] = UInt8(max(0, min(255, r * 255)))
                pixels[i + 1] = UInt8(max(0, min(255, g * 255)))
                pixels[i + 2] = UInt8(max(0, min(255, b * 255)))
            }
        }
        return pixels
    }

    /// The base shifted sideways, tinted and given fresh noise, so every file differs.
    static func variant(of base: [UInt8], variant: Int) -> Thumbnail {
        var out = [UInt8](repeating: 0, count: base.count)
        let shift = (variant * 397) % width
        let tint = [Int(variant * 13 % 40) - 20, Int(variant * 7 % 30) - 15, Int(variant * 5 % 24) - 12]
        var state = UInt64(variant + 1) &* 0x9E3779B97F4A7C15
        base.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    for x in 0..<width {
                        let s = (y * width + (x + shift) % width) * 3, t = (y * width + x) * 3
                        state ^= state << 13; state ^= state >> 7; state ^= state << 17
                        let noise = Int(state & 15) - 8
                        for c in 0..<3 { target[t + c] = UInt8(max(0, min(255, Int(source[s + c]) + tint[c] + noise))) }
                    }
                }
            }
        }
        return Thumbnail(width: width, height: height, pixels: out)
    }
}
