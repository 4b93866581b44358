import Foundation
import LightboxCodecs
import LightboxTestSupport
import LightboxThumbnails

// Generates the sample library in assets/: procedural pictures, no downloads.
// Usage: lightbox-samples OUTPUT-FOLDER

struct Picture {
    let width: Int, height: Int
    var pixels: [UInt8]
    init(width: Int, height: Int) {
        self.width = width; self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
    }
    mutating func paint(_ color: (Int, Int) -> (Double, Double, Double)) {
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = color(x, y)
                let i = (y * width + x) * 3
                pixels[i] = UInt8(max(0, min(255, r * 255)))
                pixels[i + 1] = UInt8(max(0, min(255, g * 255)))
                pixels[i + 2] = UInt8(max(0, min(255, b * 255)))
            }
        }
    }
}

func mix(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ t: Double) -> (Double, Double, Double) {
    let t = max(0, min(1, t))
    return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
}

/// A landscape: sky gradient, sun, layered hills, water.
func landscape(_ w: Int, _ h: Int, seed: Double) -> Picture {
    var p = Picture(width: w, height: h)
    let skyTop = (0.15 + 0.3 * sin(seed), 0.3 + 0.2 * cos(seed * 1.3), 0.6 + 0.3 * sin(seed * 0.7))
    let skyLow = (0.95, 0.7 + 0.2 * sin(seed * 2), 0.5)
    let sun = (0.2 + 0.6 * (0.5 + 0.5 * sin(seed * 3.1)), 0.25 + 0.1 * cos(seed))
    p.paint { x, y in
        let u = Double(x) / Double(w), v = Double(y) / Double(h)
        var c = mix(skyTop, skyLow, v / 0.6)
        let d = hypot((u - sun.0) * Double(w) / Double(h), v - sun.1)
        if d < 0.08 { c = (1, 0.95, 0.7) } else if d < 0.2 { c = mix((1, 0.9, 0.6), c, (d - 0.08) / 0.12) }
        for layer in 0..<3 {
            let l = Double(layer)
            let ridge = 0.45 + 0.1 * l + 0.06 * sin(u * (5 + l * 3) + seed * (l + 1)) + 0.03 * sin(u * 23 + seed)
            if v > ridge {
                let shade = 0.25 + 0.2 * l
                c = (0.1 + 0.1 * sin(seed + l), shade + 0.1 * cos(seed * l), 0.2 + 0.1 * l)
            }
        }
        if v > 0.82 { c = mix((0.1, 0.3, 0.5), (0.05, 0.15, 0.3), (v - 0.82) / 0.18 + 0.05 * sin(u * 80 + v * 40)) }
        return c
    }
    return p
}

/// A city at night: gradient sky and blocks with lit windows.
func city(_ w: Int, _ h: Int, seed: Double) -> Picture {
    var p = Picture(width: w, height: h)
    p.paint { x, y in
        let u = Double(x) / Double(w), v = Double(y) / Double(h)
        var c = mix((0.05, 0.05, 0.2), (0.6, 0.3, 0.4), v)
        let block = Int(u * 12 + seed)
        let top = 0.3 + 0.4 * abs(sin(Double(block) * 1.7 + seed))
        if v > top {
            c = (0.12, 0.12, 0.16)
            let wx = Int(u * 120) % 4, wy = Int(v * 90) % 4
            let lit = sin(Double(Int(u * 120) / 4 * 31 + Int(v * 90) / 4 * 17) + seed) > 0.2
            if wx < 2 && wy < 2 && lit { c = (1, 0.85, 0.4) }
        }
        return c
    }
    return p
}

