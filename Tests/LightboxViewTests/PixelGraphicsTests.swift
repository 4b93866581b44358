import Foundation
import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxTestSupport
import LightboxThumbnails
import LightboxView
import Testing

/// A state in `graphics` with every wanted thumbnail decoded as a flat colour of its own.
func pixelState(
    _ graphics: Graphics, counts: [Int] = [6, 6], width: Int = 60, height: Int = 20, cacheBudget: Int = 128 << 20,
    actions: [Command] = []
) -> (GalleryState, [Effect]) {
    var state = GalleryState(
        library: library(counts), spec: spec, width: width, height: height, cacheBudget: cacheBudget,
        settings: settings {
            $0.graphics = graphics; $0.cellPixels = CellPixelSize(width: 4, height: 8)
        })
    var effects = state.initialEffects()
    for action in actions { effects += state.apply(action) }
    decodeAll(&state, into: &effects)
    return (state, effects)
}

/// `request` decoded as one colour at its box (a part of a photo, to tell it from the fitted picture).
func decodeSolid(_ request: DecodeRequest, _ color: (UInt8, UInt8, UInt8), in state: inout GalleryState) {
    let (w, h) = (request.box.width, request.box.height)
    _ = state.apply(.decoded(request, .decoded(Thumbnail(width: w, height: h, pixels: TestImages.solid(width: w, height: h, color.0, color.1, color.2)))))
}

func decodeAll(_ state: inout GalleryState, into effects: inout [Effect]) {
    for request in state.store.demand {
        let (w, h) = (request.box.width, request.box.height * 3 / 4)
        let shade = UInt8(40 + request.id.rawValue * 15 % 200)
        effects += state.apply(
            .decoded(request, .decoded(Thumbnail(width: w, height: h, pixels: TestImages.solid(width: w, height: h, shade, 200, 255 - shade)))))
    }
}

@Test func theTerminalsAnswersAreRead() {
    let kitty = TerminalReport(parsing: Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;22c".utf8))
    #expect(kitty.hasKittyGraphics && !kitty.hasSixel && kitty.isComplete)
    #expect(kitty.name == "kitty(0.26.5)" && kitty.cellPixels == CellPixelSize(width: 10, height: 20))
    let xterm = TerminalReport(parsing: Array("junk\u{1B}[?1;0;16S\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4;6;9;15;16;22;28c".utf8))
    #expect(xterm.hasSixel && !xterm.hasKittyGraphics && xterm.colorRegisters == 16 && xterm.isComplete)
    let tmux = TerminalReport(parsing: Array("\u{1B}[?1;2c".utf8))
    #expect(!tmux.hasSixel && !tmux.hasKittyGraphics && tmux.isComplete)
    let refused = TerminalReport(parsing: Array("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?4;6c".utf8))
    #expect(!refused.hasKittyGraphics && !refused.hasSixel, "4 as the class is not sixel")
    #expect(!TerminalReport(parsing: Array("\u{1B}[?62;4".utf8)).isComplete, "cut short: still waiting")
    // Escapes in the name never reach the screen.
    #expect(
        TerminalReport(parsing: Array("\u{1B}P>|evil\u{7}\u{1B}]0;x\u{1B}\\".utf8)).name?.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\u{7F}" }
            == true)
}

@Test func autoPrefersKittyThenITermThenSixelThenSymbols() {
    var report = TerminalReport()
    report.isComplete = true
    #expect(Graphics.detected(report, environment: [:], isUnicode: true) == .quadrant)
    #expect(Graphics.detected(report, environment: [:], isUnicode: false) == .half)
    report.hasSixel = true
    #expect(Graphics.detected(report, environment: [:], isUnicode: true) == .sixel)
    report.hasKittyGraphics = true
    #expect(Graphics.detected(report, environment: [:], isUnicode: true) == .sixel, "no name: placeholders unknown")
    for (name, graphics) in [
        ("kitty(0.35.2)", Graphics.kitty), ("kitty(0.28.0)", .kitty), ("ghostty 1.1.3", .kitty),
        ("kitty(0.26.5)", .sixel), ("WezTerm 20240203", .iterm), ("Konsole 23.08.5", .iterm), ("XTerm(379)", .sixel),
    ] {
        report.name = name
        #expect(Graphics.detected(report, environment: [:], isUnicode: true) == graphics, "\(name)")
    }
    // Inside tmux the answers are tmux's: the outer terminal's name decides.
    let inTmux = TerminalReport(parsing: Array("\u{1B}[?1;2c".utf8))
    #expect(Graphics.detected(inTmux, environment: ["TMUX": "/tmp/x", "KITTY_WINDOW_ID": "1"], isUnicode: true) == .kitty)
    #expect(Graphics.detected(inTmux, environment: ["TMUX": "/tmp/x"], isUnicode: true) == .quadrant)
    #expect(Graphics.detected(nil, environment: [:], isUnicode: true) == .quadrant, "no terminal to ask")
    // Over SSH or in tmux, what the environment forwarded names an iTerm2-image terminal.
    #expect(Graphics.detected(inTmux, environment: ["TMUX": "/tmp/x", "TERM_PROGRAM": "WezTerm"], isUnicode: true) == .iterm)
    #expect(Graphics.detected(nil, environment: ["LC_TERMINAL": "iTerm2"], isUnicode: true) == .iterm)
    var plain = TerminalReport()
    plain.isComplete = true
    plain.hasSixel = true
    #expect(Graphics.detected(plain, environment: ["TERM": "mlterm"], isUnicode: true) == .iterm, "mlterm: by TERM")
    #expect(Graphics.detected(plain, environment: ["TERM": "xterm-256color"], isUnicode: true) == .sixel)
}

