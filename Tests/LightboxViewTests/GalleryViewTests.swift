import Foundation
import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxTestSupport
import LightboxThumbnails
import LightboxView
import Testing

func library(_ counts: [Int], name: (Int, Int) -> String = { _, i in "IMG_\(i + 1).jpg" }) -> Library {
    Library(
        folders: counts.enumerated().map { s, count in
            ImageFolder(
                path: ImagePath("trip/day\(s + 1)"),
                files: (0..<count).map { i in
                    ImageFile(path: ImagePath("trip/day\(s + 1)/" + name(s, i)), byteCount: 1, modified: 0, format: .jpeg)
                })
        })
}

let spec = GridSpec(columns: [GridItem(.adaptive(minimum: 12, maximum: 16))])

/// A state with every visible thumbnail decoded as one flat colour, except item 2 which failed.
/// Settings with `change` made to the defaults.
func settings(_ change: (inout GalleryState.Settings) -> Void) -> GalleryState.Settings {
    var settings = GalleryState.Settings()
    change(&settings)
    return settings
}

func decodedState(_ counts: [Int], width: Int, height: Int, settings: GalleryState.Settings = .init(), actions: [Command] = []) -> GalleryState {
    var state = GalleryState(library: library(counts), spec: spec, width: width, height: height, settings: settings)
    _ = state.initialEffects()
    for action in actions { _ = state.apply(action) }
    for request in state.store.demand {
        let result: DecodeResult =
            request.id.rawValue == 2
            ? .failed(.badFile("cannot decode: Not a JPEG file"))
            : .decoded(
                Thumbnail(
                    width: request.box.width, height: request.box.height - 4,
                    pixels: TestImages.solid(width: request.box.width, height: request.box.height - 4, 90, 140, 200)))
        _ = state.apply(.decoded(request, result))
    }
    return state
}

func expectSnapshot(_ frame: Frame, _ name: String) {
    if let difference = FrameSnapshot.verify(frame, named: name) { Issue.record(Comment(rawValue: difference)) }
}

@Test func galleryWithMarksCursorAndABrokenTile() {
    let state = decodedState([5, 4], width: 60, height: 24, actions: [.toggleMarkAndAdvance, .move(.right), .toggleMark, .move(.right)])
    let frame = GalleryView.frame(for: state)
    expectSnapshot(frame, "gallery")
    #expect(frame.lines.last!.contains("4/9"))
    #expect(frame.lines.last!.contains("2 marked"))
}

@Test func brokenTileReasonShowsInTheStatusLine() {
    let state = decodedState([5], width: 60, height: 24, actions: [.move(.right), .move(.right)])
    let frame = GalleryView.frame(for: state)
    #expect(frame.lines.last!.contains("Not a JPEG file"))
    #expect(frame.text.contains("✗ broken"))
}

@Test func pinnedHeaderWhileItsSectionScrolls() {
    let state = decodedState([3, 20], width: 60, height: 16, actions: [.move(.nextSection), .move(.down), .move(.down)])
    let frame = GalleryView.frame(for: state)
    expectSnapshot(frame, "pinned-header")
    #expect(frame.lines[0].contains("trip/day2"))
    #expect(!frame.lines[1].contains("trip/day2"))
}

@Test func placeholdersShowUntilPixelsArriveAndTheStatusCountsThem() {
    var state = GalleryState(library: library([6]), spec: spec, width: 60, height: 24)
    _ = state.initialEffects()
    let frame = GalleryView.frame(for: state)
    #expect(frame.text.contains("⋯"))
    #expect(frame.lines.last!.contains("6 loading"))
}

