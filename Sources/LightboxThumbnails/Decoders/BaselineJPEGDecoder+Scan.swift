import Foundation

extension BaselineJPEGDecoder {
    /// A canonical Huffman table (JPEG Annex C): a lookup of the first 9 bits for the short codes,
    /// the largest code of each length for the rest.
    struct HuffmanTable {
        /// For each 9-bit prefix: the code's length << 8 | its symbol; 0 when the code is longer.
        var lookup = [UInt16](repeating: 0, count: 512)
        /// The largest code of each length (index 1...16); -1 when there is none.
        var maxCode = [Int](repeating: -1, count: 17)
        /// What to add to a code of each length to find its symbol's index.
        var offset = [Int](repeating: 0, count: 17)
        var symbols: [UInt8]
        /// `symbols` padded with zeros to 256, as the scan decoder lays them.
        var paddedSymbols: [UInt8]

        /// The table of `counts` (codes of each length, 1 to 16) and `symbols`; nil when the
        /// counts ask for more codes than a length holds.
        init?(counts: [UInt8], symbols: [UInt8]) {
            guard counts.count == 16, symbols.count <= 256 else { return nil }
            self.symbols = symbols
            paddedSymbols = symbols + [UInt8](repeating: 0, count: 256 - symbols.count)
            var code = 0, k = 0
            for length in 1...16 {
                let n = Int(counts[length - 1])
                offset[length] = k - code
                for _ in 0..<n {
                    guard code < 1 << length, k < symbols.count else { return nil }
                    if length <= 9 {
                        for prefix in (code << (9 - length))..<((code + 1) << (9 - length)) {
                            lookup[prefix] = UInt16(length << 8) | UInt16(symbols[k])
                        }
                    }
                    code += 1
                    k += 1
                }
                if n > 0 { maxCode[length] = code - 1 }
                code <<= 1
            }
        }
    }

    /// A scan's entropy-coded data read bit by bit: 0xFF 0x00 read as 0xFF, zero bytes fed in at a
    /// marker or the end (reading those means the data was cut).
    struct BitReader {
        let data: [UInt8]
        var position: Int
        /// Bits read ahead, the next one highest; `count` of them are valid.
        var bits: UInt64 = 0
        var count = 0
        /// Zero bytes fed in past the data's end or a marker.
        var padding = 0

        /// Whether every bit taken so far came from the data.
        var isIntact: Bool { 8 * padding <= count }

        /// Ends a restart interval: the bits left are padding, then the marker `expected` comes.
        mutating func restart(expecting expected: UInt8) -> Bool {
            guard isIntact else { return false }
            bits = 0
            count = 0
            padding = 0
            while position + 1 < data.count, data[position] == 0xFF, data[position + 1] == 0xFF { position += 1 }
            guard position + 1 < data.count, data[position] == 0xFF, data[position + 1] == expected else { return false }
            position += 2
            return true
        }

        /// Reads bytes until more than 56 bits wait, unstuffing 0xFF 0x00; zeros at a marker or the end.
        @inline(__always)
        mutating func fill() {
            while count <= 56 {
                var byte: UInt8 = 0
                if position < data.count {
                    if data[position] != 0xFF {
                        byte = data[position]
                        position += 1
                    } else if position + 1 < data.count, data[position + 1] == 0 {
                        byte = 0xFF
                        position += 2
                    } else if position + 1 < data.count, data[position + 1] == 0xFF {
                        position += 1  // a fill byte before a marker
                        continue
                    } else {
                        padding += 1
                    }
                } else {
                    padding += 1
                }
                bits = bits &<< 8 | UInt64(byte)
                count &+= 8
            }
        }

        // The bit reading below shifts and subtracts without overflow checks: `count` stays
        // within 0...64 and `n` within 0...16, and nothing here indexes memory.

        /// Makes at least `n` bits (at most 16) wait.
        @inline(__always)
        mutating func ensure(_ n: Int) { if count < n { fill() } }

        /// The next `n` bits (1 to 16) as a number, left waiting; `ensure(n)` first.
        @inline(__always)
        func peek(_ n: Int) -> Int {
            Int(truncatingIfNeeded: bits &>> UInt64(truncatingIfNeeded: count &- n)) & ((1 &<< n) &- 1)
        }

