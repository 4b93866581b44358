/// Reads back the sixel strings Lightbox writes, for tests: the picture as RGB, with pixels
/// never drawn left nil.
public enum SixelReader {
    public struct Picture {
        public var width: Int
        public var height: Int
        /// Row-major; nil where no sixel set the pixel.
        public var pixels: [(UInt8, UInt8, UInt8)?]
        public func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8)? { pixels[y * width + x] }
    }

    /// Every sixel string in `bytes`, with the cursor position (row, column, 1-based) set last before it.
    public static func pictures(in bytes: [UInt8]) -> [(row: Int, column: Int, picture: Picture)] {
        var found: [(Int, Int, Picture)] = []
        var row = 1, column = 1
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == 0x5B {  // CSI row;col H
                var j = i + 2
                while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "H") {
                    let numbers = String(decoding: bytes[(i + 2)..<j], as: UTF8.self).split(separator: ";").compactMap { Int($0) }
                    if numbers.count == 2 { (row, column) = (numbers[0], numbers[1]) }
                }
                i = j + 1
            } else if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == 0x50 {  // DCS … q … ST
                var j = i + 2
                while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == 0x5C) { j += 1 }
                if let picture = decode(Array(bytes[(i + 2)..<j])) { found.append((row, column, picture)) }
                i = j + 2
            } else {
                i += 1
            }
        }
        return found
    }

    /// One sixel body (after ESC P, before ESC \).
    static func decode(_ body: [UInt8]) -> Picture? {
        guard let q = body.firstIndex(of: UInt8(ascii: "q")) else { return nil }
        var i = q + 1
        func number() -> Int {
            var value = 0
            while i < body.count, (0x30...0x39).contains(body[i]) { value = value * 10 + Int(body[i] - 0x30); i += 1 }
            return value
        }
        func numbers() -> [Int] {
            var list = [number()]
            while i < body.count, body[i] == UInt8(ascii: ";") { i += 1; list.append(number()) }
            return list
        }
        var width = 0, height = 0
        if i < body.count, body[i] == UInt8(ascii: "\"") {
            i += 1
            let raster = numbers()
            if raster.count == 4 { (width, height) = (raster[2], raster[3]) }
        }
        guard width > 0, height > 0 else { return nil }
        var picture = Picture(width: width, height: height, pixels: Array(repeating: nil, count: width * height))
        var palette: [Int: (UInt8, UInt8, UInt8)] = [:]
        var color = (UInt8(0), UInt8(0), UInt8(0)), x = 0, band = 0
        func put(_ sixel: UInt8, count: Int) {
            for _ in 0..<count {
                for bit in 0..<6 where sixel & (1 << bit) != 0 {
                    let y = band * 6 + bit
                    if x < width, y < height { picture.pixels[y * width + x] = color }
                }
                x += 1
            }
        }
        while i < body.count {
            let byte = body[i]
            switch byte {
            case UInt8(ascii: "#"):
                i += 1
                let values = numbers()
                if values.count == 5 {
                    func level(_ percent: Int) -> UInt8 { UInt8(min(255, (percent * 255 + 50) / 100)) }
                    palette[values[0]] = (level(values[2]), level(values[3]), level(values[4]))
                }
                color = palette[values[0]] ?? (0, 0, 0)
            case UInt8(ascii: "!"):
                i += 1
                let count = number()
                if i < body.count { put(body[i] - 0x3F, count: count); i += 1 }
            case UInt8(ascii: "$"): x = 0; i += 1
            case UInt8(ascii: "-"): x = 0; band += 1; i += 1
            case 0x3F...0x7E: put(byte - 0x3F, count: 1); i += 1
            default: i += 1
            }
        }
        return picture
    }
}