@Test func aHelpLargerThanTheScreenTurnsItsPagesAndShowsEveryKey() {
    var state = decodedState([4], width: 60, height: 20)
    _ = state.apply(.toggleHelp)
    let pages = state.helpPages.pageCount
    #expect(pages > 1, "40 keys in 19 lines")
    var seen = ""
    for page in 1...pages {
        let text = GalleryView.frame(for: state).text
        #expect(text.contains("page \(page)/\(pages) · space: more"), "page \(page)")
        seen += text
        _ = state.apply(.toggleMarkAndAdvance)  // space
    }
    for binding in KeyTable.standard.bindings { #expect(seen.contains(binding.help), "\(binding.help) on no page") }
    #expect(state.helpPage == pages - 1 && state.isShowingHelp, "past the last page: stays on it")
    _ = state.apply(.pageUp)
    #expect(state.helpPage == pages - 2 && state.markedCount == 0, "back a page; nothing marked")
    _ = state.apply(.move(.first))
    #expect(!state.isShowingHelp && state.viewport.cursor == 0, "any other key closes it and does nothing else")
    _ = state.apply(.toggleHelp)
    #expect(state.helpPage == 0, "opened again at its first page")
}

@Test func helpOverlayListsTheKeyTable() {
    var state = decodedState([4], width: 120, height: 34)
    _ = state.apply(.toggleHelp)
    let frame = GalleryView.frame(for: state)
    expectSnapshot(frame, "help")
    for binding in KeyTable.standard.bindings { #expect(frame.text.contains(binding.help), "\(binding.help)") }
}

@Test func tooSmallSaysSo() {
    let state = GalleryState(library: library([4]), spec: spec, width: 30, height: 5)
    #expect(GalleryView.frame(for: state).text.contains("Terminal too small"))
}

@Test func hostileNamesAreShownEscaped() {
    let hostile = library([1]) { _, _ in "\u{1B}]0;pwned\u{07}\u{202E}gpj.exe" }
    var state = GalleryState(library: hostile, spec: spec, width: 60, height: 24)
    _ = state.initialEffects()
    let text = GalleryView.frame(for: state).text
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(!text.unicodeScalars.contains { $0.value == 0x202E })
    #expect(text.contains("\\x1b"))
}

@Test func longNamesAreTruncatedInTheMiddle() {
    let long = library([1]) { _, _ in "a_very_long_holiday_photo_name_0001.jpg" }
    var state = GalleryState(library: long, spec: spec, width: 40, height: 24)
    _ = state.initialEffects()
    let label = GalleryView.frame(for: state).lines.first { $0.contains("…") }
    #expect(label?.contains(".jpg") == true)
    #expect(label?.contains("a_ve") == true)
}

@Test func thumbnailsAreLetterboxedInTheirBox() {
    // A tall thumbnail in a wide box: the sides stay the letterbox colour.
    var state = GalleryState(library: library([1]), spec: GridSpec(columns: [GridItem(.fixed(20))]), width: 30, height: 20)
    let request = state.initialEffects().compactMap { if case .load(let r) = $0 { return r.first } else { return nil } }.first!
    let image = Thumbnail(width: 4, height: request.box.height, pixels: TestImages.solid(width: 4, height: request.box.height, 255, 0, 0))
    _ = state.apply(.decoded(request, .decoded(image)))
    let frame = GalleryView.frame(for: state)
    var box = state.layout.boxFrame(ofItem: 0)
    box.x += GalleryState.gridInset
    let row = box.y + 1
    #expect(frame[box.x + box.width / 2, row].style.background == .rgb(255, 0, 0))
    #expect(frame[box.x, row].style.background == .rgb(30, 30, 30))
    #expect(frame[box.maxX - 1, row].style.background == .rgb(30, 30, 30))
}

@Test func afterZoomTheOldThumbnailShowsScaledUntilTheNewSizeArrives() {
    var state = decodedState([3], width: 60, height: 30)
    _ = state.apply(.zoomIn)
    #expect(state.loadingCount > 0)  // the new size is wanted
    let frame = GalleryView.frame(for: state)
    var box = state.layout.boxFrame(ofItem: 0)
    box.x += GalleryState.gridInset
    #expect(frame[box.x + box.width / 2, box.y + box.height / 2].style.background == .rgb(90, 140, 200))
    #expect(!frame.lines.dropLast().joined().contains("⋯"), "no placeholder in the grid")
}

@Test func everyTinySizeDrawsWithoutCrashing() {
    for width in 1...12 {
        for height in 1...6 {
            var state = decodedState([3, 5], width: 40, height: 20)
            _ = state.apply(.resize(width: width, height: height))
            _ = state.apply(.move(.last))
            _ = state.apply(.toggleHelp)
            let frame = GalleryView.frame(for: state)
            #expect(frame.width == width && frame.height == height)
            #expect(frame.lines.allSatisfy { DisplayWidth.of($0) == width }, "\(width)x\(height)")
        }
    }
}

@Test(arguments: 1...20)
func randomActionsKeepTheStateSane(seed: Int) {
    var rng = SplitMix(state: UInt64(seed))
    var state = GalleryState(library: library([7, 1, 30, 4]), spec: spec, width: 80, height: 24)
    _ = state.initialEffects()
    let fixed: [Command] = [
        .move(.left), .move(.right), .move(.up), .move(.down), .move(.first), .move(.last),
        .move(.nextSection), .move(.previousSection), .pageUp, .pageDown, .halfPageUp, .halfPageDown,
        .toggleMark, .toggleMarkAndAdvance, .toggleRange, .markAll, .markSection, .clearMarks,
        .zoomIn, .zoomOut, .toggleHelp,
    ]
    for _ in 0..<300 {
        let effects: [Effect]
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: effects = state.apply(.resize(width: Int.random(in: 1...200, using: &rng), height: Int.random(in: 1...60, using: &rng)))
        case 1: effects = state.apply(.click(x: Int.random(in: -2...200, using: &rng), y: Int.random(in: -2...60, using: &rng)))
        case 2: effects = state.apply(.scroll(lines: Int.random(in: -9...9, using: &rng)))
        default: effects = state.apply(fixed.randomElement(using: &rng)!)
        }
        for case .load(let requests) in effects {
            for request in requests.prefix(3) { _ = state.apply(.decoded(request, .failed(.badFile("x")))) }
        }
        #expect(state.viewport.cursor >= 0 && state.viewport.cursor < state.library.count)
        #expect(state.viewport.offset >= 0 && state.viewport.offset <= max(0, state.layout.contentHeight - state.screen.gridHeight))
        let frame = GalleryView.frame(for: state)
        #expect(frame.width == state.screen.width && frame.height == state.screen.height)
    }
}

@Test func helpListsEveryScanProblem() {
    var state = GalleryState(
        library: library([4]), spec: spec, width: 80, height: 40,
        scanProblems: ["cannot read photos/private: Permission denied", "not an image: a.jpg (text)", "not an image: b.png (SVG or XML, not supported)"])
    _ = state.initialEffects()
    #expect(GalleryView.frame(for: state).lines.last!.contains("+2 more: ? lists them"))
    _ = state.apply(.toggleHelp)
    let text = GalleryView.frame(for: state).text
    #expect(text.contains("Problems while scanning (3)"))
    for problem in state.scanProblems { #expect(text.contains(problem)) }
    #expect(text.contains("mark all"))  // the keys are still there
}

@Test func whileScanningTheScreenAndTheStatusLineSaySo() {
    var state = GalleryState(library: Library(), spec: spec, width: 60, height: 12, isScanning: true)
    #expect(GalleryView.frame(for: state).text.contains("Looking for images…"))
    let found = library([3])
    _ = state.apply(.scanned([Scanner.Batch(folder: ImagePath(bytes: found.sections[0].title), files: found.ids.map(found.file))], isFinished: false))
    #expect(GalleryView.frame(for: state).lines.last!.hasPrefix(" 1/3 found, scanning…"))
    // A share's folder shown from its listing: its files named, not read yet, and said so.
    var listing = Scanner.Batch(folder: ImagePath("share"), files: [ImageFile(listed: ImagePath("share/a.jpg"), format: .jpeg)])
    listing.isListing = true
    _ = state.apply(.scanned([listing], isFinished: false))
    #expect(GalleryView.frame(for: state).lines.last!.hasPrefix(" 1/4 found (1 listed, not read yet), scanning…"))
    // The walk over, the files of folders taken from the index looked at for changes.
    var end = Scanner.Batch(folder: ImagePath("."), files: [])
    end.endsWalk = true
    _ = state.apply(.scanned([end], isFinished: false))
    #expect(GalleryView.frame(for: state).lines.last!.hasPrefix(" 1/3  checking for changes…"))
    _ = state.apply(.scanned([], isFinished: true))
    #expect(GalleryView.frame(for: state).lines.last!.hasPrefix(" 1/3  "))
    var empty = GalleryState(library: Library(), spec: spec, width: 60, height: 12, isScanning: true)
    _ = empty.apply(.scanned([], isFinished: true))
    #expect(GalleryView.frame(for: empty).text.contains("No images found."))
}

@Test func aColumnsAlignmentPlacesNarrowPicturesAndLabels() throws {
    let spec = try GridSpec(parsing: "fixed:16:leading,fixed:16:trailing")
    var state = GalleryState(library: library([2]), spec: spec, width: 40, height: 20)
    _ = state.initialEffects()
    for request in state.store.demand {
        // A portrait picture: a quarter of its box's width.
        let width = request.box.width / 4
        _ = state.apply(
            .decoded(
                request,
                .decoded(
                    Thumbnail(
                        width: width, height: request.box.height,
                        pixels: TestImages.solid(width: width, height: request.box.height, 250, 0, 0)))))
    }
    let frame = GalleryView.frame(for: state)
    let red = TerminalColor.rgb(250, 0, 0)
    let left = state.layout.frame(ofItem: 0), right = state.layout.frame(ofItem: 1)
    let y = left.y + 2 - state.viewport.offset
    let x0 = left.x + GalleryState.gridInset, x1 = right.x + GalleryState.gridInset
    #expect(frame[x0, y].style.background == red && frame[x0 + left.width - 1, y].style.background != red)
    #expect(frame[x1 + right.width - 1, y].style.background == red && frame[x1, y].style.background != red)
    let label = frame.lines[left.y + state.layout.boxFrame(ofItem: 0).height - state.viewport.offset]
    #expect(label.dropFirst(x0).hasPrefix("IMG_1.jpg"))
    #expect(label.prefix(x1 + right.width).hasSuffix("IMG_2.jpg"))
}

@Test func theInfoPanelIsAnAlignedTableOfTheCursorPhotosDetails() throws {
    var state = decodedState([6], width: 120, height: 24)
    let effects = state.apply(.toggleInfo)
    let id = state.library.id(at: state.viewport.cursor)
    #expect(effects.contains(.readMetadata([MetadataRequest(id: id, file: state.library[state.viewport.cursor])], isUrgent: true)))
    #expect(GalleryView.frame(for: state).text.contains("reading…"))
    let photo = TestImages.withMetadata(
        main: try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 1, 2, 3), width: 8, height: 8),
        TestMetadata())
    let metadata = ImageMetadata(parsing: photo)
    _ = state.apply(.metadataRead([MetadataResult(id: id, metadata: metadata, size: PixelSize(width: 4000, height: 3000))]))
    let frame = GalleryView.frame(for: state)
    expectSnapshot(frame, "info-panel")
    let lines = frame.lines
    func line(_ label: String) -> String { lines.first { $0.contains(label) } ?? "" }
    #expect(line("Camera model").contains("Test Camera 1") && line("Lens").contains("Test Lens 35mm"))
    #expect(line("Date taken").contains("2024-05-17 23:30:05"))
    // Numbers end in one column; text starts in one column.
    func end(_ label: String, _ value: String) -> Int {
        line(label).range(of: value).map { line(label).distance(from: line(label).startIndex, to: $0.upperBound) } ?? -1
    }
    func start(_ label: String, _ value: String) -> Int {
        line(label).range(of: value).map { line(label).distance(from: line(label).startIndex, to: $0.lowerBound) } ?? -1
    }
    let numberEnds = [end("Dimensions", "4000 × 3000"), end("Exposure", "1/250 s"), end("Aperture", "f/2.8"), end("ISO", "400"), end("Focal length", "35 mm")]
    #expect(Set(numberEnds).count == 1 && numberEnds[0] > 0, "numbers right-aligned: \(numberEnds)")
    let textStarts = [start("Lens", "Test Lens"), start("Camera make", "Lightbox"), start("GPS", "present"), start("Format", "JPEG")]
    #expect(Set(textStarts).count == 1 && textStarts[0] > 0, "text left-aligned: \(textStarts)")
    // The grid gives the panel its columns.
    #expect(state.screen.gridAreaWidth == 120 - 42)
    _ = state.apply(.toggleInfo)
    #expect(state.screen.gridAreaWidth == 120)
}

