import Testing

@testable import LightboxLayout

/// What every `TileLayout` keeps, whatever its kind: each shown item placed inside the content
/// (along the axis, within `contentHeight`; across it, within `crossLength`), overlapping no other
/// item and no section's header. Returns the shown items' frames, for checks of the kind's own.
@discardableResult
func expectLayoutInvariants(_ layout: any TileLayout, crossLength: Int, _ context: String) -> [Rect] {
    let shown = (0..<layout.itemCount).filter(layout.isShown)
    let frames = shown.map(layout.frame(ofItem:))
    for (i, a) in frames.enumerated() {
        let (alongStart, alongEnd) = layout.axis == .vertical ? (a.y, a.maxY) : (a.x, a.maxX)
        let (acrossStart, acrossEnd) = layout.axis == .vertical ? (a.x, a.maxX) : (a.y, a.maxY)
        #expect(alongStart >= 0 && alongEnd <= layout.contentHeight, "item \(shown[i]) past the content: \(context)")
        #expect(acrossStart >= 0 && acrossEnd <= crossLength, "item \(shown[i]) outside \(crossLength) cells: \(context)")
        for j in (i + 1)..<frames.count where a.intersects(frames[j]) {
            Issue.record("items \(shown[i]) and \(shown[j]) overlap: \(context)")
        }
    }
    for s in 0..<layout.sectionCount {
        #expect(!frames.contains { $0.intersects(layout.headerFrame(ofSection: s)) }, "header \(s) covers a tile: \(context)")
    }
    return frames
}
