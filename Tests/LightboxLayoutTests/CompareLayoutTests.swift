import Testing

@testable import LightboxLayout

/// For 1 to 4 photos of shapes from tall to panoramic, on screens from 40x12 to 300x100: one
/// pane each, inside the screen, none overlapping, each with a picture cell and its caption,
/// and no other arrangement showing the pictures larger.
@Test func comparePanesFillTheScreenWithoutOverlapInTheLargestArrangement() {
    for count in 1...4 {
        for width in stride(from: 40, through: 300, by: 13) {
            for height in stride(from: 12, through: 100, by: 11) {
                for aspect in [0.5, 1.0, 1.5, 3.0, 6.0] {
                    let panes = CompareLayout.panes(count: count, width: width, height: height, aspect: aspect)
                    let place = "\(count) at \(width)x\(height), aspect \(aspect)"
                    #expect(panes.count == count, "\(place)")
                    for (i, pane) in panes.enumerated() {
                        #expect(pane.x >= 0 && pane.y >= 0 && pane.maxX <= width && pane.maxY <= height, "\(place): pane \(i) inside")
                        #expect(CompareLayout.picture(of: pane).height >= 1 && pane.width >= 1, "\(place): pane \(i) has a picture")
                        for other in panes[(i + 1)...] { #expect(!pane.intersects(other), "\(place): panes overlap") }
                    }
                    // Reading order: left to right, then down.
                    #expect(panes == panes.sorted { ($0.y, $0.x) < ($1.y, $1.x) }, "\(place)")
                    let chosen = CompareLayout.bestColumns(count: count, width: width, height: height, aspect: aspect)!
                    let area = CompareLayout.pictureArea(columns: chosen, count: count, width: width, height: height, aspect: aspect)
                    for columns in 1...count {
                        let other = CompareLayout.pictureArea(columns: columns, count: count, width: width, height: height, aspect: aspect)
                        #expect(other <= area * 1.0001, "\(place): \(columns) columns show more than \(chosen)")
                    }
                }
            }
        }
    }
}

/// What a user expects: two 3:2 photos (3.0 in cells twice as tall as wide) side by side on a
/// wide terminal, one above the other on a tall one; four in a 2x2 on 300x100; three with two
/// columns put the third in the middle under the others.
@Test func comparePanesAreSideBySideOnWideScreensAndStackedOnTallOnes() {
    let wide = CompareLayout.panes(count: 2, width: 160, height: 47, aspect: 3.0)
    #expect(wide == [Rect(x: 0, y: 0, width: 79, height: 47), Rect(x: 80, y: 0, width: 79, height: 47)])
    let tall = CompareLayout.panes(count: 2, width: 60, height: 80, aspect: 3.0)
    #expect(tall.map(\.x) == [0, 0] && tall[1].y == tall[0].maxY)
    let four = CompareLayout.panes(count: 4, width: 300, height: 100, aspect: 3.0)
    #expect(Set(four.map(\.x)).count == 2 && Set(four.map(\.y)).count == 2)
    let three = CompareLayout.panes(count: 3, width: 60, height: 60, aspect: 1.0)
    #expect(three.count == 3 && three[2].y > three[0].y && three[0].y == three[1].y)
    #expect(abs(three[2].x + three[2].width / 2 - 30) <= 1, "the third in the middle")
    #expect(CompareLayout.panes(count: 3, width: 100, height: 60, aspect: 1.0).map(\.y) == [0, 0, 0], "square photos on a wide screen: a row")
    #expect(CompareLayout.panes(count: 2, width: 3, height: 1, aspect: 1).isEmpty, "no room for a picture")
}
