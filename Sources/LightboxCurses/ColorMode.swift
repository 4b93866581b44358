import LightboxTerminal

/// How many colours the terminal can show, and how app colours map onto them.
public enum ColorMode: Sendable {
    case direct, indexed256, basic16, basic8, monochrome

    /// The terminal colour number for `color`; -1 is the terminal's default.
    public func number(for color: TerminalColor) -> Int32 {
        switch color {
        case .standard: return -1
        case .indexed(let n):
            // Palette numbers (dithered for this terminal) go through as they are where they exist.
            switch self {
            case .indexed256: return Int32(n)
            case .basic16 where n < 16, .basic8 where n < 8: return Int32(n)
            case .monochrome: return -1
            default:
                let (r, g, b) = Self.paletteColor(n)
                return number(for: .rgb(r, g, b))
            }
        case .rgb(let r, let g, let b):
            return number(r, g, b)
        }
    }

    func number(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int32 {
        switch self {
        case .direct:
            let value = Int32(r) << 16 | Int32(g) << 8 | Int32(b)
            return value < 8 ? 8 : value  // 0...7 would select ANSI colours in *-direct entries
        case .indexed256: return Int32(Self.nearest256(r, g, b))
        case .basic16, .basic8: return Int32(Self.nearest8(r, g, b))
        case .monochrome: return -1
        }
    }

    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The colour of xterm's palette entry `n`.
    static func paletteColor(_ n: UInt8) -> (UInt8, UInt8, UInt8) {
        switch n {
        case 0..<8: let c = basic[Int(n)]; return (UInt8(c.0), UInt8(c.1), UInt8(c.2))
        case 8..<16:
            let bright: [(UInt8, UInt8, UInt8)] = [
                (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
                (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
            ]
            return bright[Int(n) - 8]
        case 16..<232:
            let i = Int(n) - 16
            return (UInt8(cubeLevels[i / 36]), UInt8(cubeLevels[i / 6 % 6]), UInt8(cubeLevels[i % 6]))
        default:
            let grey = UInt8(8 + 10 * (Int(n) - 232))
            return (grey, grey, grey)
        }
    }

    /// The nearest of `cubeLevels` to each channel value, by value (ties to the lower): asked
    /// for every cell's colours of every paint in 256 colours, so looked up, not searched.
    static let cubeLevelOfValue: [UInt8] = (0...255).map { v in
        UInt8(cubeLevels.indices.min { abs(cubeLevels[$0] - v) < abs(cubeLevels[$1] - v) }!)
    }

    /// Nearest colour of the xterm 6x6x6 cube and grey ramp.
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let (ri, gi, bi) = (Int(cubeLevelOfValue[Int(r)]), Int(cubeLevelOfValue[Int(g)]), Int(cubeLevelOfValue[Int(b)]))
        let cube = 16 + 36 * ri + 6 * gi + bi
        let cubeDistance = distance((cubeLevels[ri], cubeLevels[gi], cubeLevels[bi]), r, g, b)
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyIndex = min(23, max(0, (average - 8 + 5) / 10))
        let grey = 8 + 10 * greyIndex
        return distance((grey, grey, grey), r, g, b) < cubeDistance ? 232 + greyIndex : cube
    }

    static let basic: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
        (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    ]

    /// Nearest of the eight ANSI colours.
    /// A clearly coloured colour keeps a hue (one of the six), even when white or black is
    /// nearer: a light blue cursor bar as white vanishes on a white terminal.
    static func nearest8(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let isColourful = Int(max(r, g, b)) - Int(min(r, g, b)) > 60
        let candidates = isColourful ? Array(1...6) : Array(basic.indices)
        return candidates.min { distance(basic[$0], r, g, b) < distance(basic[$1], r, g, b) }!
    }

    static func distance(_ c: (Int, Int, Int), _ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let dr = c.0 - Int(r), dg = c.1 - Int(g), db = c.2 - Int(b)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}