@Test func collapsedSectionsAndPinnedFootersDraw() {
    var state = decodedState([3, 30, 4], width: 60, height: 24, settings: settings { $0.showsFooters = true })
    _ = state.apply(.move(.nextSection))
    _ = state.apply(.toggleSection)
    _ = state.apply(.move(.right))
    _ = state.apply(.move(.left))
    _ = state.apply(.toggleMark)
    var frame = GalleryView.frame(for: state)
    let header = frame.lines.first { $0.contains("trip/day2") } ?? ""
    #expect(header.hasPrefix("▸ trip/day2") && header.contains("30 marked") && header.contains("collapsed"))
    #expect(!frame.text.contains("IMG_30.jpg"))
    _ = state.apply(.toggleSection)
    frame = GalleryView.frame(for: state)
    expectSnapshot(frame, "footers")
    // Section 2 runs past the bottom: its counts sit on the grid's last line.
    #expect(frame.lines[state.screen.gridHeight - 1].hasSuffix("30 marked of 30 "))
}

/// Answers every wanted thumbnail with a flat picture that fills its box.
func decodeDemand(_ state: inout GalleryState) {
    for request in state.store.demand {
        let (w, h) = (request.box.width, request.box.height)
        _ = state.apply(.decoded(request, .decoded(Thumbnail(width: w, height: h, pixels: TestImages.solid(width: w, height: h, 90, 140, 200)))))
    }
}

