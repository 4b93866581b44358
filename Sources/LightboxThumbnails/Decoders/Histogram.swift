import Foundation

/// How a picture's pixels are spread over the 256 levels: luma (Rec. 709) and each of red,
/// green and blue. What is clipped is read from it with any thresholds, without the pixels.
public struct Histogram: Hashable, Sendable {
    /// Pixels at each level, 256 a channel.
    public var luma: [Int]
    public var red: [Int]
    public var green: [Int]
    public var blue: [Int]
    /// Pixels counted.
    public var total: Int

    /// The histogram of `thumbnail`'s pixels (every frame of an animation).
    /// - Complexity: O(*w* × *h*).
    public init(of thumbnail: Thumbnail) {
        var luma = [Int](repeating: 0, count: 256), red = luma, green = luma, blue = luma
        thumbnail.pixels.withUnsafeBufferPointer { p in
            var i = 0
            while i + 2 < p.count {
                let r = Int(p[i]), g = Int(p[i + 1]), b = Int(p[i + 2])
                red[r] += 1
                green[g] += 1
                blue[b] += 1
                luma[(r * 2126 + g * 7152 + b * 722 + 5000) / 10000] += 1
                i += 3
            }
        }
        self.init(luma: luma, red: red, green: green, blue: blue)
    }

    public init(luma: [Int], red: [Int], green: [Int], blue: [Int]) {
        self.luma = luma
        self.red = red
        self.green = green
        self.blue = blue
        total = luma.reduce(0, +)
    }

    /// The share of pixels (0 to 1) whose `channel` is at `level` or above.
    public func share(_ channel: [Int], atLeast level: Int) -> Double {
        guard total > 0 else { return 0 }
        return Double(channel[max(0, min(255, level))...].reduce(0, +)) / Double(total)
    }

    /// The share of pixels whose `channel` is at `level` or below.
    public func share(_ channel: [Int], atMost level: Int) -> Double {
        guard total > 0 else { return 0 }
        return Double(channel[...max(0, min(255, level))].reduce(0, +)) / Double(total)
    }

    /// `channel` in `bins` equal groups of levels, each its pixels' sum.
    public func binned(_ channel: [Int], into bins: Int) -> [Int] {
        let bins = max(1, min(256, bins))
        return (0..<bins).map { bin in channel[(bin * 256 / bins)..<((bin + 1) * 256 / bins)].reduce(0, +) }
    }
}

/// What the clipping overlay marks: levels at or above `highlights` in any channel are blown,
/// at or below `shadows` in every channel blocked.
public struct ClippingThresholds: Hashable, Sendable {
    public var shadows: Int
    public var highlights: Int

    public init(shadows: Int = 5, highlights: Int = 250) {
        self.shadows = shadows
        self.highlights = highlights
    }

    /// Parses `SHADOWS,HIGHLIGHTS` (levels of 0 to 255, shadows below highlights).
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let low = parts[0], let high = parts[1], (0...255).contains(low), (0...255).contains(high), low < high else {
            return nil
        }
        self.init(shadows: low, highlights: high)
    }

    /// The colour blown highlights are marked in, and blocked shadows (as Lightroom marks them).
    public static let highlightMark: (UInt8, UInt8, UInt8) = (255, 0, 0)
    public static let shadowMark: (UInt8, UInt8, UInt8) = (0, 80, 255)

    /// A pixel's colour, or its mark when it is clipped.
    @inline(__always)
    public func mark(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (UInt8, UInt8, UInt8) {
        if Int(r) >= highlights || Int(g) >= highlights || Int(b) >= highlights { return Self.highlightMark }
        if Int(r) <= shadows && Int(g) <= shadows && Int(b) <= shadows { return Self.shadowMark }
        return (r, g, b)
    }

    /// `pixels` (RGB) with what is clipped marked.
    /// - Complexity: O(*n*).
    public func marking(_ pixels: [UInt8]) -> [UInt8] {
        var out = pixels
        var i = 0
        while i + 2 < out.count {
            (out[i], out[i + 1], out[i + 2]) = mark(out[i], out[i + 1], out[i + 2])
            i += 3
        }
        return out
    }
}
