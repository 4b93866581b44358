import Testing
import LightboxApp
import LightboxTerminal
import LightboxTestSupport
import LightboxView

/// A terminal at the end of a slow link: takes at most `rate` bytes each time it is written to.
struct SlowTerminal {
    var rate: Int
    var received: [UInt8] = []

    mutating func take(_ bytes: ArraySlice<UInt8>) -> Int {
        let taken = min(rate, bytes.count)
        received += bytes.prefix(taken)
        return taken
    }
}

/// Bytes that compress badly, so a picture of them takes many writes.
func noise(_ count: Int) -> [UInt8] {
    var state: UInt64 = 88_172_645_463_325_252
    return (0..<count).map { _ in
        state ^= state << 13; state ^= state >> 7; state ^= state << 17  // xorshift
        return UInt8(truncatingIfNeeded: state >> 24)
    }
}

/// A picture of `id` on a 4x2-cell box at column `x` (4x8-pixel cells).
func tile(_ id: UInt32, x: Int, y: Int = 0) -> FrameImage {
    FrameImage(id: id, pixelWidth: 16, pixelHeight: 16, pixels: noise(16 * 16 * 3),
               x: x, y: y, columns: 4, rows: 2, visibleRows: 0..<2)
}

func frame(_ images: [FrameImage]) -> Frame {
    var frame = Frame(width: 40, height: 10)
    frame.images = images
    return frame
}

@Test func cellsNeverGoInsideASixelPictureAndPicturesLeftBehindAreNeverSent() {
    var painter = ImagePainter(mode: .sixel, cellPixels: CellPixelSize(width: 4, height: 8))
    var queue = PictureQueue()
    var terminal = SlowTerminal(rate: 100)
    let first = frame([tile(1, x: 0), tile(2, x: 5), tile(3, x: 10)])
    queue.enqueue(painter.writes(for: first, repaintedRows: []))
    #expect(queue.picturesWaiting == 3)
    let round = queue.pump { terminal.take($0) }
    #expect(round.blocked && round.written == 100 && !queue.mayWriteCells, "the terminal took part of the first picture: cells must wait")

    // The user moved on: pictures 2 and 3 are not shown any more, 1 is begun and is finished.
    let next = frame([tile(4, x: 0, y: 4)])
    let dropped = queue.replan(for: next)
    #expect(dropped.compactMap(\.image?.id) == [2, 3])
    for write in dropped { painter.unsent(write) }
    while !queue.mayWriteCells { queue.pump(toBreak: true) { terminal.take($0) } }
    #expect(queue.isEmpty && SixelReader.pictures(in: terminal.received).count == 1, "picture 1 whole, nothing of 2 and 3")
    #expect(terminal.received.last == 0x38 && terminal.received.suffix(2) == [0x1B, 0x38], "ends restoring the cursor")

    // The painter knows 2 and 3 never reached the terminal, and 1 did.
    let again = painter.writes(for: first, repaintedRows: [])
    #expect(Set(again.compactMap(\.image?.id)) == [2, 3])
}