        @inline(__always)
        mutating func skip(_ n: Int) { count &-= n }

        /// The next `n` bits (0 to 16) as a number.
        @inline(__always)
        mutating func take(_ n: Int) -> Int {
            ensure(n)
            count &-= n
            return Int(truncatingIfNeeded: bits &>> UInt64(truncatingIfNeeded: count)) & ((1 &<< n) &- 1)
        }

        /// `n` bits as a signed value (JPEG's EXTEND).
        @inline(__always)
        mutating func signed(_ n: Int) -> Int {
            guard n > 0 else { return 0 }
            let value = take(n)
            return value < 1 &<< (n &- 1) ? value &- (1 &<< n) &+ 1 : value
        }
    }

    /// Decodes a scan's entropy-coded data into one plane of samples per component, each block
    /// by an inverse DCT of its lowest frequencies (libjpeg's scaled decoding): `scale` x `scale`
    /// for the largest components, more for subsampled ones, as far as that saves upsampling.
    /// The tables are laid flat so the loop over blocks copies and counts no references.
    struct ScanDecoder {
        let data: [UInt8]
        /// Where the entropy-coded data starts.
        let start: Int
        let frame: FrameHeader
        /// Samples a block of the largest components gives along each side: 1, 2, 4 or 8.
        let scale: Int
        /// Samples a block of each component gives along each side.
        let blockScales: [Int]
        let mcusAcross: Int, mcusDown: Int
        let restartInterval: Int
        /// The scan's components in its order.
        let parts: [Part]
        /// Every component's samples, one plane after another.
        var samples: [UInt8]
        /// Where each component's plane starts in `samples`, and its width.
        let planeStarts: [Int], strides: [Int]
        var predictors: [Int]
        /// One block's dequantized coefficients, its lowest n x n frequencies (n its block scale).
        var coefficients = [Float](repeating: 0, count: 64)
        /// The eight Huffman tables (DC 0 to 3, AC 0 to 3) one after another: `HuffmanTable`'s
        /// lookup (512 each), largest codes (17 each), offsets (17 each) and symbols (256 each).
        let lookup: [UInt16], maxCodes: [Int], offsets: [Int], symbols: [UInt8]
        /// The four quantization tables (64 each, natural order; zeros where not defined).
        let quant: [Int]
        /// `cosines(_:)` of 1, 2, 4 and 8, one after another (at 0, 1, 5 and 21).
        static let cosineTables: [Float] = [1, 2, 4, 8].flatMap(cosines)
        let cosineTables = Self.cosineTables
        /// `cosines(8)` by frequency: for each, its weights for the eight samples across.
        static let eightAcross: [SIMD8<Float>] = (0..<8).map { u in SIMD8((0..<8).map { x in cosines(8)[x * 8 + u] }) }
        /// `cosines(8)`: for each sample down, its weights for the eight frequencies.
        static let eightDown = cosines(8)

        /// A component as the scan codes it: where its tables and its plane are.
        struct Part {
            var index: Int
            /// Its tables' slots (DC 0...3, AC 4...7) and its quantization table's start.
            var dc: Int, ac: Int, quant: Int
            var horizontal: Int, vertical: Int
            /// Samples along each side of a block; where its plane starts in `samples`, and its width.
            var scale: Int, start: Int, stride: Int
            /// Where its inverse DCT table starts in `cosineTables`.
            var cosines: Int
        }

