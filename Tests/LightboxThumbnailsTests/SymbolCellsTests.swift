import Testing
import LightboxTestSupport
@testable import LightboxThumbnails

@Test func chafaRendersEachSymbolSetInTrueColour() {
    // Left half red, right half blue: every set must keep the colours apart.
    let pixels = TestImages.halves(width: 32, height: 16, left: (250, 0, 0), right: (0, 0, 250))
    let image = Thumbnail(width: 32, height: 16, pixels: pixels)
    for symbols in SymbolSet.allCases where symbols != .half {
        guard let cells = SymbolCells.render(image, columns: 8, rows: 4, symbols: symbols) else {
            Issue.record("\(symbols): no canvas")
            continue
        }
        #expect(cells.columns == 8 && cells.rows == 4 && cells.glyphs.count == 32)
        let left = cells.cell(x: 0, y: 1), right = cells.cell(x: 7, y: 1)
        func reddish(_ c: (UInt8, UInt8, UInt8)) -> Bool { c.0 > 150 && c.2 < 100 }
        func bluish(_ c: (UInt8, UInt8, UInt8)) -> Bool { c.2 > 150 && c.0 < 100 }
        #expect(reddish(left.foreground) || reddish(left.background), "\(symbols) left \(left)")
        #expect(bluish(right.foreground) || bluish(right.background), "\(symbols) right \(right)")
        if symbols == .ascii { #expect(cells.glyphs.allSatisfy { $0 < 128 }) }
        if symbols == .braille { #expect(cells.glyphs.allSatisfy { $0 == 32 || (0x2800...0x28FF).contains($0) }) }
    }
}
