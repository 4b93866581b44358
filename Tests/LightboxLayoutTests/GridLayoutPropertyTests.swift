import Testing

@testable import LightboxLayout

/// Specs the properties are checked against.
let specs: [GridSpec] = [
    .standard,
    GridSpec(columns: [GridItem(.adaptive(minimum: 6, maximum: 9))], rowSpacing: 0, columnSpacing: 1),
    .flexible(count: 3),
    GridSpec(
        columns: [GridItem(.fixed(10)), GridItem(.flexible(minimum: 5, maximum: 30)), GridItem(.adaptive(minimum: 8, maximum: 12))],
        rowSpacing: 2, columnSpacing: 1),
    GridSpec(columns: [GridItem(.fixed(7), spacing: 0), GridItem(.fixed(7))]),
]

/// Ragged sections, an empty one among them.
let sectionCounts = [7, 1, 0, 13, 4, 25]

@Test(arguments: specs.indices)
func everyItemPlacedOnceWithoutOverlap(specIndex: Int) {
    for width in 1...300 {
        let layout = GridLayout(sectionCounts: sectionCounts, spec: specs[specIndex], width: width)
        let frames = expectLayoutInvariants(layout, crossLength: width, "width \(width)")
        #expect(frames.count == sectionCounts.reduce(0, +))
    }
}

@Test func columnWidthsStayWithinTheirBounds() {
    let spec = GridSpec(columns: [GridItem(.adaptive(minimum: 16, maximum: 24))])
    for width in 16...300 {
        let columns = spec.resolvedColumns(forWidth: width)
        for column in columns { #expect((16...24).contains(column.width), "width \(width): \(column)") }
        // As many as fit: one more would not fit.
        let n = columns.count
        #expect(n * 16 + (n - 1) * 2 <= width)
        #expect((n + 1) * 16 + n * 2 > width)
    }
    let mixed = specs[3]
    for width in 40...300 {
        let columns = mixed.resolvedColumns(forWidth: width)
        #expect(columns[0].width == 10)
        #expect((5...30).contains(columns[1].width))
        for column in columns.dropFirst(2) { #expect((8...12).contains(column.width), "width \(width)") }
    }
}

@Test func flexibleColumnsShareTheWidthEqually() {
    for width in 10...300 {
        let columns = GridSpec.flexible(count: 3).resolvedColumns(forWidth: width)
        #expect(columns.count == 3)
        let widths = columns.map(\.width)
        #expect(widths.max()! - widths.min()! <= 1)
        #expect(widths.reduce(0, +) + 4 == width)
    }
}

@Test func widerTerminalsShowMoreAdaptiveColumns() {
    let narrow = GridLayout(sectionCounts: [40], spec: .standard, width: 80)
    let wide = GridLayout(sectionCounts: [40], spec: .standard, width: 200)
    #expect(wide.columnCount > narrow.columnCount)
}

@Test(arguments: specs.indices)
func visibleItemsMatchABruteForceScan(specIndex: Int) {
    for width in [1, 7, 23, 40, 80, 157, 300] {
        let layout = GridLayout(sectionCounts: sectionCounts, spec: specs[specIndex], width: width)
        let frames = (0..<layout.itemCount).map { layout.frame(ofItem: $0) }
        for height in [1, 2, 5, 17, 60] {
            for offset in -3...(layout.contentHeight + 3) {
                let window = Rect(x: 0, y: offset, width: width, height: height)
                let expected = frames.indices.filter { frames[$0].intersects(window) }
                let got = Array(layout.visibleItems(offset: offset, height: height))
                #expect(got == expected, "width \(width) height \(height) offset \(offset)")
            }
        }
    }
}

@Test(arguments: specs.indices)
func pinnedHeaderIsTheLastHeaderAtOrAboveTheTop(specIndex: Int) {
    for width in 1...300 {
        let layout = GridLayout(sectionCounts: sectionCounts, spec: specs[specIndex], width: width)
        for offset in 0..<layout.contentHeight {
            let expected = (0..<layout.sectionCount).last { layout.headerTop(ofSection: $0) <= offset }!
            let pinned = layout.pinnedHeader(atOffset: offset)!
            #expect(pinned.section == expected)
            // Pushed up only when the next header reaches the top line.
            let nextTop = expected + 1 < layout.sectionCount ? layout.headerTop(ofSection: expected + 1) : Int.max
            #expect(pinned.y == (nextTop - offset < 1 ? nextTop - offset - 1 : 0))
        }
    }
}

@Test func hitTestingFindsEveryTileCell() {
    let layout = GridLayout(sectionCounts: sectionCounts, spec: specs[3], width: 97)
    var hits = [Int: Int]()
    for y in 0..<layout.contentHeight {
        for x in 0..<97 {
            if let i = layout.item(atX: x, y: y) {
                #expect(layout.frame(ofItem: i).contains(x: x, y: y))
                hits[i, default: 0] += 1
            }
        }
    }
    for i in 0..<layout.itemCount {
        let f = layout.frame(ofItem: i)
        #expect(hits[i] == f.width * f.height, "item \(i)")
    }
}

@Test func aMillionItemsBuildAndAnswerQueries() {
    let layout = GridLayout(sectionCounts: Array(repeating: 1000, count: 1000), spec: .standard, width: 200)
    #expect(layout.itemCount == 1_000_000)
    let middle = layout.frame(ofItem: 500_000)
    let visible = layout.visibleItems(offset: middle.y, height: 50)
    #expect(visible.contains(500_000))
    #expect(visible.count < 100)
}

@Test(arguments: specs.indices)
func collapsedSectionsAndFootersKeepEveryShownItemPlacedOnceWithoutOverlap(specIndex: Int) {
    let metrics = TileMetrics(footerHeight: 1)
    for width in stride(from: 1, through: 300, by: 7) {
        for collapsed in [Set<Int>(), [0], [3, 5], Set(sectionCounts.indices)] {
            let layout = GridLayout(sectionCounts: sectionCounts, spec: specs[specIndex], width: width, metrics: metrics, collapsed: collapsed)
            let shown = (0..<layout.itemCount).filter(layout.isShown)
            #expect(shown.count == sectionCounts.enumerated().filter { !collapsed.contains($0.offset) }.reduce(0) { $0 + $1.element })
            let frames = expectLayoutInvariants(layout, crossLength: width, "width \(width), collapsed \(collapsed)")
            for s in 0..<layout.sectionCount {
                let header = Rect(x: 0, y: layout.headerTop(ofSection: s), width: width, height: 1)
                if !collapsed.contains(s) {
                    let footer = Rect(x: 0, y: layout.footerTop(ofSection: s), width: width, height: 1)
                    #expect(!frames.contains { $0.intersects(footer) } && !footer.intersects(header), "footer \(s) at width \(width)")
                }
            }
            // What is visible, by brute force, is what the query says, less hidden items.
            for offset in stride(from: 0, to: layout.contentHeight, by: 5) {
                let range = layout.visibleItems(offset: offset, height: 12)
                let expected = shown.filter {
                    let f = layout.frame(ofItem: $0); return f.maxY > offset && f.y < offset + 12
                }
                #expect(range.filter(layout.isShown) == expected, "offset \(offset) width \(width) collapsed \(collapsed)")
            }
        }
    }
}
