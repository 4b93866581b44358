import Testing

@testable import LightboxLayout

@Test(arguments: specs.indices)
func stripPlacesEveryItemOnceWithoutOverlapAndAgreesWithBruteForce(specIndex: Int) {
    for width in 1...300 {
        for height in width % 2 == 0 ? [1, 24] : [7, 60] {
            for collapsed in [Set<Int>(), [3]] {
                let layout = StripLayout(sectionCounts: sectionCounts, spec: specs[specIndex], width: width, height: height, collapsed: collapsed)
                let shown = (0..<layout.itemCount).filter(layout.isShown)
                // Rows fit the height (or one tile, when not even one fits).
                expectLayoutInvariants(layout, crossLength: max(height, layout.tileHeight), "width \(width) height \(height)")
                // Queries against brute force at every seventh width (placement is checked at all).
                for offset in stride(from: 0, to: width % 7 == 0 ? layout.contentHeight : 0, by: 7) {
                    let range = layout.visibleItems(offset: offset, height: 40)
                    let expected = shown.filter { layout.frame(ofItem: $0).maxX > offset && layout.frame(ofItem: $0).x < offset + 40 }
                    #expect(expected.allSatisfy(range.contains), "offset \(offset) width \(width) height \(height)")
                    for y in stride(from: 0, to: height, by: 3) {
                        let hit = shown.first {
                            let f = layout.frame(ofItem: $0); return offset >= f.x && offset < f.maxX && y >= f.y && y < f.maxY
                        }
                        #expect(layout.item(atX: offset, y: y) == hit, "x \(offset) y \(y)")
                    }
                }
            }
        }
    }
}

@Test func stripMovesAcrossColumnsAndSectionsAndDownRows() {
    // Two rows of tiles (tiles of 10 cells, box 4 lines + label = 5, spacing 1: 11 lines hold two).
    let spec = GridSpec(columns: [GridItem(.fixed(10))], rowSpacing: 1, columnSpacing: 2)
    let layout = StripLayout(sectionCounts: [5, 4], spec: spec, width: 80, height: 11)
    #expect(layout.rowCount == 2)
    #expect(layout.destination(from: 0, .down) == 1 && layout.destination(from: 1, .down) == 1)
    #expect(layout.destination(from: 1, .up) == 0)
    #expect(layout.destination(from: 0, .right) == 2)
    #expect(layout.destination(from: 3, .right) == 4)  // the short last column's tile
    #expect(layout.destination(from: 4, .right) == 5)  // into the next section, same row
    #expect(layout.destination(from: 5, .left) == 4)
    #expect(layout.destination(from: 6, .left) == 4)  // no second row there: its last tile
    #expect(layout.destination(from: 0, .rowsDown(2)) == 4)
    let pinned = layout.pinnedHeader(atOffset: layout.headerTop(ofSection: 1) - 3)!
    #expect(pinned.section == 0 && pinned.y < 0, "the next card pushes the pinned one away")
}