@Test func kittyPicturesArePlaceholderCellsNamingTheirImage() {
    let (state, _) = pixelState(.kitty)
    let frame = GalleryView.frame(for: state)
    #expect(!frame.images.isEmpty)
    for image in frame.images {
        // Every cell of the shown part is a placeholder with its row and column, coloured with the id.
        for row in image.visibleRows {
            for column in image.visibleColumns {
                let cell = frame[image.x + column, image.y + row]
                let scalars = Array(cell.glyph.unicodeScalars)
                #expect(scalars.first == KittyGraphics.placeholder && scalars.count == 3)
                #expect(cell == KittyGraphics.placeholderCell(id: image.id, row: row, column: column, directColor: true))
                #expect(cell.style.foreground == .rgb(UInt8(image.id >> 16 & 0xFF), UInt8(image.id >> 8 & 0xFF), UInt8(image.id & 0xFF)))
            }
        }
        #expect(image.columns * state.pictures.cellPixels.width >= image.pixelWidth && image.rows * state.pictures.cellPixels.height >= image.pixelHeight)
    }
    #expect(Set(frame.images.map(\.id)).count == frame.images.count, "one id a picture")
    // The pinned header and the status line are text, never placeholders.
    #expect(!frame.lines[0].unicodeScalars.contains(KittyGraphics.placeholder))
    #expect(!frame.lines[frame.height - 1].unicodeScalars.contains(KittyGraphics.placeholder))
}

@Test func kittyImagesAreSentOnceAndDeletedWhenTheyLeaveTheCache() {
    // A cache that holds about one screen: scrolling a long way evicts what was shown first.
    let (first, _) = pixelState(.kitty, counts: [60], width: 60, height: 20, cacheBudget: 200_000)
    var state = first
    var painter = ImagePainter(mode: .kitty)
    let frame = GalleryView.frame(for: state)
    let sent = painter.prepare(frame).bytes
    let transmissions = String(decoding: sent, as: UTF8.self).components(separatedBy: "\u{1B}_Ga=T,U=1,q=2,f=100,").count - 1
    #expect(transmissions == frame.images.count && transmissions > 0)
    for image in frame.images {
        #expect(String(decoding: sent, as: UTF8.self).contains("i=\(image.id),c=\(image.columns),r=\(image.rows)"))
    }
    #expect(painter.prepare(frame).bytes.isEmpty, "the same frame again sends nothing")
    // Scroll far: new pictures are sent, the evicted ones deleted, and only those.
    var forgotten: [UInt32] = []
    for _ in 0..<8 {
        var effects = state.apply(.pageDown)
        decodeAll(&state, into: &effects)
        for case .forgetImages(let ids) in effects { forgotten += ids }
        _ = painter.prepare(GalleryView.frame(for: state))
    }
    #expect(!forgotten.isEmpty)
    let deletes = String(decoding: painter.forget(forgotten).joinedBytes, as: UTF8.self)
    for image in frame.images where forgotten.contains(image.id) {
        #expect(deletes.contains("\u{1B}_Ga=d,d=I,q=2,i=\(image.id)\u{1B}\\"))
    }
    #expect(painter.transmitted.count <= state.store.cache.count, "the terminal holds no more than the cache")
    #expect(painter.forget(forgotten).isEmpty, "deleted once")
}

@Test func kittyCommandsGoThroughTmuxWrapped() {
    let image = FrameImage(id: 9, pixelWidth: 1, pixelHeight: 1, pixels: [1, 2, 3], x: 0, y: 0, columns: 1, rows: 1, visibleRows: 0..<1)
    let wrapped = KittyGraphics.transmit(image, inTmux: true)
    #expect(wrapped.starts(with: Array("\u{1B}Ptmux;\u{1B}\u{1B}_G".utf8)))
    #expect(Array(wrapped.suffix(5)) == [0x1B, 0x1B, 0x5C, 0x1B, 0x5C], "the inner ESC doubled, then the end of the passthrough")
    #expect(String(decoding: wrapped, as: UTF8.self).contains(";iVBORw0KGgo"), "a PNG, in base64")
}

@Test func kittyPicturesGoAsPNGsThatDecodeToTheirPixels() throws {
    var pixels: [UInt8] = []
    for y in 0..<30 { for x in 0..<40 { pixels += [UInt8(x * 6), UInt8(y * 8), UInt8((x * y) % 256)] } }
    let image = FrameImage(id: 5, pixelWidth: 40, pixelHeight: 30, pixels: pixels, x: 0, y: 0, columns: 4, rows: 2, visibleRows: 0..<2)
    let sent = String(decoding: KittyGraphics.transmit(image, inTmux: false), as: UTF8.self)
    #expect(sent.hasPrefix("\u{1B}_Ga=T,U=1,q=2,f=100,i=5,c=4,r=2,m="))
    // The payloads of the chunks, joined and decoded, are a PNG of exactly these pixels.
    let payload = sent.components(separatedBy: "\u{1B}_G").dropFirst().map { $0.split(separator: ";", maxSplits: 1).last.map { String($0.dropLast(2)) } ?? "" }
        .joined()
    let png = try #require(Data(base64Encoded: payload))
    let decoded = try #require(PNGDecoder.decode(Array(png)))
    #expect(decoded.width == 40 && decoded.height == 30 && decoded.pixels == pixels)
    #expect(png.count < pixels.count / 2, "smaller than the RGB: \(png.count) bytes")
}