@Test func masonryDrawsTilesAtTheirShapesUnderAPinnedHeader() {
    var state = GalleryState(library: library([3, 30]), spec: spec, width: 60, height: 24, settings: settings { $0.layoutMode = .masonry })
    let sizes = (0..<33).map {
        MetadataResult(id: ItemID($0), metadata: nil, size: $0 % 4 == 0 ? PixelSize(width: 300, height: 450) : PixelSize(width: 400, height: 300))
    }
    _ = state.apply(.metadataRead(sizes))
    for _ in 0..<4 { _ = state.apply(.move(.down)) }
    decodeDemand(&state)
    let frame = GalleryView.frame(for: state)
    expectSnapshot(frame, "masonry")
    #expect(frame.lines[0].contains("trip/day2"), "the section's header is pinned")
    #expect(state.viewport.offset > state.layout.headerTop(ofSection: 1))
}

@Test func theStripPinsTheSectionCardOnTheLeft() {
    var state = GalleryState(library: library([3, 30]), spec: spec, width: 80, height: 24, settings: settings { $0.layoutMode = .strip })
    for _ in 0..<8 { _ = state.apply(.move(.right)) }
    decodeDemand(&state)
    let frame = GalleryView.frame(for: state)
    expectSnapshot(frame, "strip")
    #expect(state.viewport.offset > state.layout.headerTop(ofSection: 1), "scrolled into the second section")
    #expect(frame.lines[0].hasPrefix("▍trip/"), "its card is pinned on the left: \(frame.lines[0])")
    #expect(frame.text.contains("30 images"))
}

