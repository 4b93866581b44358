import LightboxTerminal

/// How many colours the terminal can show, and how app colours map onto them.
public enum ColorMode: Sendable {
    case direct, indexed256, basic8, monochrome

    /// The terminal colour number for `color`; -1 is the terminal's default.
    public func number(for color: TerminalColor) -> Int32 {
        guard case .rgb(let r, let g, let b) = color else { return -1 }
        switch self {
        case .direct:
            let value = Int32(r) << 16 | Int32(g) << 8 | Int32(b)
            return value < 8 ? 8 : value  // 0...7 would select ANSI colours in *-direct entries
        case .indexed256: return Int32(Self.nearest256(r, g, b))
        case .basic8: return Int32(Self.nearest8(r, g, b))
        case .monochrome: return -1
        }
    }

    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// Nearest colour of the xterm 6x6x6 cube and grey ramp.
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        func level(_ v: UInt8) -> Int {
            cubeLevels.indices.min { abs(cubeLevels[$0] - Int(v)) < abs(cubeLevels[$1] - Int(v)) }!
        }
        let (ri, gi, bi) = (level(r), level(g), level(b))
        let cube = 16 + 36 * ri + 6 * gi + bi
        let cubeDistance = distance((cubeLevels[ri], cubeLevels[gi], cubeLevels[bi]), r, g, b)
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyIndex = min(23, max(0, (average - 8 + 5) / 10))
        let grey = 8 + 10 * greyIndex
        return distance((grey, grey, grey), r, g, b) < cubeDistance ? 232 + greyIndex : cube
    }

    static let basic: [(Int, Int, Int)] = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
                                           (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229)]

    /// Nearest of the eight ANSI colours.
    static func nearest8(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        basic.indices.min { distance(basic[$0], r, g, b) < distance(basic[$1], r, g, b) }!
    }

    static func distance(_ c: (Int, Int, Int), _ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let dr = c.0 - Int(r), dg = c.1 - Int(g), db = c.2 - Int(b)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}