@Test func sixelRoundTripsAPictureOfFewColours() {
    // Four colour bands, 13 rows (not a multiple of six): every pixel comes back, none beyond.
    let width = 7, height = 13
    var pixels: [UInt8] = []
    let colors: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    for y in 0..<height { for x in 0..<width { let c = colors[(x + y) % 4]; pixels += [c.0, c.1, c.2] } }
    let bytes = Sixel.encode(pixels: pixels, width: width, registers: 16)
    let pictures = SixelReader.pictures(in: bytes)
    #expect(pictures.count == 1)
    guard let picture = pictures.first?.picture else { return }
    #expect(picture.width == width && picture.height == height)
    for y in 0..<height {
        for x in 0..<width {
            let want = colors[(x + y) % 4], got = picture.pixel(x: x, y: y)
            #expect(got.map { $0 == want } == true, "(\(x), \(y)): \(String(describing: got))")
        }
    }
    // Fewer registers than colours: still every pixel, in the nearest of two.
    let two = SixelReader.pictures(in: Sixel.encode(pixels: pixels, width: width, registers: 2))
    #expect(two.first?.picture.pixels.allSatisfy { $0 != nil } == true)
    #expect(bytes.count < 400, "runs are compressed: \(bytes.count) bytes")
}

@Test func sixelTilesArePaintedAtTheirCellsAndRepaintedOnlyWhenTheyMove() {
    var (state, _) = pixelState(.sixel, counts: [40])
    var painter = ImagePainter(mode: .sixel, cellPixels: state.pictures.cellPixels)
    let frame = GalleryView.frame(for: state)
    #expect(painter.prepare(frame).repaintRows.isEmpty)
    let painted = SixelReader.pictures(in: painter.finish(frame, repaintedRows: []))
    #expect(painted.count == frame.images.count && !painted.isEmpty)
    for (image, (row, column, picture)) in zip(frame.images, painted) {
        #expect(row == image.y + image.visibleRows.lowerBound + 1 && column == image.x + 1)
        #expect(picture.height == min(image.pixelHeight, image.visibleRows.count * state.pictures.cellPixels.height))
        let shade = picture.pixel(x: 0, y: 0)
        #expect(shade.map { abs(Int($0.1) - 200) <= 2 } == true, "the tile's own colour (registers are in percent)")
    }
    #expect(painter.finish(frame, repaintedRows: []).isEmpty, "nothing moved: nothing painted")
    // Scrolling a line: the old rows are repainted by the backend, every moved tile painted again.
    var effects = state.apply(.scroll(lines: 1))
    decodeAll(&state, into: &effects)
    let moved = GalleryView.frame(for: state)
    let rows = painter.prepare(moved).repaintRows
    #expect(Set(frame.images.flatMap { Array($0.screenRows) }).isSubset(of: Set(rows)))
    #expect(SixelReader.pictures(in: painter.finish(moved, repaintedRows: rows)).count == moved.images.count)
}

@Test func picturesNeverCoverThePinnedHeaderOrTheHelp() {
    // Scrolled into a section: tiles slide under its pinned header, which stays text.
    var (state, _) = pixelState(.sixel, counts: [40], actions: [.scroll(lines: 3)])
    var effects: [Effect] = []
    decodeAll(&state, into: &effects)
    let frame = GalleryView.frame(for: state)
    #expect(frame.lines[0].contains("day1"))
    #expect(frame.images.allSatisfy { $0.screenRows.lowerBound >= 1 }, "below the pinned header")
    #expect(frame.images.contains { $0.visibleRows.lowerBound > 0 }, "a tile cut by the header shows its lower part")
    #expect(frame.images.allSatisfy { $0.screenRows.upperBound <= state.screen.gridHeight })
    _ = state.apply(.toggleHelp)
    let help = GalleryView.frame(for: state)
    for image in help.images {
        for row in image.screenRows {
            for column in image.screenColumns { #expect(help[column, row] == Cell(" ", style: CellStyle(background: .rgb(30, 30, 30)))) }
        }
    }
}

@Test func inA256ColourTerminalHalfBlocksAreDitheredCells() {
    var state = GalleryState(library: library([4]), spec: spec, width: 40, height: 14, settings: settings { $0.colorDepth = .indexed256 })
    _ = state.initialEffects()
    #expect(state.store.demand.allSatisfy { $0.wantsCells && $0.depth == .indexed256 && $0.symbols == .half })
    let request = state.store.demand[0]
    var thumbnail = Thumbnail(width: 8, height: 8, pixels: TestImages.solid(width: 8, height: 8, 10, 120, 200))
    thumbnail.cells = SymbolCells.render(thumbnail, columns: 4, rows: 2, symbols: .half, depth: .indexed256)
    _ = state.apply(.decoded(request, .decoded(thumbnail)))
    let frame = GalleryView.frame(for: state)
    #expect(frame.cells.contains { if case .indexed = $0.style.background { return true } else { return false } })
}

/// A disc on a gradient: edges and shades for each symbol set to show.
func discPixels(width: Int, height: Int) -> [UInt8] {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            let dx = Double(x - width / 2) / Double(width), dy = Double(y - height / 2) / Double(height)
            let inside = dx * dx + dy * dy < 0.09
            pixels += inside ? [240, 220, 60] : [UInt8(x * 255 / width), 40, UInt8(y * 255 / height)]
        }
    }
    return pixels
}