@Test func theFilterShowsInTheStatusLineAndHighlightsMatches() {
    var state = decodedState([12], width: 80, height: 24)
    _ = state.apply(.toggleMark)
    for action: Command in [.startFilter, .filterInput("1"), .filterInput("0")] { _ = state.apply(action) }
    let frame = GalleryView.frame(for: state)
    let status = frame.lines.last!
    #expect(status.hasPrefix(" /10▏  1/1 of 12") && status.contains("1 hidden by the filter"), "\(status)")
    // "1" and "0" of IMG_10.jpg are underlined.
    let y = state.layout.frame(ofItem: 0).y + state.layout.boxFrame(ofItem: 0).height - state.viewport.offset
    let underlined = (0..<frame.width).filter { frame[$0, y].style.attributes.contains(.underline) }.map { frame[$0, y].glyph }
    #expect(underlined == ["1", "0"])
    _ = state.apply(.filterInput("x"))
    #expect(GalleryView.frame(for: state).text.contains("No names match “10x”"))
}

@Test func thePreviewFillsTheScreenWithThePhoto() {
    var state = GalleryState(library: library([3]), spec: spec, width: 40, height: 12)
    _ = state.apply(.openPreview)
    #expect(GalleryView.frame(for: state).text.contains("⋯"), "a placeholder until a picture is there")
    let request = state.store.demand[0]
    let (w, h) = (request.box.width, request.box.height)
    _ = state.apply(.decoded(request, .decoded(Thumbnail(width: w, height: h, pixels: TestImages.solid(width: w, height: h, 250, 10, 10)))))
    let frame = GalleryView.frame(for: state)
    let red = TerminalColor.rgb(250, 10, 10)
    #expect((0..<11).allSatisfy { y in (0..<40).allSatisfy { frame[$0, y].style.background == red } })
    #expect(frame.lines.last!.hasPrefix(" 1/3  ") && frame.lines.last!.hasSuffix("Esc grid "))
}