        init?(data: [UInt8], start: Int, frame: FrameHeader, scan: ScanHeader, tables: Tables, scale: Int) {
            guard [1, 2, 4, 8].contains(scale) else { return nil }
            self.data = data
            self.start = start
            self.frame = frame
            self.scale = scale
            restartInterval = tables.restartInterval
            let (hMax, vMax) = (frame.maxHorizontal, frame.maxVertical)
            let across = (frame.width + 8 * hMax - 1) / (8 * hMax), down = (frame.height + 8 * vMax - 1) / (8 * vMax)
            (mcusAcross, mcusDown) = (across, down)
            // libjpeg-turbo's choice (jdmaster.c): double a subsampled component's scale while its
            // samples would still need upsampling by a power of two.
            let blockScales = frame.components.map { component in
                var n = scale
                while n < 8, (hMax * scale) % (component.horizontal * n * 2) == 0, (vMax * scale) % (component.vertical * n * 2) == 0 { n *= 2 }
                return n
            }
            self.blockScales = blockScales
            let strides = frame.components.indices.map { across * frame.components[$0].horizontal * blockScales[$0] }
            self.strides = strides
            let sizes = frame.components.indices.map { strides[$0] * down * frame.components[$0].vertical * blockScales[$0] }
            let planeStarts = sizes.indices.map { sizes[..<$0].reduce(0, +) }
            self.planeStarts = planeStarts
            samples = [UInt8](repeating: 0, count: sizes.reduce(0, +))
            predictors = frame.components.map { _ in 0 }
            let huffman = tables.dc + tables.ac
            lookup = huffman.flatMap { $0?.lookup ?? Array(repeating: 0, count: 512) }
            maxCodes = huffman.flatMap { $0?.maxCode ?? Array(repeating: -1, count: 17) }
            offsets = huffman.flatMap { $0?.offset ?? Array(repeating: 0, count: 17) }
            symbols = huffman.flatMap { $0?.paddedSymbols ?? Array(repeating: 0, count: 256) }
            quant = tables.quant.flatMap { $0 ?? Array(repeating: 0, count: 64) }
            parts = scan.components.map { index, dc, ac in
                let component = frame.components[index], n = blockScales[index]
                return Part(
                    index: index, dc: dc, ac: 4 + ac, quant: component.quantTable * 64, horizontal: component.horizontal,
                    vertical: component.vertical, scale: n, start: planeStarts[index], stride: strides[index], cosines: [1: 0, 2: 1, 4: 5, 8: 21][n] ?? 0)
            }
        }

        /// Decodes every MCU; false when the data is damaged or cut short.
        mutating func decodeAll() -> Bool {
            // The reader is a local, so its state stays in registers through the inlined reads.
            var reader = BitReader(data: data, position: start)
            var restarts = 0
            for mcu in 0..<(mcusAcross * mcusDown) {
                if restartInterval > 0, mcu > 0, mcu % restartInterval == 0 {
                    guard reader.restart(expecting: UInt8(0xD0 + restarts % 8)) else { return false }
                    for p in predictors.indices { predictors[p] = 0 }
                    restarts += 1
                }
                let across = mcu % mcusAcross, down = mcu / mcusAcross
                // Cut short: stop at the first MCU past the data, not after decoding zeros to the
                // end (704 bytes of data claiming 33576x24 took 1.2 s in a debug build).
                guard reader.isIntact else { return false }
                for part in parts {
                    for v in 0..<part.vertical {
                        for h in 0..<part.horizontal {
                            let x = (across * part.horizontal + h) * part.scale, y = (down * part.vertical + v) * part.scale
                            guard decodeBlock(part, at: part.start + y * part.stride + x, from: &reader) else { return false }
                        }
                    }
                }
            }
            return reader.isIntact
        }

        /// The next symbol of Huffman table `slot`; nil for a code no table holds.
        @inline(__always)
        func symbol(_ slot: Int, from reader: inout BitReader) -> Int? {
            reader.ensure(16)
            let entry = lookup[slot * 512 + reader.peek(9)]
            if entry != 0 {
                reader.skip(Int(entry &>> 8))
                return Int(entry & 255)
            }
            for length in 10...16 {
                let code = reader.peek(length)
                if code <= maxCodes[slot * 17 + length] {
                    reader.skip(length)
                    let index = code + offsets[slot * 17 + length]
                    return (0..<256).contains(index) ? Int(symbols[slot * 256 + index]) : nil
                }
            }
            return nil
        }