@Test(arguments: Graphics.symbolModes)
func symbolModeSnapshots(_ graphics: Graphics) {
    var state = GalleryState(library: library([3]), spec: spec, width: 52, height: 12, settings: settings { $0.graphics = graphics })
    _ = state.initialEffects()
    for request in state.store.demand {
        // What the provider does: the pixels, and for a symbol set the cells chafa renders from them.
        let (w, h) = (request.box.width, request.box.height)
        var thumbnail = Thumbnail(width: w, height: h, pixels: discPixels(width: w, height: h))
        if request.wantsCells {
            let box = SymbolCells.cells(inBox: request.box)
            thumbnail.cells = SymbolCells.render(thumbnail, columns: box.columns, rows: box.rows, symbols: request.symbols, depth: request.depth)
        }
        _ = state.apply(.decoded(request, .decoded(thumbnail)))
    }
    expectSnapshot(GalleryView.frame(for: state), "symbols-\(graphics.rawValue)")
}

@Test func aKittyImageShownOverOtherCellsIsPlacedAgainNotSentAgain() {
    var painter = ImagePainter(mode: .kitty)
    var image = FrameImage(
        id: 77, pixelWidth: 40, pixelHeight: 40, pixels: [UInt8](repeating: 9, count: 40 * 40 * 3),
        x: 2, y: 3, columns: 4, rows: 2, visibleRows: 0..<2)
    var frame = Frame(width: 20, height: 10)
    frame.images = [image]
    #expect(String(decoding: painter.prepare(frame).bytes, as: UTF8.self).contains("a=T,U=1"))
    // The font changed: the same picture now covers 5x3 cells.
    image.columns = 5
    image.rows = 3
    image.visibleRows = 0..<3
    frame.images = [image]
    let again = String(decoding: painter.prepare(frame).bytes, as: UTF8.self)
    #expect(!again.contains("a=T") && again.contains("a=d,d=i,q=2,i=77") && again.contains("a=p,U=1,q=2,i=77,c=5,r=3"))
}

@Test func aZoomedPreviewInPixelsIsACropOfThePictureDecodedAtTheZoom() {
    var state = GalleryState(
        library: library([2]), spec: spec, width: 40, height: 12,
        settings: settings {
            $0.graphics = .kitty; $0.cellPixels = CellPixelSize(width: 4, height: 8)
        })
    _ = state.apply(.openPreview)
    #expect(state.store.demand.first?.box == PixelSize(width: 160, height: 88))
    _ = state.apply(.zoomIn)
    let request = state.store.demand[0]
    #expect(request.box == PixelSize(width: 320, height: 176) && !request.wantsCells)
    // Left half red, right half blue: zoomed 2x about the middle, the view shows both halves.
    let (w, h) = (request.box.width, request.box.height)
    _ = state.apply(
        .decoded(request, .decoded(Thumbnail(width: w, height: h, pixels: TestImages.halves(width: w, height: h, left: (250, 0, 0), right: (0, 0, 250))))))
    let frame = GalleryView.frame(for: state)
    #expect(frame.images.count == 1)
    guard let crop = frame.images.first else { return }
    #expect(crop.isTransient && crop.pixelWidth == 160 && crop.pixelHeight == 88 && crop.columns == 40 && crop.rows == 11)
    func pixel(_ image: FrameImage, _ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[((y * image.pixelWidth + x) * 3)...].prefix(3)) }
    #expect(pixel(crop, 2, 40) == [250, 0, 0] && pixel(crop, 60, 40) == [250, 0, 0] && pixel(crop, 157, 40) == [0, 0, 250])
    #expect(frame[0, 0].glyph.unicodeScalars.first == KittyGraphics.placeholder)
    // Panned right, another crop (more blue) under another id; the painter sends it and drops the first.
    var painter = ImagePainter(mode: .kitty)
    _ = painter.prepare(frame)
    _ = state.apply(.pan(dx: 1, dy: 0))
    let panned = GalleryView.frame(for: state)
    guard let next = panned.images.first else { Issue.record("no crop after the pan"); return }
    #expect(next.id != crop.id && pixel(next, 2, 40) == [250, 0, 0] && pixel(next, 60, 40) == [0, 0, 250], "ten columns further right")
    let bytes = String(decoding: painter.prepare(panned).bytes, as: UTF8.self)
    #expect(bytes.contains("f=100,i=\(next.id),c=40,r=11") && bytes.contains("a=d,d=I,q=2,i=\(crop.id)\u{1B}"))
    #expect(painter.transmitted.keys.sorted() == [next.id], "the terminal holds only the crop on screen")
}