@Test func symbolPicturesDrawTheirCellsAndTheKeyCyclesSets() {
    var state = GalleryState(library: library([2]), spec: spec, width: 40, height: 14)
    _ = state.apply(.cycleGraphics)
    #expect(state.symbols == .quadrant && state.message == "pictures in quadrants")
    #expect(state.store.demand.allSatisfy { $0.symbols == .quadrant })
    for request in state.store.demand {
        var thumbnail = Thumbnail(
            width: request.box.width, height: request.box.height, pixels: TestImages.solid(width: request.box.width, height: request.box.height, 0, 200, 0))
        let size = thumbnail.fittedCells(columns: SymbolCells.cells(inBox: request.box).columns, rows: SymbolCells.cells(inBox: request.box).rows)
        thumbnail.cells = SymbolCells(
            symbols: .quadrant, columns: size.columns, rows: size.rows,
            glyphs: Array(repeating: 0x259A, count: size.columns * size.rows),
            colors: Array(repeating: 0x00C800, count: size.columns * size.rows * 2))
        _ = state.apply(.decoded(request, .decoded(thumbnail)))
    }
    #expect(GalleryView.frame(for: state).text.contains("▚"))
    // Another set: what is cached in quadrants is asked for again.
    _ = state.apply(.cycleGraphics)
    #expect(state.symbols == .sextant && !state.store.demand.isEmpty)
}

@Test func thePreviewUsesTheSymbolSetWhenNotZoomed() {
    var state = GalleryState(library: library([2]), spec: spec, width: 40, height: 12, settings: settings { $0.graphics = .braille })
    _ = state.apply(.openPreview)
    #expect(state.store.demand.first?.symbols == .braille)
    let request = state.store.demand[0]
    var thumbnail = Thumbnail(
        width: request.box.width, height: request.box.height, pixels: TestImages.solid(width: request.box.width, height: request.box.height, 9, 9, 9))
    let size = thumbnail.fittedCells(columns: SymbolCells.cells(inBox: request.box).columns, rows: SymbolCells.cells(inBox: request.box).rows)
    thumbnail.cells = SymbolCells(
        symbols: .braille, columns: size.columns, rows: size.rows,
        glyphs: Array(repeating: 0x28FF, count: size.columns * size.rows), colors: Array(repeating: 0xFFFFFF, count: size.columns * size.rows * 2))
    _ = state.apply(.decoded(request, .decoded(thumbnail)))
    #expect(GalleryView.frame(for: state).text.contains("⣿"))
    _ = state.apply(.zoomIn)
    #expect(state.store.demand.first?.symbols == .half, "zoomed, the pixels are cropped instead")
}