        /// Decodes one block of `part` and writes its samples from `origin` in `samples`.
        @inline(__always)
        mutating func decodeBlock(_ part: Part, at origin: Int, from reader: inout BitReader) -> Bool {
            guard let size = symbol(part.dc, from: &reader), size <= 11 else { return false }
            predictors[part.index] += reader.signed(size)
            let n = part.scale
            for i in 0..<(n * n) { coefficients[i] = 0 }
            coefficients[0] = Float(predictors[part.index] * quant[part.quant])
            // The highest row and column holding a coefficient other than DC's: the rest is zero.
            var (lastRow, lastColumn) = (0, 0)
            var k = 1
            while k < 64 {
                guard let rs = symbol(part.ac, from: &reader) else { return false }
                let run = rs >> 4, size = rs & 15
                if size == 0 {
                    if run != 15 { break }  // end of block
                    k += 16
                    continue
                }
                k += run
                guard k < 64 else { return false }
                let value = reader.signed(size)
                let natural = Int(zigzag[k])
                let row = natural >> 3, column = natural & 7
                if row < n, column < n {
                    coefficients[row * n + column] = Float(value * quant[part.quant + natural])
                    lastRow = max(lastRow, row)
                    lastColumn = max(lastColumn, column)
                }
                k += 1
            }
            write(part, at: origin, rows: lastRow + 1, columns: lastColumn + 1)
            return true
        }

        /// The inverse DCT of the block's coefficients (nonzero only in its first `rows` and
        /// `columns`) into `samples` from `origin`.
        mutating func write(_ part: Part, at origin: Int, rows used: Int, columns: Int) {
            let n = part.scale, stride = part.stride, cosines = cosineTables, c = part.cosines
            if used == 1 && columns == 1 {
                // Only the mean: every sample the same, a row at a time.
                let value = UInt64(Self.sample(coefficients[0] * cosines[c] * cosines[c])) &* 0x0101_0101_0101_0101
                for row in 0..<n {
                    let at = origin + row * stride
                    switch n {
                    case 8: store(value, at: at)
                    case 4: store(UInt32(truncatingIfNeeded: value), at: at)
                    case 2: store(UInt16(truncatingIfNeeded: value), at: at)
                    default: store(UInt8(truncatingIfNeeded: value), at: at)
                    }
                }
                return
            }
            if n == 2 {
                // The 2-point transform is a sum and a difference (both cosines are 1/(2√2)).
                let (f00, f01, f10, f11) = (coefficients[0], coefficients[1], coefficients[2], coefficients[3])
                let (top, bottom) = (origin, origin + stride)
                samples[top] = Self.sample((f00 + f01 + f10 + f11) / 8)
                samples[top + 1] = Self.sample((f00 - f01 + f10 - f11) / 8)
                samples[bottom] = Self.sample((f00 + f01 - f10 - f11) / 8)
                samples[bottom + 1] = Self.sample((f00 - f01 - f10 + f11) / 8)
                return
            }
            if n == 4 {
                // Down the columns with whole rows at once, then along each row: each output
                // row is its four frequencies times the transform's columns.
                func frequencies(_ v: Int) -> SIMD4<Float> {
                    SIMD4(coefficients[v * 4], coefficients[v * 4 + 1], coefficients[v * 4 + 2], coefficients[v * 4 + 3])
                }
                let lines = Self.fourPoint(frequencies(0), frequencies(1), frequencies(2), frequencies(3))
                let (c, a, b): (Float, Float, Float) = (0.353_553_39, 0.461_939_77, 0.191_341_72)
                let k0 = SIMD4<Float>(repeating: c), k1 = SIMD4<Float>(a, b, -b, -a)
                let k2 = SIMD4<Float>(c, -c, -c, c), k3 = SIMD4<Float>(b, -a, a, -b)
                func row(_ line: SIMD4<Float>) -> UInt32 {
                    var out = line[0] * k0
                    out += line[1] * k1
                    out += line[2] * k2
                    out += line[3] * k3
                    return Self.bytes(out)
                }
                store(row(lines.0), at: origin)
                store(row(lines.1), at: origin + stride)
                store(row(lines.2), at: origin + 2 * stride)
                store(row(lines.3), at: origin + 3 * stride)
                return
            }
            // n is 8 here: a block at 1/8 has only its mean.
            writeEight(at: origin, stride: stride, rows: used, columns: columns)
        }

