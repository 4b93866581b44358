/// Sixel: pictures as DEC device control strings, for terminals without kitty graphics.
public enum Sixel {
    /// `pixels` (RGB, `width` wide, whole rows) as one sixel string in at most `registers` colours
    /// chosen for this picture (median cut).
    /// Pixels not drawn (below the last row in the last band) stay as they were.
    /// - Complexity: O(*p* + *b* × *k*) for *p* pixels, *b* distinct colours and *k* registers,
    ///   plus O(*w* × *k*) a band to write.
    public static func encode(pixels: [UInt8], width: Int, registers: Int) -> [UInt8] {
        guard width > 0 else { return [] }
        let height = pixels.count / (width * 3)
        guard height > 0 else { return [] }
        var palette = Palette(pixels: pixels[0..<(height * width * 3)], size: max(2, min(256, registers)))
        var out: [UInt8] = Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
        for (index, color) in palette.colors.enumerated() {
            // Registers take percentages.
            func percent(_ v: Int) -> Int { (v * 100 + 127) / 255 }
            out += Array("#\(index);2;\(percent(color.0));\(percent(color.1));\(percent(color.2))".utf8)
        }
        var bits = [[UInt8]](repeating: [], count: palette.colors.count)
        var used: [Int] = []
        for band in stride(from: 0, to: height, by: 6) {
            for row in band..<min(height, band + 6) {
                let base = row * width * 3
                for x in 0..<width {
                    let i = base + x * 3
                    let c = palette.index(pixels[i], pixels[i + 1], pixels[i + 2])
                    if bits[c].isEmpty { bits[c] = [UInt8](repeating: 0, count: width); used.append(c) }
                    bits[c][x] |= 1 << (row - band)
                }
            }
            for (n, c) in used.enumerated() {
                if n > 0 { out.append(0x24) }  // $: back to the band's start for the next colour
                out += Array("#\(c)".utf8)
                appendRuns(bits[c], to: &out)
                bits[c] = []
            }
            used.removeAll(keepingCapacity: true)
            out.append(0x2D)  // -: next band
        }
        return out + [0x1B, 0x5C]
    }

    /// One colour's row of sixels, runs of four or more compressed (`!count char`); the
    /// empty tail left out.
    static func appendRuns(_ row: [UInt8], to out: inout [UInt8]) {
        var end = row.count
        while end > 0 && row[end - 1] == 0 { end -= 1 }
        var x = 0
        while x < end {
            var run = 1
            while x + run < end && row[x + run] == row[x] { run += 1 }
            let char = 0x3F + row[x]
            if run >= 4 { out += Array("!\(run)".utf8); out.append(char) } else { out += [UInt8](repeating: char, count: run) }
            x += run
        }
    }

    /// At most `size` colours for a picture, by median cut over 5-bit-a-channel colours, and the
    /// nearest of them for any pixel.
    struct Palette {
        var colors: [(Int, Int, Int)] = []
        /// Palette index + 1 by 15-bit colour, 0 until asked.
        var nearest = [UInt16](repeating: 0, count: 1 << 15)

        init(pixels: ArraySlice<UInt8>, size: Int) {
            var counts = [Int](repeating: 0, count: 1 << 15)
            // Each bin's pixels summed, so a palette colour is their true mean.
            var sums = [Int](repeating: 0, count: 3 << 15)
            var i = pixels.startIndex
            while i < pixels.endIndex {
                let bin = Self.bin(pixels[i], pixels[i + 1], pixels[i + 2])
                counts[bin] += 1
                sums[bin * 3] += Int(pixels[i]); sums[bin * 3 + 1] += Int(pixels[i + 1]); sums[bin * 3 + 2] += Int(pixels[i + 2])
                i += 3
            }
            /// A box's widest channel and its range, worked out once.
            func widest(_ box: [Int]) -> (range: Int, channel: Int) {
                guard box.count > 1 else { return (0, 0) }
                var best = (range: 0, channel: 0)
                for channel in 0..<3 {
                    var low = 31, high = 0
                    for bin in box { let v = Self.channel(bin, channel); low = min(low, v); high = max(high, v) }
                    if high - low > best.range { best = (high - low, channel) }
                }
                return best
            }
            let all = counts.indices.filter { counts[$0] > 0 }
            var boxes = [all], spans = [widest(all)]
            // Split the box with the widest channel range at its median, until there are enough.
            while boxes.count < size {
                guard let best = spans.indices.max(by: { spans[$0].range < spans[$1].range }), spans[best].range > 0 else { break }
                let channel = spans[best].channel
                let sorted = boxes[best].sorted { Self.channel($0, channel) < Self.channel($1, channel) }
                let total = sorted.reduce(0) { $0 + counts[$1] }
                var seen = 0, split = 1
                for (n, bin) in sorted.enumerated() {
                    seen += counts[bin]
                    if seen * 2 >= total { split = max(1, min(sorted.count - 1, n + 1)); break }
                }
                boxes[best] = Array(sorted[..<split])
                boxes.append(Array(sorted[split...]))
                spans[best] = widest(boxes[best])
                spans.append(widest(boxes[boxes.count - 1]))
            }
            for box in boxes where !box.isEmpty {
                var sum = (0, 0, 0), weight = 0
                for bin in box {
                    sum.0 += sums[bin * 3]; sum.1 += sums[bin * 3 + 1]; sum.2 += sums[bin * 3 + 2]
                    weight += counts[bin]
                }
                colors.append(((sum.0 + weight / 2) / weight, (sum.1 + weight / 2) / weight, (sum.2 + weight / 2) / weight))
            }
            if colors.isEmpty { colors = [(0, 0, 0)] }
        }

        static func bin(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int { Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3) }
        static func channel(_ bin: Int, _ channel: Int) -> Int { bin >> (10 - 5 * channel) & 31 }

        /// The index of the palette colour nearest `r, g, b`.
        mutating func index(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
            let bin = Self.bin(r, g, b)
            if nearest[bin] != 0 { return Int(nearest[bin]) - 1 }
            var best = 0, bestDistance = Int.max
            for (n, c) in colors.enumerated() {
                let dr = c.0 - Int(r), dg = c.1 - Int(g), db = c.2 - Int(b)
                let d = 2 * dr * dr + 4 * dg * dg + 3 * db * db
                if d < bestDistance { (best, bestDistance) = (n, d) }
            }
            nearest[bin] = UInt16(best + 1)
            return best
        }
    }
}