/// A camera roll's folder holds photos and videos: its header, its card in the strip and its
/// footer count each, and the counts survive re-sorting (which cuts the sections anew).
@Test func aFolderOfPhotosAndVideosCountsEach() {
    let folders = [("trip/day1", ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg", "IMG_4.mov"]), ("trip/day2", ["CLIP_1.mov", "CLIP_2.mov"])]
    let mixed = Library(
        folders: folders.map { folder, names in
            ImageFolder(
                path: ImagePath(folder),
                files: names.map { name in
                    ImageFile(path: ImagePath(folder + "/" + name), byteCount: 1, modified: 0, format: name.hasSuffix(".mov") ? .quickTime : .jpeg)
                })
        })
    var state = GalleryState(library: mixed, spec: spec, width: 80, height: 30, settings: settings { $0.showsFooters = true })
    let text = GalleryView.frame(for: state).text
    #expect(text.contains("3 images, 1 video"), "\(text)")
    #expect(text.contains("2 videos"))
    #expect(text.contains("3 images, 1 video, none marked"), "the footer")
    _ = state.apply(.cycleSort)
    #expect(state.library.sections.map(\.videoCount).reduce(0, +) == 3, "re-sorted: \(state.library.sections.map(\.videoCount))")
    state = GalleryState(library: mixed, spec: spec, width: 80, height: 24, settings: settings { $0.layoutMode = .strip })
    let card = GalleryView.frame(for: state).lines.map { String($0.prefix(17)) }
    #expect(card.contains(" 3 images        ") && card.contains(" 1 video         "), "the strip's card, a line each: \(card)")
}

/// The strip's pinned card is drawn once, at the left edge: the section's own card (one column
/// in, where the grid starts) is not drawn under it, which left a column of it beside the pinned
/// one, with the end of whichever of its lines were the longest.
@Test func theStripsPinnedCardIsDrawnOnce() {
    let state = GalleryState(library: library([3, 30]), spec: spec, width: 80, height: 24, settings: settings { $0.layoutMode = .strip })
    let frame = GalleryView.frame(for: state)
    let card = state.layout.headerFrame(ofSection: 0)
    #expect(frame.lines[0].hasPrefix("▍trip/day1"))
    let cardStyle = frame[1, 0].style  // the title's
    for y in 0..<card.height where y < state.screen.gridHeight {
        #expect(frame[card.width, y].style != cardStyle, "row \(y): \(frame.lines[y])")
    }
}

/// Decisions not beside their photos are counted in the status line, and the info panel says it.
@Test func decisionsKeptAsideShowInTheStatusLineAndTheInfoPanel() {
    var state = decodedState([5], width: 100, height: 24, actions: [.rate(4)])
    _ = state.apply(.decisionsStored([Decisions.Storage(id: ItemID(0), isKept: true), Decisions.Storage(id: ItemID(2), isKept: true)]))
    #expect(GalleryView.frame(for: state).lines.last!.contains("⚑2 not beside their photos"))
    _ = state.apply(.toggleInfo)
    #expect(GalleryView.frame(for: state).lines.contains { $0.contains("Kept") && $0.contains("not beside the photo") })
}

/// A section's header counts what was decided in it, as the status line counts the whole library.
@Test func sectionHeadersCountTheirDecisions() {
    var state = decodedState([5, 4], width: 100, height: 24, actions: [.rate(4), .move(.right), .toggleReject, .move(.right), .rate(1)])
    let header = GalleryView.frame(for: state).lines.first { $0.contains("images") }!
    #expect(header.contains("5 images · ★3+ 1 · ✗ 1"), "\(header)")
    _ = state.apply(.undo)
    _ = state.apply(.undo)
    let after = GalleryView.frame(for: state).lines.first { $0.contains("images") }!
    #expect(after.contains("5 images · ★3+ 1") && !after.contains("✗"), "the reject undone: \(after)")
}

/// A mount that stops answering (or a share not mounted) is said in the status line, with the
/// marks and keys as they were, until it answers again; a key does not clear it.
@Test func aMountNotAnsweringIsSaidUntilItAnswers() {
    var state = GalleryState(library: library([3]), spec: spec, width: 80, height: 12)
    _ = state.apply(.mountsNotAnswering(["/mnt/nas"]))
    _ = state.apply(.toggleMark)
    let status = GalleryView.frame(for: state).lines.last!
    #expect(status.contains("✓1 marked") && status.contains("▲ /mnt/nas not answering"), "\(status)")
    _ = state.apply(.mountsNotAnswering([]))
    #expect(!GalleryView.frame(for: state).lines.last!.contains("not answering"))
    // A share's mount point seen without its share is said not mounted, beside one stalled.
    var wide = GalleryState(library: library([3]), spec: spec, width: 120, height: 12)
    _ = wide.apply(.mountsNotAnswering(["/mnt/a", "/mnt/nas"], unmounted: ["/mnt/nas", "/mnt/other"]))
    let both = GalleryView.frame(for: wide).lines.last!
    #expect(both.contains("▲ /mnt/a not answering; /mnt/nas not mounted") && !both.contains("other"), "\(both)")
    _ = wide.apply(.mountsNotAnswering([]))
    #expect(!GalleryView.frame(for: wide).lines.last!.contains("mounted"))
}

/// Tiles without a picture say they are offline while their mount does not answer, then load again.
@Test func tilesOnAMountNotAnsweringSayTheyAreOffline() {
    var state = GalleryState(library: library([3]), spec: spec, width: 80, height: 12)
    _ = state.initialEffects()
    _ = state.apply(.mountsNotAnswering(["/mnt/nas"]))
    #expect(!GalleryView.frame(for: state).text.contains("offline"), "another mount's")
    // The library's relative paths are under the working folder's mount.
    _ = state.apply(.mountsNotAnswering([FileManager.default.currentDirectoryPath]))
    let grid = GalleryView.frame(for: state).lines.dropLast().joined(separator: "\n")
    #expect(grid.components(separatedBy: "offline").count - 1 == 3 && !grid.contains("⋯"), "\(grid)")
    _ = state.apply(.mountsNotAnswering([]))
    let again = GalleryView.frame(for: state).lines.dropLast().joined(separator: "\n")
    #expect(!again.contains("offline") && again.components(separatedBy: "⋯").count - 1 == 3)
}

/// A file left because its mount was not answering is no broken tile and is not asked again
/// (nor counted as loading) until the mount answers; then it is asked for once more.
@Test func aFileLeftForAMountNotAnsweringIsAskedAgainWhenItAnswers() {
    var state = GalleryState(library: library([3]), spec: spec, width: 80, height: 12)
    let first = state.initialEffects()
    guard case .load(let requests)? = first.first, let request = requests.first(where: { $0.id == state.library.id(at: 1) }) else {
        Issue.record("no load: \(first)"); return
    }
    let here = FileManager.default.currentDirectoryPath
    _ = state.apply(.mountsNotAnswering(["/mnt/nas"]))
    #expect(state.loadingCount == 3, "another mount not answering")
    // The requests still out there (their reads may never end) wait offline, not loading.
    _ = state.apply(.mountsNotAnswering([here]))
    #expect(state.loadingCount == 0)
    let effects = state.apply(.decoded(request, .failed(.offline(here))))
    #expect(state.failure(at: 1) == nil && state.loadingCount == 0, "left, not failed, not loading")
    #expect(effects.allSatisfy { if case .load(let asked) = $0 { !asked.contains { $0.id == request.id } } else { true } })
    #expect(GalleryView.frame(for: state).text.contains("offline"))
    let again = state.apply(.mountsNotAnswering([]))
    #expect(again.contains { if case .load(let asked) = $0 { asked.contains { $0.id == request.id } } else { false } }, "\(again)")
    #expect(state.loadingCount == 3)
}
