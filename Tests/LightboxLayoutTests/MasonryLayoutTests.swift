import Testing

@testable import LightboxLayout

/// Picture shapes from wide panoramas to tall portraits, in thousandths, repeating.
func aspects(_ count: Int) -> [Int] { (0..<count).map { [750, 1333, 500, 1000, 0, 2000, 420][$0 % 7] } }

@Test(arguments: specs.indices)
func masonryPlacesEveryItemOnceWithoutOverlapAndBalancesColumns(specIndex: Int) {
    let total = sectionCounts.reduce(0, +)
    for width in 1...300 {
        let layout = MasonryLayout(sectionCounts: sectionCounts, aspects: aspects(total), spec: specs[specIndex], width: width)
        let frames = expectLayoutInvariants(layout, crossLength: width, "width \(width)")
        #expect(frames.count == total)
        for s in 0..<layout.sectionCount {
            // Balanced: after placement the columns' bottoms differ by at most one tile's height.
            let range = layout.items(inSection: s)
            guard !range.isEmpty else { continue }
            var bottoms = [Int](repeating: layout.headerTop(ofSection: s) + 1, count: layout.columns.count)
            var tallest = 0
            for i in range {
                let f = frames[i]
                bottoms[layout.column(ofItem: i)] = max(bottoms[layout.column(ofItem: i)], f.maxY)
                tallest = max(tallest, f.height)
            }
            let used = bottoms.enumerated().filter { c, _ in range.contains { layout.column(ofItem: $0) == c } }.map(\.element)
            #expect(used.max()! - used.min()! <= tallest + specs[specIndex].rowSpacing, "section \(s) width \(width)")
        }
    }
}

@Test func masonryQueriesAgreeWithBruteForce() {
    let total = sectionCounts.reduce(0, +)
    for width in stride(from: 10, through: 200, by: 13) {
        for collapsed in [Set<Int>(), [3]] {
            let layout = MasonryLayout(
                sectionCounts: sectionCounts, aspects: aspects(total), spec: specs[1], width: width,
                metrics: TileMetrics(footerHeight: 1), collapsed: collapsed)
            let shown = (0..<total).filter(layout.isShown)
            for offset in stride(from: 0, to: layout.contentHeight, by: 3) {
                let range = layout.visibleItems(offset: offset, height: 10)
                let expected = shown.filter {
                    let f = layout.frame(ofItem: $0); return f.maxY > offset && f.y < offset + 10
                }
                #expect(expected.allSatisfy(range.contains), "offset \(offset) width \(width)")
                for x in stride(from: 0, to: width, by: 3) {
                    let hit = shown.first {
                        let f = layout.frame(ofItem: $0); return x >= f.x && x < f.maxX && offset >= f.y && offset < f.maxY
                    }
                    #expect(layout.item(atX: x, y: offset) == hit, "x \(x) y \(offset) width \(width)")
                }
            }
        }
    }
}

@Test func masonryMovesUpAndDownColumnsAndSidewaysToTheNearestHeight() {
    let layout = MasonryLayout(sectionCounts: [12], aspects: aspects(12), spec: .flexible(count: 3), width: 60)
    for i in 0..<12 {
        let down = layout.destination(from: i, .down)
        if down != i {
            #expect(layout.column(ofItem: down) == layout.column(ofItem: i) && layout.frame(ofItem: down).y > layout.frame(ofItem: i).y)
            #expect(layout.destination(from: down, .up) == i)
        }
        let right = layout.destination(from: i, .right)
        if layout.column(ofItem: i) < 2 {
            #expect(layout.column(ofItem: right) == layout.column(ofItem: i) + 1)
            // No tile in that column is nearer in height.
            let middle = { (k: Int) in layout.boxFrame(ofItem: k).y * 2 + layout.boxFrame(ofItem: k).height }
            let others = (0..<12).filter { layout.column(ofItem: $0) == layout.column(ofItem: right) }
            #expect(others.allSatisfy { abs(middle($0) - middle(i)) >= abs(middle(right) - middle(i)) - 1 })
        } else {
            #expect(right == i)
        }
    }
}