        /// The 8-point inverse DCT of a block whose coefficients are nonzero only in its first
        /// `used` rows and `columns`, a whole row of eight samples at a time: each used row of
        /// coefficients becomes a row of values across, then each output row sums those.
        mutating func writeEight(at origin: Int, stride: Int, rows used: Int, columns: Int) {
            let across = Self.eightAcross, down = Self.eightDown
            var transformed = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
            withUnsafeMutableBytes(of: &transformed) { raw in
                let lines = raw.bindMemory(to: SIMD8<Float>.self)
                for v in 0..<used {
                    var line = SIMD8<Float>()
                    for u in 0..<columns { line += coefficients[v * 8 + u] * across[u] }
                    lines[v] = line
                }
            }
            withUnsafeBytes(of: &transformed) { raw in
                let lines = raw.bindMemory(to: SIMD8<Float>.self)
                for y in 0..<8 {
                    var line = SIMD8<Float>(repeating: 128)  // the level shift
                    for v in 0..<used { line += down[y * 8 + v] * lines[v] }
                    // As `bytes(_:)` does for four, eight at once (through two of those is slower).
                    let clamped = line.replacing(with: 0, where: line .< 0).replacing(with: 255, where: line .> 255)
                    let rounded = unsafeBitCast(clamped + 12_582_912, to: SIMD8<UInt32>.self)
                    var bytes = SIMD8<UInt8>()
                    for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: rounded[i]) }
                    let at = origin + y * stride
                    samples.withUnsafeMutableBytes { raw in
                        precondition(at >= 0 && at + 8 <= raw.count)
                        raw.storeBytes(of: bytes, toByteOffset: at, as: SIMD8<UInt8>.self)
                    }
                }
            }
        }

        /// The 4-point inverse transform (`cosines(4)`) by its even and odd halves, of whole rows.
        @inline(__always)
        static func fourPoint(_ f0: SIMD4<Float>, _ f1: SIMD4<Float>, _ f2: SIMD4<Float>, _ f3: SIMD4<Float>) -> (
            SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>
        ) {
            let (c, a, b): (Float, Float, Float) = (0.353_553_39, 0.461_939_77, 0.191_341_72)
            let even0 = c * (f0 + f2), even1 = c * (f0 - f2)
            let odd0 = a * f1 + b * f3, odd1 = b * f1 - a * f3
            return (even0 + odd0, even1 + odd1, even1 - odd1, even0 - odd0)
        }

        /// Four samples from the inverse DCT's values (level-shifted, clamped, rounded), in
        /// memory order.
        @inline(__always)
        static func bytes(_ values: SIMD4<Float>) -> UInt32 {
            let shifted = values + 128
            let clamped = shifted.replacing(with: 0, where: shifted .< 0).replacing(with: 255, where: shifted .> 255)
            // Adding 1.5 · 2^23 leaves the value rounded to an integer in the low bits.
            let rounded = unsafeBitCast(clamped + 12_582_912, to: SIMD4<UInt32>.self)
            let low = (rounded[0] & 255) | (rounded[1] & 255) << 8
            let word = low | (rounded[2] & 255) << 16 | (rounded[3] & 255) << 24
            return word.littleEndian
        }

        /// Writes `value`'s bytes into `samples` from `at`, checked against its end.
        @inline(__always)
        mutating func store<Value: FixedWidthInteger>(_ value: Value, at: Int) {
            samples.withUnsafeMutableBytes { raw in
                precondition(at >= 0 && at + MemoryLayout<Value>.size <= raw.count)
                raw.storeBytes(of: value, toByteOffset: at, as: Value.self)
            }
        }

        /// A sample from the inverse DCT's value: level-shifted, rounded and clamped.
        static func sample(_ value: Float) -> UInt8 {
            UInt8(max(0, min(255, value + 128.5)))
        }

        /// C(u)/2 · cos((2x + 1)uπ / 2n) for each output x and frequency u (row-major by x): the
        /// lowest n frequencies of an 8-point DCT sampled at n points.
        static func cosines(_ n: Int) -> [Float] {
            var table = [Float](repeating: 0, count: n * n)
            for x in 0..<n {
                for u in 0..<n {
                    let weight = u == 0 ? 1 / 2.0.squareRoot() : 1
                    table[x * n + u] = Float(weight / 2 * cos(Double(2 * x + 1) * Double(u) * Double.pi / Double(2 * n)))
                }
            }
            return table
        }

        /// The picture at this scale: each pixel from its samples (chroma repeated), as RGB.
        func thumbnail(isRGB: Bool) -> Thumbnail {
            let width = (frame.width * scale + 7) / 8, height = (frame.height * scale + 7) / 8
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            let components = frame.components
            // Which sample of each component's row each pixel takes.
            let columns = components.indices.map { c in
                (0..<width).map { x in x * components[c].horizontal * blockScales[c] / (frame.maxHorizontal * scale) }
            }
            func row(_ c: Int, _ y: Int) -> Int {
                planeStarts[c] + y * components[c].vertical * blockScales[c] / (frame.maxVertical * scale) * strides[c]
            }
            // Commonly (subsampled chroma decoded at twice the scale) every plane has a sample per pixel.
            let sameColumns = columns.allSatisfy { $0.elementsEqual(0..<width) }
            /// Eight samples from `at`, as numbers.
            func load8(_ at: Int) -> SIMD8<Int32> {
                samples.withUnsafeBytes { raw in
                    precondition(at >= 0 && at + 8 <= raw.count)
                    let bytes = raw.loadUnaligned(fromByteOffset: at, as: SIMD8<UInt8>.self)
                    var values = SIMD8<Int32>()
                    for i in 0..<8 { values[i] = Int32(bytes[i]) }
                    return values
                }
            }
            for y in 0..<height {
                var o = y * width * 3
                if components.count == 1 {
                    let luma = row(0, y)
                    for x in 0..<width {
                        let grey = samples[luma + columns[0][x]]
                        pixels[o] = grey; pixels[o + 1] = grey; pixels[o + 2] = grey
                        o += 3
                    }
                    continue
                }
                let (first, second, third) = (row(0, y), row(1, y), row(2, y))
                let (columns0, columns1, columns2) = (columns[0], columns[1], columns[2])
                var x = 0
                if !isRGB, sameColumns {
                    // Eight pixels at a time, each plane read straight across.
                    while x + 8 <= width {
                        let a = load8(first + x), cb = load8(second + x) &- 128, cr = load8(third + x) &- 128
                        let red = a &+ (91881 &* cr &+ 32768) &>> 16
                        let green = a &- (22554 &* cb &+ 46802 &* cr &- 32768) &>> 16
                        let blue = a &+ (116130 &* cb &+ 32768) &>> 16
                        let (r, g, b) = (Self.clamped(red), Self.clamped(green), Self.clamped(blue))
                        for i in 0..<8 {
                            pixels[o] = r[i]; pixels[o + 1] = g[i]; pixels[o + 2] = b[i]
                            o += 3
                        }
                        x += 8
                    }
                }
                while x < width {
                    let a = Int(samples[first + columns0[x]]), b = Int(samples[second + columns1[x]]), c = Int(samples[third + columns2[x]])
                    if isRGB {
                        pixels[o] = UInt8(a); pixels[o + 1] = UInt8(b); pixels[o + 2] = UInt8(c)
                    } else {
                        let (cb, cr) = (b - 128, c - 128)
                        pixels[o] = Self.clamped(a + (91881 * cr + 32768) >> 16)
                        pixels[o + 1] = Self.clamped(a - (22554 * cb + 46802 * cr - 32768) >> 16)
                        pixels[o + 2] = Self.clamped(a + (116130 * cb + 32768) >> 16)
                    }
                    o += 3
                    x += 1
                }
            }
            return Thumbnail(width: width, height: height, pixels: pixels)
        }

        static func clamped(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value))) }

        @inline(__always)
        static func clamped(_ values: SIMD8<Int32>) -> SIMD8<UInt8> {
            // Lane by lane with concrete types: the generic SIMD conversions are not specialized.
            var bytes = SIMD8<UInt8>()
            for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: max(0, min(255, values[i]))) }
            return bytes
        }
    }
}