/// A photo larger than a decode at 100%: the view shows the part decoded at full resolution
/// over the fitted picture (which shows where no part has come), in pixels and in half blocks.
@Test func aZoomedPhotoLargerThanADecodeShowsItsPartAtFullResolution() throws {
    // Half blocks need more than a decode only on a screen of over 256 columns (16x at most).
    for (graphics, columns, photo) in [(Graphics.kitty, 40, PixelSize(width: 5000, height: 3000)), (.half, 300, PixelSize(width: 4800, height: 200))] {
        var state = GalleryState(
            library: library([2]), spec: spec, width: columns, height: 12,
            settings: settings {
                $0.graphics = graphics; $0.cellPixels = CellPixelSize(width: 10, height: 20)
            })
        _ = state.apply(.openPreview)
        _ = state.apply(.metadataRead([MetadataResult(id: ItemID(0), metadata: nil, size: photo)]))
        let fitted = try #require(state.store.demand.first)
        // Decoded in the photo's shape, as large as the box holds.
        let w = min(fitted.box.width, photo.width * fitted.box.height / photo.height), h = min(fitted.box.height, photo.height * fitted.box.width / photo.width)
        _ = state.apply(.decoded(fitted, .decoded(Thumbnail(width: w, height: h, pixels: TestImages.solid(width: w, height: h, 0, 0, 250)))))
        _ = state.apply(.actualSize)
        #expect(state.preview?.isActualSize == true, "\(graphics)")
        let part = try #require(state.store.demand.first { $0.region != nil })
        let before = GalleryView.frame(for: state)
        decodeSolid(part, (250, 0, 0), in: &state)
        let after = GalleryView.frame(for: state)
        if graphics == .kitty {
            let (crop, sharp) = (try #require(before.images.first), try #require(after.images.first))
            #expect(crop.pixels.prefix(3) == [0, 0, 250] && sharp.pixels.prefix(3) == [250, 0, 0] && sharp.pixels.suffix(3) == [250, 0, 0])
            #expect(sharp.id != crop.id, "a new picture for the terminal")
        } else {
            #expect(before[150, 5].style.background == .rgb(0, 0, 250) && after[150, 5].style.background == .rgb(250, 0, 0))
        }
    }
}

@Test func transientIDsNeverNameCachedPictures() {
    for direct in [true, false] {
        for serial in stride(from: UInt32(0), to: 50_000_000, by: 99_991) {
            #expect(KittyGraphics.imageID(serial: serial, directColor: direct) >> 24 != 255)
        }
        #expect(KittyGraphics.transientID(revision: 7, directColor: direct) >> 24 == 255)
    }
}

@Test func hugeCellsAskForPicturesNoLargerThanTheDecoderMakes() {
    // A terminal reporting 200x400-pixel cells: tiles of 16x8 cells would be 3200x3200 pixels and
    // more when zoomed; every request stays within PixelSize.maxSide, shape kept, and still shows.
    var state = GalleryState(
        library: library([6]), spec: spec, width: 120, height: 40,
        settings: settings {
            $0.graphics = .kitty; $0.cellPixels = CellPixelSize(width: 200, height: 400)
        })
    var effects = state.initialEffects()
    effects += state.apply(.zoomIn)
    effects += state.apply(.zoomIn)
    let boxes = state.store.demand.map(\.box)
    #expect(!boxes.isEmpty)
    for box in boxes { #expect(box.width <= PixelSize.maxSide && box.height <= PixelSize.maxSide) }
    #expect(boxes.contains { max($0.width, $0.height) == PixelSize.maxSide }, "a box was over the limit before: \(boxes)")
    decodeAll(&state, into: &effects)
    #expect(!GalleryView.frame(for: state).images.isEmpty)
}

@Test func anAnimationInThePreviewIsPaintedFrameByFrameInPixels() {
    for graphics in [Graphics.sixel, .kitty] {
        var (state, _) = pixelState(graphics, counts: [2])
        var metadata = ImageMetadata()
        metadata.frameCount = 2
        _ = state.apply(.metadataRead([MetadataResult(id: ItemID(0), metadata: metadata, size: PixelSize(width: 40, height: 30))]))
        let effects = state.apply(.openPreview)
        let requests = effects.flatMap { effect -> [DecodeRequest] in if case .load(let r) = effect { return r } else { return [] } }
        guard let request = requests.first(where: \.wantsFrames) else { Issue.record("\(graphics): no frames asked"); continue }
        let (w, h) = (request.box.width / 2, request.box.height / 2)
        var frames = Thumbnail(
            width: w, height: 2 * h, pixels: TestImages.solid(width: w, height: h, 255, 0, 0) + TestImages.solid(width: w, height: h, 0, 0, 255))
        frames.delays = [100, 100]
        _ = state.apply(.decoded(request, .decoded(frames)))
        var painter = ImagePainter(mode: graphics.pixelProtocol, cellPixels: state.pictures.cellPixels)
        var seen: [UInt8] = []
        for now in [1.0, 1.1] {
            _ = state.apply(.tick(now))
            let frame = GalleryView.frame(for: state)
            #expect(frame.images.count == 1 && frame.images.first?.pixelWidth == w && frame.images.first?.pixelHeight == h, "\(graphics): the frame in pixels")
            let bytes = painter.prepare(frame).bytes + painter.finish(frame, repaintedRows: [])
            #expect(bytes.count > 100, "\(graphics): frame \(state.preview?.frame ?? -1) sent, \(bytes.count) bytes")
            seen.append(frame.images.first?.pixels.first ?? 0)
        }
        #expect(seen == [255, 0], "\(graphics): red, then blue")
    }
}

@Test func theNextSixelFrameOnTheSameCellsIsDrawnOverTheLastNotAfterErasingIt() {
    func image(_ id: UInt32, shade: UInt8, width: Int = 16) -> FrameImage {
        FrameImage(
            id: id, pixelWidth: width, pixelHeight: 16, pixels: [UInt8](repeating: shade, count: width * 16 * 3),
            x: 2, y: 1, columns: 4, rows: 2, visibleRows: 0..<2)
    }
    var painter = ImagePainter(mode: .sixel, cellPixels: CellPixelSize(width: 4, height: 8))
    var frame = Frame(width: 20, height: 6)
    frame.images = [image(1, shade: 10)]
    _ = painter.prepare(frame)
    _ = painter.finish(frame, repaintedRows: [])
    frame.images = [image(2, shade: 200)]
    #expect(painter.prepare(frame).repaintRows.isEmpty, "the next frame covers the last: no erasing, so no black between frames")
    #expect(!painter.finish(frame, repaintedRows: []).isEmpty, "and it is drawn")
    // Another picture on the same cells but fewer pixels would leave some of the old: its rows are erased.
    frame.images = [image(3, shade: 90, width: 13)]
    #expect(painter.prepare(frame).repaintRows == [1, 2])
}

@Test func iTermImagesAreJPEGsOfTheTilesPixelsPaintedAfterTheCells() throws {
    var (state, _) = pixelState(.iterm, counts: [12])
    let frame = GalleryView.frame(for: state)
    #expect(!frame.images.isEmpty && frame[frame.images[0].x, frame.images[0].y].glyph != String(KittyGraphics.placeholder), "no placeholder cells")
    var painter = ImagePainter(mode: .iterm, cellPixels: state.pictures.cellPixels)
    #expect(painter.prepare(frame).bytes.isEmpty, "nothing before the cells")
    let bytes = painter.finish(frame, repaintedRows: [])
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.components(separatedBy: "\u{1B}]1337;File=inline=1;").count - 1 == frame.images.count)
    // The first image read back: a JPEG of the tile's pixels (within JPEG's error), over its cells.
    let image = frame.images[0]
    let start = try #require(text.range(of: "\u{1B}]1337;File="))
    let header = text[start.upperBound...].prefix { $0 != ":" }
    #expect(header.contains("width=\(image.columns);height=\(image.rows)") && header.contains("preserveAspectRatio=0"))
    let payload = text[text.index(after: text[start.upperBound...].firstIndex(of: ":")!)...].prefix { $0 != "\u{7}" }
    let jpeg = try #require(Data(base64Encoded: String(payload)))
    #expect(header.contains("size=\(jpeg.count)") && jpeg.starts(with: [0xFF, 0xD8]))
    let decoded = TurboJPEGDecoder.decode(
        Array(jpeg), width: image.pixelWidth, height: image.pixelHeight,
        covering: PixelSize(width: image.pixelWidth, height: image.pixelHeight), pixelLimit: 1 << 24)
    guard case .decoded(let thumbnail) = decoded else { Issue.record("the JPEG does not decode: \(decoded)"); return }
    let difference = zip(thumbnail.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +) / image.pixels.count
    #expect(difference <= 4, "mean difference \(difference)")
    #expect(jpeg.count < image.pixels.count / 5, "a fifth of the RGB or less: \(jpeg.count) of \(image.pixels.count)")
    #expect(painter.finish(frame, repaintedRows: []).isEmpty, "the same frame again paints nothing")
    _ = state.apply(.scroll(lines: 1))
    let moved = GalleryView.frame(for: state)
    #expect(!painter.prepare(moved).repaintRows.isEmpty && !painter.finish(moved, repaintedRows: []).isEmpty, "moved pictures are painted again")
}

@Test func throughTmuxEachITermImageFollowsTheCellsWrittenBeforeIt() {
    let (state, _) = pixelState(.iterm, counts: [6])
    let frame = GalleryView.frame(for: state)
    var painter = ImagePainter(mode: .iterm, inTmux: true, cellPixels: state.pictures.cellPixels)
    _ = painter.prepare(frame)
    let text = String(decoding: painter.finish(frame, repaintedRows: []), as: UTF8.self)
    let pictures = text.components(separatedBy: "\u{1B}Ptmux;").dropFirst()
    #expect(pictures.count == frame.images.count)
    // Before each passthrough, a scroll region set has tmux send the cells it holds (inside the
    // saved cursor); inside, the picture at its cells.
    let before = text.components(separatedBy: "\u{1B}Ptmux;").dropLast()
    #expect(before.allSatisfy { $0.hasSuffix("\u{1B}7\u{1B}[r\u{1B}8") }, "a flush right before every picture")
    #expect(pictures.allSatisfy { $0.contains("]1337;File=") })
}

@Test func throughTmuxITermImagesGoToThePanesPlaceInTheOuterTerminal() throws {
    #expect(PaneOrigin(tmuxAnswer: "51 16 on bottom\n") == PaneOrigin(column: 51, row: 16))
    #expect(PaneOrigin(tmuxAnswer: "51 0 on top") == PaneOrigin(column: 51, row: 1), "below a status line at the top")
    #expect(PaneOrigin(tmuxAnswer: "0 0 2 top") == PaneOrigin(column: 0, row: 2))
    #expect(PaneOrigin(tmuxAnswer: "0 0 off top") == PaneOrigin(column: 0, row: 0))
    for junk in ["", "no server running", "1 2 on", "-1 0 on bottom", "a b on bottom"] { #expect(PaneOrigin(tmuxAnswer: junk) == nil, "\(junk)") }
    let (state, _) = pixelState(.iterm, counts: [6])
    let frame = GalleryView.frame(for: state)
    let image = try #require(frame.images.first)
    func firstMove(_ painter: inout ImagePainter) -> String? {
        _ = painter.prepare(frame)
        let text = String(decoding: painter.finish(frame, repaintedRows: []), as: UTF8.self)
        return text.components(separatedBy: "\u{1B}\u{1B}[").dropFirst().first?.prefix { $0 != "H" }.description
    }
    var painter = ImagePainter(mode: .iterm, inTmux: true, cellPixels: state.pictures.cellPixels)
    #expect(firstMove(&painter) == "\(image.y + 1);\(image.x + 1)", "a pane at the top left: its own cells")
    painter.paneOrigin = PaneOrigin(column: 51, row: 16)
    #expect(firstMove(&painter) == "\(image.y + 17);\(image.x + 52)", "moved by the pane's place, and painted again")
}

@Test func overASlowLinkPicturesGoAtALowerResolutionIntoTheSameCells() {
    for (speed, reduction) in [(100_000, 1), (10_000, 2), (2_000, 4)] {
        var (state, _) = pixelState(.kitty, counts: [6])
        state = GalleryState(
            library: state.library, spec: spec, width: 60, height: 20,
            settings: settings {
                $0.graphics = .kitty; $0.cellPixels = CellPixelSize(width: 4, height: 8); $0.linkSpeed = speed
            })
        var effects = state.initialEffects()
        decodeAll(&state, into: &effects)
        #expect(state.pictures.reduction == reduction, "\(speed) kbit/s")
        let frame = GalleryView.frame(for: state)
        #expect(frame.lines.last?.contains(reduction == 1 ? "res" : reduction == 2 ? "½ res" : "¼ res") == (reduction > 1), "the status line says so")
        var painter = ImagePainter(mode: .kitty, cellPixels: state.pictures.cellPixels)
        painter.reduction = reduction
        let full = KittyGraphics.transmit(frame.images[0], inTmux: false).count
        let sent = painter.prepare(frame).bytes
        let cells = "c=\(frame.images[0].columns),r=\(frame.images[0].rows)"
        #expect(String(decoding: sent, as: UTF8.self).contains(cells), "the same cells")
        if reduction > 1 { #expect(sent.count < frame.images.count * full, "fewer bytes: \(sent.count) against \(frame.images.count * full)") }
    }
    // Sixel cannot be scaled by the terminal: it is never reduced.
    let sixel = GalleryState(
        library: library([2]), spec: spec, width: 60, height: 20,
        settings: settings {
            $0.graphics = .sixel; $0.linkSpeed = 500
        })
    #expect(sixel.pictures.reduction == 1)
    let shrunk = FrameImage.shrunk([0, 0, 0, 255, 255, 255, 10, 20, 30], width: 3, height: 1, by: 2)
    #expect(shrunk.width == 2 && shrunk.height == 1 && shrunk.pixels == [127, 127, 127, 10, 20, 30])
}

/// OSC 11's answer (BEL or ST ended, 1 to 4 hex digits a channel) gives the background; light
/// or dark by its luminance; COLORFGBG's last field when the terminal does not answer.
@Test func theTerminalsBackgroundIsReadAndDecidesLightOrDark() {
    let white = TerminalReport(parsing: Array("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?62;4c".utf8))
    #expect(white.background == RGB(255, 255, 255) && white.isComplete && white.hasSixel)
    let belEnded = TerminalReport(parsing: Array("\u{1B}]11;rgb:1e1e/1e1e/2e2e\u{7}\u{1B}[?1;2c".utf8))
    #expect(belEnded.background == RGB(30, 30, 46) && belEnded.isComplete)
    #expect(TerminalReport(parsing: Array("\u{1B}]11;rgb:f/8/0\u{7}".utf8)).background == RGB(255, 136, 0))
    for junk in ["\u{1B}]11;rgb:zz/00/00\u{7}", "\u{1B}]11;rgb:00/00\u{7}", "\u{1B}]11;#ffffff\u{7}", "\u{1B}]10;rgb:ff/ff/ff\u{7}", "\u{1B}]11;rgb:ff/ff/ff"] {
        #expect(TerminalReport(parsing: Array(junk.utf8)).background == nil, "\(junk.debugDescription)")
    }
    #expect(RGB(255, 255, 255).isLight && RGB(253, 246, 227).isLight && !RGB(0, 0, 0).isLight && !RGB(40, 42, 54).isLight)
    #expect(RGB.background(colorFGBG: "0;15")?.isLight == true && RGB.background(colorFGBG: "15;default;0")?.isLight == false)
    #expect(RGB.background(colorFGBG: "0;7")?.isLight == true && RGB.background(colorFGBG: nil) == nil && RGB.background(colorFGBG: "x") == nil)
}

/// On a light background the theme turns light, its letterbox the terminal's own colour; the
/// colours the settings chose and NO_COLOR stay through the change.
@Test func theThemeFollowsTheBackground() {
    let paper = RGB(250, 250, 245)
    let light = Theme.matching(background: paper)
    #expect(light.letterbox == paper && light.placeholderGround == Theme.light.placeholderGround && light.headerText == Theme.light.headerText)
    #expect(Theme.matching(background: nil).letterbox == RGB(30, 30, 30))
    #expect(Theme.matching(background: RGB(0, 0, 0)).placeholderGround == Theme.standard.placeholderGround)
    var chosen = Theme.standard
    chosen.set("accent", to: .rgb(1, 2, 3))
    chosen.colorsText = false
    let followed = chosen.following(background: paper)
    #expect(followed.accent == .rgb(1, 2, 3) && !followed.colorsText && followed.mark == Theme.light.mark && followed.letterbox == paper)
}

@Test func aTerminalThatNamesItselfKittyButNeverAnswersTheGraphicsQueryGetsSymbols() {
    // XTVERSION says kitty, the device attributes come, the graphics query is never answered.
    let report = TerminalReport(parsing: Array("\u{1B}P>|kitty(0.41.1)\u{1B}\\\u{1B}[?62;22c".utf8))
    #expect(report.name == "kitty(0.41.1)" && !report.hasKittyGraphics && report.isComplete)
    #expect(Graphics.detected(report, environment: [:], isUnicode: true) == .quadrant, "no kitty images sent to a terminal that did not say it shows them")
}

/// A rejected photo's tile is dimmed in the pixel modes too: its picture sent at two fifths of
/// its brightness under an id of its own, so the terminal keeps both; taking the reject back
/// shows the picture as it was, under its first id.
@Test(arguments: [Graphics.kitty, .sixel, .iterm])
func aRejectedTileIsDimmedInPixels(_ graphics: Graphics) {
    var (state, _) = pixelState(graphics)
    let before = GalleryView.frame(for: state).images.sorted { ($0.y, $0.x) < ($1.y, $1.x) }.first!
    _ = state.apply(.toggleReject)
    let rejected = GalleryView.frame(for: state).images.first { $0.x == before.x && $0.y == before.y }!
    #expect(rejected.id != before.id && rejected.pixels == before.pixels.map { UInt8(UInt16($0) * 2 / 5) })
    _ = state.apply(.toggleReject)
    #expect(GalleryView.frame(for: state).images.first { $0.x == before.x && $0.y == before.y } == before)
}

/// A preview state in `graphics` with the cursor's photo and its neighbours decoded at the
/// preview's size (a colour of their own each).
private func previewState(_ graphics: Graphics, at cursor: Int = 2) -> GalleryState {
    var (state, effects) = pixelState(graphics, counts: [8], width: 40, height: 12)
    for _ in 0..<cursor { effects += state.apply(.move(.right)) }
    effects += state.apply(.openPreview)
    decodeAll(&state, into: &effects)
    return state
}

/// The preview's next photos are listed for the terminal to make ready: two ahead in the way the
/// user flips and one behind, each as it will show; flipping back turns the way round.
@Test func thePicturesAheadAreTheNeighboursAsTheyWillShow() {
    var state = previewState(.sixel)
    #expect(state.previewsAhead.map(\.viewport.cursor) == [3, 1, 4])
    let ahead = GalleryView.picturesAhead(for: state)
    _ = state.apply(.move(.right))
    #expect(GalleryView.frame(for: state).images == [ahead[0]], "the next photo shows as it was made ready")
    var effects = state.apply(.move(.left))
    decodeAll(&state, into: &effects)
    #expect(state.flipDirection == -1 && state.previewsAhead.map(\.viewport.cursor) == [1, 3, 0])
    var zoomed = state
    _ = zoomed.apply(.zoomIn)
    #expect(zoomed.previewsAhead.isEmpty, "a zoomed view flips to the fitted next photo: nothing to make ahead")
}

/// A sixel or iTerm2 picture made ready ahead is what the painter writes when a frame shows it,
/// made once; one made for another encoding (the cells changed size) is not used.
@Test(arguments: [Graphics.sixel, .iterm])
func aPictureMadeAheadIsWrittenAsMade(_ graphics: Graphics) {
    var state = previewState(graphics)
    var painter = ImagePainter(mode: graphics.pixelProtocol, cellPixels: state.pictures.cellPixels)
    var shown = GalleryView.frame(for: state)
    _ = painter.finish(shown, repaintedRows: painter.prepare(shown).repaintRows)
    let ahead = GalleryView.picturesAhead(for: state)[0]
    let key = painter.wantsReady(ahead)!
    painter.takeReady([(key, painter.encoding.prepared(ahead), painter.encoding)])
    #expect(painter.wantsReady(ahead) == nil, "made once")
    _ = state.apply(.move(.right))
    shown = GalleryView.frame(for: state)
    var fresh = ImagePainter(mode: graphics.pixelProtocol, cellPixels: state.pictures.cellPixels)
    let expected = fresh.finish(shown, repaintedRows: [])
    let before = painter.madeAhead
    #expect(painter.finish(shown, repaintedRows: painter.prepare(shown).repaintRows) == expected && painter.madeAhead == before + 1)
    // Made for 8-pixel-tall cells, then the font changed: not used.
    var other = ImagePainter(mode: graphics.pixelProtocol, cellPixels: CellPixelSize(width: 4, height: 9))
    other.takeReady([(key, painter.encoding.prepared(ahead), painter.encoding)])
    #expect(other.wantsReady(ahead) != nil)
}

/// Kitty's next photos are sent ahead: the terminal holds them, a flip to one writes only its
/// cells, and a frame never drops such a transmission nor counts it as on the way.
@Test func kittyPicturesAheadAreSentAheadAndAFlipWritesOnlyCells() {
    var state = previewState(.kitty)
    var painter = ImagePainter(mode: .kitty, cellPixels: state.pictures.cellPixels)
    _ = painter.prepare(GalleryView.frame(for: state))
    let ahead = GalleryView.picturesAhead(for: state)
    painter.takeReady(ahead.map { (painter.wantsReady($0)!, painter.encoding.prepared($0), painter.encoding) })
    let sent = painter.sendAhead()
    #expect(sent.count == ahead.count && sent.allSatisfy(\.isAhead) && ahead.allSatisfy { painter.transmitted[$0.id] != nil })
    var queue = PictureQueue()
    queue.enqueue(sent)
    #expect(queue.picturesWaiting == 0)
    _ = state.apply(.move(.right))
    let flipped = GalleryView.frame(for: state)
    #expect(queue.replan(for: flipped).isEmpty, "sent ahead: kept")
    #expect(painter.prepare(flipped).bytes.isEmpty, "the terminal has it: only its cells are written")
}