/// Abstract plasma colours.
func plasma(_ w: Int, _ h: Int, seed: Double) -> Picture {
    var p = Picture(width: w, height: h)
    p.paint { x, y in
        let u = Double(x) / Double(w) * 6, v = Double(y) / Double(h) * 6
        let t = sin(u + seed) + sin(v * 1.3 - seed) + sin((u + v) * 0.7 + seed * 2) + sin(hypot(u - 3, v - 3) * 2)
        return (0.5 + 0.5 * sin(t * 1.2), 0.5 + 0.5 * sin(t * 1.2 + 2.1), 0.5 + 0.5 * sin(t * 1.2 + 4.2))
    }
    return p
}

/// A portrait-like composition: a face-ish disc on a backdrop.
func portrait(_ w: Int, _ h: Int, seed: Double) -> Picture {
    var p = Picture(width: w, height: h)
    let backdrop = (0.3 + 0.3 * sin(seed), 0.4 + 0.3 * cos(seed * 2), 0.5 + 0.3 * sin(seed * 3))
    p.paint { x, y in
        let u = Double(x) / Double(w), v = Double(y) / Double(h)
        var c = mix(backdrop, (0.1, 0.1, 0.1), v)
        let head = hypot((u - 0.5) * 1.4, v - 0.38)
        let body = hypot((u - 0.5) * 0.8, v - 1.05)
        if body < 0.42 { c = (0.2 + 0.3 * sin(seed * 5), 0.2, 0.35) }
        if head < 0.2 { c = mix((0.95, 0.78, 0.65), (0.7, 0.5, 0.4), head / 0.2) }
        return c
    }
    return p
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write("usage: lightbox-samples OUTPUT-FOLDER\n".data(using: .utf8)!)
    exit(2)
}
let root = URL(fileURLWithPath: arguments[1])
let plan: [(folder: String, count: Int, make: (Int, Int, Double) -> Picture)] = [
    ("landscapes", 12, landscape), ("city", 10, city), ("abstract", 9, plasma), ("people", 9, portrait),
]
for (f, entry) in plan.enumerated() {
    let folder = root.appendingPathComponent(entry.folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for i in 1...entry.count {
        // Mostly landscape, some portrait and square; every fourth a PNG.
        let shape = (i + f) % 5
        let (w, h) = shape == 0 ? (600, 800) : shape == 3 ? (700, 700) : (800, 600)
        let seed = Double(f * 100 + i) * 0.77
        let picture = entry.make(w, h, seed)
        let isPNG = i % 4 == 0
        let name = "IMG_\(i)." + (isPNG ? "png" : "jpg")
        let path = folder.appendingPathComponent(name).path
        try ImageEncoder.write(picture.pixels, width: w, height: h, to: path, as: isPNG ? .png : .jpeg(quality: 82, orientation: 1))
        if !isPNG {
            // Camera details, and dates over a year and a half, so --sections month and the info panel have something to show.
            var metadata = TestMetadata()
            metadata.make = "Lightbox"
            metadata.model = ["Sample One", "Sample Two"][i % 2]
            metadata.lens = ["24-70mm f/2.8", "50mm f/1.8", "100mm f/2.8 Macro"][(i + f) % 3]
            let month = 1 + (f * 5 + i) % 12, day = 1 + (i * 7) % 28
            metadata.dateTaken = String(format: "%04d:%02d:%02d %02d:%02d:00", 2023 + (f + i) % 2, month, day, 8 + i % 12, (i * 13) % 60)
            metadata.exposure = (1, [60, 125, 250, 500, 1000][i % 5])
            metadata.fNumber = ([18, 28, 40, 56, 80][(i + f) % 5], 10)
            metadata.iso = [100, 200, 400, 800, 1600][(i * 3 + f) % 5]
            metadata.focalLength = ([24, 35, 50, 85, 100][(i + 2 * f) % 5], 1)
            metadata.hasGPS = i % 3 == 0
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try Data(TestImages.withMetadata(main: [UInt8](bytes), metadata)).write(to: URL(fileURLWithPath: path))
        }
    }
}
print("wrote \(plan.reduce(0) { $0 + $1.count }) images to \(root.path)")
