import LightboxApp
import LightboxTerminal
import LightboxTestSupport
import LightboxView
import Testing

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
    FrameImage(
        id: id, pixelWidth: 16, pixelHeight: 16, pixels: noise(16 * 16 * 3),
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
    var big = FrameImage(
        id: 7, pixelWidth: 64, pixelHeight: 64, pixels: noise(64 * 64 * 3),
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
    queue.enqueue([
        PictureWrite(.paint(a), bytes: [1]), PictureWrite(.paint(b), bytes: [2]), PictureWrite(.command, bytes: [9]),
        PictureWrite(.paint(c), bytes: [3]),
    ])
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
    let cursorTile = state.layout.frame(ofItem: state.viewport.cursor)
    #expect(frame.images.first.map { abs($0.x - cursorTile.x) < cursorTile.width } == true, "the cursor's picture leads")
}

@Test func theLinksSpeedIsMeasuredBetweenRefusals() {
    var meter = LinkMeter()
    // A terminal that keeps up never refuses: no figure.
    for step in 0..<20 { meter.record(bytes: 50_000, blocked: false, at: Double(step) * 0.1) }
    #expect(meter.kilobitsPerSecond == nil)
    // Refusals a second apart: the buffer may have run empty between them, no figure either.
    for step in 0..<4 { meter.record(bytes: 20_000, blocked: true, at: 3 + Double(step)) }
    #expect(meter.kilobitsPerSecond == nil)
    // Full at 1.25 MB/s (10 Mbit/s): 25 kB taken every 20 ms, each time up to a refusal, and
    // between them rounds that found room (the queue ran empty and filled again).
    for step in 0...60 {
        meter.record(bytes: 20_000, blocked: true, at: 10 + Double(step) * 0.02)
        meter.record(bytes: 5_000, blocked: false, at: 10 + Double(step) * 0.02 + 0.01)
    }
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

@Test func aFrameScrolledByWholeLinesIsFoundFromItsPicturesWithItsBand() {
    // A header row, twenty numbered rows with a picture on rows 5 and 6, a status row; then the
    // numbered rows moved up by 3, or down by 2.
    func screen(first: Int) -> Frame {
        var frame = Frame(width: 12, height: 22)
        frame.write("header", x: 0, y: 0, style: CellStyle())
        for y in 1...20 { frame.write("row \(first + y)", x: 0, y: y, style: CellStyle()) }
        frame.write("status", x: 0, y: 21, style: CellStyle())
        frame.images = [tile(1, x: 8, y: 5 - first)]
        return frame
    }
    let old = screen(first: 0)
    #expect(screen(first: 3).scroll(from: old) == LineScroll(rows: 1..<21, lines: 3), "up 3 between the header and the status line")
    #expect(screen(first: -2).scroll(from: old) == LineScroll(rows: 1..<21, lines: -2), "down 2")
    #expect(old.scroll(from: old) == nil, "nothing moved")
    var unmovedPicture = screen(first: 3)
    unmovedPicture.images = old.images
    #expect(unmovedPicture.scroll(from: old) == nil, "rows alike but no picture moved: nothing to gain")
    let scroll = LineScroll(rows: 1..<21, lines: 3)
    #expect(scroll.destination(of: 10) == 7 && scroll.destination(of: 2) == nil && scroll.destination(of: 0) == 0)
}

@Test func aSixelPictureScrolledWithItsRowsIsNotPaintedAgainOnlyTheRowsThatCameIn() {
    var painter = ImagePainter(mode: .sixel, cellPixels: CellPixelSize(width: 4, height: 8))
    // A 4x4-cell picture at rows 10...13, whose last row was cut off by the band's end at 13.
    func picture(y: Int, shown: Range<Int>) -> FrameImage {
        FrameImage(id: 5, pixelWidth: 16, pixelHeight: 32, pixels: noise(16 * 32 * 3), x: 2, y: y, columns: 4, rows: 4, visibleRows: shown)
    }
    let before = frame([picture(y: 6, shown: 0..<3), tile(6, x: 20, y: 1)])
    let whole = painter.writes(for: before, repaintedRows: [])
    #expect(whole.count == 2)
    // The terminal scrolled rows 0..<9 up by 2: the picture moved to rows 4...6 and its last row came in at 7.
    let rows = painter.scrolled(LineScroll(rows: 0..<9, lines: 2))
    #expect(rows.isEmpty, "nothing cut by the band's edge: \(rows)")
    let after = frame([picture(y: 4, shown: 0..<4)])
    let repaint = painter.repaintRows(for: after)
    #expect(repaint == [0], "tile 6 moved to row -1 and out: its row goes, \(repaint)")
    let writes = painter.writes(for: after, repaintedRows: repaint)
    #expect(writes.count == 1 && writes[0].image?.visibleRows == 3..<4, "only the row that came in: \(writes.map { $0.image?.visibleRows ?? 0..<0 })")
    let painted = SixelReader.pictures(in: writes[0].bytes)
    #expect(painted.count == 1 && painted[0].row == 8 && painted[0].picture.height == 8, "at screen row 7 (1-based 8), one cell tall")
    var fresh = ImagePainter(mode: .sixel, cellPixels: CellPixelSize(width: 4, height: 8))
    let wholeBytes = fresh.finish(after, repaintedRows: []).count
    #expect(writes[0].bytes.count * 2 < wholeBytes, "\(writes[0].bytes.count) bytes against \(wholeBytes) for the whole picture")
    // A band that cuts through a picture: its rows, before and after, are painted again.
    var cut = ImagePainter(mode: .sixel, cellPixels: CellPixelSize(width: 4, height: 8))
    _ = cut.writes(for: frame([picture(y: 6, shown: 0..<4)]), repaintedRows: [])
    #expect(cut.scrolled(LineScroll(rows: 0..<8, lines: 1)) == [5, 6, 7, 8, 9])
}

@Test func wheelScrollingInSixelPaintsOnlyTheRowsThatCameIn() {
    // 160x48 cells of 4x8 pixels: tiles whose pictures are shorter than their boxes, so a tile
    // can show its label and none of its picture (this used to crash drawing an empty range).
    var (state, _) = pixelState(.sixel, counts: [200], width: 160, height: 48)
    var painter = ImagePainter(mode: .sixel, cellPixels: state.pictures.cellPixels)
    var last = GalleryView.frame(for: state)
    _ = painter.writes(for: last, repaintedRows: [])
    var rowsPainted = 0
    for _ in 0..<6 {
        var effects = state.apply(.scroll(lines: 3))
        decodeAll(&state, into: &effects)
        let next = GalleryView.frame(for: state)
        guard let scroll = next.scroll(from: last) else { Issue.record("no scroll found at offset \(state.viewport.offset)"); return }
        #expect(scroll.lines == 3)
        let forced = painter.scrolled(scroll)
        let rows = Array(Set(painter.repaintRows(for: next) + forced)).sorted()
        #expect(rows.isEmpty, "nothing cut or left behind: \(rows)")
        let writes = painter.writes(for: next, repaintedRows: rows)
        // Each column of tiles gets at most the three rows that came in.
        var byColumn: [Int: Int] = [:]
        for write in writes { byColumn[write.image!.x, default: 0] += write.image!.visibleRows.count }
        #expect(byColumn.values.allSatisfy { $0 <= 3 }, "\(byColumn)")
        #expect(writes.allSatisfy { $0.image!.screenRows.lowerBound >= 44 }, "only at the bottom: \(writes.map { $0.image!.screenRows })")
        rowsPainted += byColumn.values.max() ?? 0
        last = next
    }
    #expect(rowsPainted > 0 && rowsPainted <= 18)
}

@Test func cellsWaitForABegunPictureGoBeforeThoseNotBegunAndAreNeverDropped() {
    var queue = PictureQueue()
    var terminal = SlowTerminal(rate: 3)
    let a = tile(1, x: 0), b = tile(2, x: 5)
    queue.enqueue([PictureWrite(.paint(a), bytes: [1, 1, 1, 1, 1, 1]), PictureWrite(.paint(b), bytes: [2, 2])])
    queue.pump { terminal.take($0) }
    #expect(terminal.received == [1, 1, 1] && queue.isMidWrite)
    // A frame's cells come while picture 1 is half written: they wait for its end, then go before 2.
    queue.enqueueCells([7, 7, 7, 7])
    #expect(queue.hasCellsWaiting && queue.bytesWaiting == 3 + 4 + 2)
    #expect(queue.replan(for: frame([])).compactMap(\.image?.id) == [2], "the picture no frame shows is dropped, the cells stay")
    while !queue.isEmpty { queue.pump { terminal.take($0) } }
    #expect(terminal.received == [1, 1, 1, 1, 1, 1, 7, 7, 7, 7])
    // Cells begun are finished before a picture, even one that came first in the queue's order.
    terminal.received = []
    queue.enqueueCells([8, 8, 8, 8])
    queue.pump(limit: 2) { terminal.take($0) }
    queue.enqueue([PictureWrite(.paint(b), bytes: [2, 2])])
    queue.enqueueCells([9])
    while !queue.isEmpty { queue.pump { terminal.take($0) } }
    #expect(terminal.received == [8, 8, 8, 8, 9, 2, 2])
}

@Test func aPictureAbandonedWhenTheTerminalIsGivenBackHasItsStringEnded() {
    var queue = PictureQueue()
    var terminal = SlowTerminal(rate: 2)
    queue.enqueue([PictureWrite(.paint(tile(1, x: 0)), bytes: Array("\u{1B}Pq#0~~~~".utf8))])
    queue.pump { terminal.take($0) }
    queue.enqueueCells(Array("\u{1B}[?1049l".utf8))
    #expect(queue.abandonBegun()?.image?.id == 1 && queue.abandonBegun() == nil)
    while !queue.isEmpty { queue.pump { terminal.take($0) } }
    #expect(String(decoding: terminal.received, as: UTF8.self) == "\u{1B}P\u{1B}\\\u{1B}[?1049l", "the sixel string ended, then the cells")
}

/// Pictures made side by side (several cores) are byte for byte what one made after another
/// are, in their order, in each protocol.
@Test func picturesMadeSideBySideAreThoseMadeInTurn() {
    let images = (0..<5).map { i in
        FrameImage(
            id: UInt32(10 + i), pixelWidth: 16, pixelHeight: 16,
            pixels: TestImages.halves(width: 16, height: 16, left: (UInt8(i * 40), 20, 200), right: (250, UInt8(i * 30), 0)),
            x: i * 4, y: 0, columns: 4, rows: 2, visibleRows: 0..<2)
    }
    for mode in [PixelProtocol.kitty, .sixel, .iterm] {
        let encoding = ImagePainter(mode: mode, cellPixels: CellPixelSize(width: 4, height: 8)).encoding
        let together = encoding.preparedSideBySide(images).map(\.bytes)
        #expect(together == images.map { encoding.prepared($0).bytes } && Set(together).count == 5, "\(mode)")
    }
}
