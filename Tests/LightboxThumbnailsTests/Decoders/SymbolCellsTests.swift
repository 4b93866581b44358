import LightboxTestSupport
import Testing

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
        func reddish(_ c: UInt32) -> Bool { c >> 16 & 0xFF > 150 && c & 0xFF < 100 }
        func bluish(_ c: UInt32) -> Bool { c & 0xFF > 150 && c >> 16 & 0xFF < 100 }
        #expect(reddish(left.foreground) || reddish(left.background), "\(symbols) left \(left)")
        #expect(bluish(right.foreground) || bluish(right.background), "\(symbols) right \(right)")
        if symbols == .ascii { #expect(cells.glyphs.allSatisfy { $0 < 128 }) }
        if symbols == .braille { #expect(cells.glyphs.allSatisfy { $0 == 32 || (0x2800...0x28FF).contains($0) }) }
    }
}

@Test func indexedDepthsGivePaletteNumbersDithered() {
    // A smooth ramp: in 16 colours the cells must mix palette entries, not band into one.
    var pixels: [UInt8] = []
    for _ in 0..<16 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(x * 2), 90] } }
    let image = Thumbnail(width: 64, height: 16, pixels: pixels)
    for (depth, limit) in [(ColorDepth.indexed256, 256), (.indexed16, 16), (.indexed8, 8)] {
        guard let cells = SymbolCells.render(image, columns: 32, rows: 8, symbols: .quadrant, depth: depth) else {
            Issue.record("\(depth): no canvas")
            continue
        }
        #expect(cells.depth == depth && cells.colors.allSatisfy { $0 < limit }, "\(depth): \(Set(cells.colors).sorted())")
        #expect(Set(cells.colors).count >= 3, "\(depth): a ramp needs several colours")
    }
}

@Test func renderingOnManyThreadsAtOnceGivesWhatOneThreadGives() async {
    var pixels: [UInt8] = []
    for y in 0..<64 { for x in 0..<76 { pixels += [UInt8(x * 3), UInt8(y * 4), UInt8((x + y) % 256)] } }
    let image = Thumbnail(width: 76, height: 64, pixels: pixels)
    let expected = SymbolCells.render(image, columns: 19, rows: 8, symbols: .quadrant)
    let results = await withTaskGroup(of: SymbolCells?.self) { group in
        for _ in 0..<32 { group.addTask { SymbolCells.render(image, columns: 19, rows: 8, symbols: .quadrant) } }
        var all: [SymbolCells?] = []
        for await result in group { all.append(result) }
        return all
    }
    #expect(results.allSatisfy { $0 == expected })
}

@Test(arguments: 61...71)
func picturesOfAnyWidthKeepTheirColours(width: Int) {
    // Rows of width × 3 bytes that are not a multiple of four once came out scrambled.
    let image = Thumbnail(width: width, height: 32, pixels: TestImages.halves(width: width, height: 32, left: (250, 0, 0), right: (0, 0, 250)))
    let size = image.fittedCells(columns: width / 4, rows: 4)
    guard let cells = SymbolCells.render(image, columns: size.columns, rows: size.rows, symbols: .quadrant) else {
        Issue.record("no canvas")
        return
    }
    let left = cells.cell(x: 0, y: 1), right = cells.cell(x: size.columns - 1, y: 1)
    #expect([left.foreground, left.background].contains(0xFA0000), "\(left)")
    #expect([right.foreground, right.background].contains(0x0000FA), "\(right)")
}