@Test func aKittyImageOnceBegunIsAlwaysFinishedButCellsMayComeBetweenItsChunks() throws {
    var painter = ImagePainter(mode: .kitty, cellPixels: CellPixelSize(width: 4, height: 8))
    var queue = PictureQueue()
    var terminal = SlowTerminal(rate: 1000)
    // A noisy picture, so its PNG needs several 4096-byte chunks.
    var big = FrameImage(id: 7, pixelWidth: 64, pixelHeight: 64, pixels: noise(64 * 64 * 3),
                         x: 0, y: 0, columns: 16, rows: 8, visibleRows: 0..<8)
    big.isTransient = false
    queue.enqueue(painter.writes(for: frame([big, tile(8, x: 20)]), repaintedRows: []))
    let write = try #require(queue.writes.first)
    #expect(write.breaks.count >= 2, "chunks: \(write.breaks) of \(write.bytes.count) bytes")

    queue.pump(limit: 1500) { terminal.take($0) }
    #expect(queue.isMidWrite && !queue.mayWriteCells)
    while !queue.mayWriteCells { queue.pump(toBreak: true) { terminal.take($0) } }
    #expect(queue.mayWriteCells && queue.isMidWrite, "at a chunk's end: cells may go, the image is not done")

    // A frame without either picture: 8 is dropped, 7 is finished.
    let dropped = queue.replan(for: frame([]))
    #expect(dropped.compactMap(\.image?.id) == [8] && queue.picturesWaiting == 1)
    while !queue.isEmpty { queue.pump { terminal.take($0) } }
    let text = String(decoding: terminal.received, as: UTF8.self)
    #expect(text.hasPrefix("\u{1B}_Ga=T,") && text.hasSuffix("\u{1B}\\") && text.contains("m=0;"), "one whole transmission")
    #expect(!text.contains("i=8"), "the picture left behind was never sent")
    for write in dropped { painter.unsent(write) }
    #expect(painter.transmitted[8] == nil && painter.transmitted[7] != nil)
}

@Test func theCursorsPictureGoesFirstAndCommandsBeforePictures() {
    var queue = PictureQueue()
    let a = tile(1, x: 0), b = tile(2, x: 5), c = tile(3, x: 10)
    queue.enqueue([PictureWrite(.paint(a), bytes: [1]), PictureWrite(.paint(b), bytes: [2]), PictureWrite(.command, bytes: [9]),
                   PictureWrite(.paint(c), bytes: [3])])
    // The frame lists the cursor's picture (c) first.
    #expect(queue.replan(for: frame([c, a, b])).isEmpty)
    #expect(queue.writes.map(\.bytes) == [[9], [3], [1], [2]])
    var terminal = SlowTerminal(rate: 10)
    queue.pump { terminal.take($0) }
    #expect(terminal.received == [9, 3, 1, 2] && queue.isEmpty)
}

@Test func theCursorTilesPictureIsTheFrameFirst() {
    var (state, _) = pixelState(.sixel, counts: [12])
    for _ in 0..<4 { _ = state.apply(.move(.right)) }
    let frame = GalleryView.frame(for: state)
    #expect(frame.images.count > 4)
    let cursorTile = state.layout.frame(ofItem: state.cursor)
    #expect(frame.images.first.map { abs($0.x - cursorTile.x) < cursorTile.width } == true, "the cursor's picture leads")
}

@Test func theLinksSpeedIsMeasuredOnlyWhileOutputWaits() {
    var meter = LinkMeter()
    // A terminal that keeps up: no figure.
    for step in 0..<20 { meter.record(bytes: 50_000, blocked: false, waiting: step < 19, at: Double(step) * 0.1) }
    #expect(meter.kilobitsPerSecond == nil)
    // Full at 1.25 MB/s (10 Mbit/s): written in 25 kB rounds every 20 ms.
    for step in 0...60 { meter.record(bytes: 25_000, blocked: true, waiting: true, at: 10 + Double(step) * 0.02) }
    let figure = meter.kilobitsPerSecond ?? 0
    #expect(figure > 9_000 && figure < 11_000, "\(figure) kbit/s")
}

@Test func theStatusLineSaysHowManyPicturesAreOnTheirWayAndAMeasuredSlowLinkHalvesThem() {
    var (state, _) = pixelState(.kitty, counts: [6])
    _ = state.apply(.picturesWaiting(3, measuredLinkSpeed: nil))
    #expect(GalleryView.frame(for: state).lines.last?.contains("↓3 pictures on the way") == true)
    #expect(state.pictures.reduction == 1)
    _ = state.apply(.picturesWaiting(0, measuredLinkSpeed: 8_000))
    let status = GalleryView.frame(for: state).lines.last ?? ""
    #expect(!status.contains("on the way") && status.contains("½ res") && state.pictures.reduction == 2)
}
