import LightboxApp
import LightboxLayout
import LightboxThumbnails
import Testing

/// Files with sizes and modification days chosen so each order is different.
private func mixedFolders() -> [ImageFolder] {
    let day: Int64 = 86_400 * 1_000_000_000
    func file(_ folder: String, _ name: String, size: Int64, day d: Int64) -> ImageFile {
        ImageFile(path: ImagePath("\(folder)/\(name)"), byteCount: size, modified: (19_000 + d) * day + day / 2, format: .jpeg)
    }
    return [
        ImageFolder(path: ImagePath("a"), files: [file("a", "1.jpg", size: 30, day: 40), file("a", "2.jpg", size: 10, day: 0)]),
        ImageFolder(path: ImagePath("b"), files: [file("b", "1.jpg", size: 20, day: 1), file("b", "2.jpg", size: 40, day: 400)]),
    ]
}

private func names(_ library: Library) -> [String] { (0..<library.count).map { library[$0].path.description } }
private func titles(_ library: Library) -> [String] { library.sections.map { String(decoding: $0.title, as: UTF8.self) } }

@Test func eachSortAndSectioningOrdersTheLibrary() {
    var library = Library(folders: mixedFolders())
    #expect(names(library) == ["a/1.jpg", "a/2.jpg", "b/1.jpg", "b/2.jpg"])
    library.arrange(by: Arrangement(sort: .size))
    #expect(names(library) == ["a/2.jpg", "a/1.jpg", "b/1.jpg", "b/2.jpg"])
    #expect(titles(library) == ["a", "b"])
    library.arrange(by: Arrangement(sections: .none, sort: .size))
    #expect(names(library) == ["a/2.jpg", "b/1.jpg", "a/1.jpg", "b/2.jpg"])
    #expect(titles(library) == ["All images"])
    library.arrange(by: Arrangement(sections: .year, sort: .mtime, isReversed: true))
    #expect(names(library) == ["b/2.jpg", "a/1.jpg", "b/1.jpg", "a/2.jpg"])
    #expect(library.sections.map(\.items.count) == [1, 3])
    library.arrange(by: Arrangement(sections: .month, sort: .date))
    #expect(library.sections.map(\.items.count) == [2, 1, 1])
    library.arrange(by: Arrangement(sections: .date, sort: .name))
    #expect(library.sections.count == 4)
    #expect(titles(library).allSatisfy { $0.count > 10 && $0.hasPrefix("20") })
    for position in 0..<library.count { #expect(library.position(of: library.id(at: position)) == position) }
}

@Test func datesTakenDecideTheDateOrderOverModificationTimes() {
    var library = Library(folders: mixedFolders(), arrangement: Arrangement(sections: .none, sort: .date))
    #expect(names(library) == ["a/2.jpg", "b/1.jpg", "a/1.jpg", "b/2.jpg"])
    // b/2.jpg was taken long before it was copied here.
    library.setDatesTaken([(id: ItemID(3), seconds: 0)])
    #expect(names(library) == ["b/2.jpg", "a/2.jpg", "b/1.jpg", "a/1.jpg"])
}

@Test func reSortingKeepsTheCursorItemItsScreenLineAndTheMarks() {
    let counts = [30, 30]
    var state = GalleryState(library: library(counts), spec: threeColumns, width: 40, height: 20)
    state.apply([.move(.down), .move(.down), .move(.down), .move(.down), .toggleMark, .move(.down), .move(.down), .move(.down)])
    let cursorPath = state.library[state.viewport.cursor].path
    let markedPath = state.library[state.selection.marks.sorted[0]].path
    let line = state.layout.frame(ofItem: state.viewport.cursor).y - state.viewport.offset
    _ = state.apply(.toggleReverse)
    #expect(state.library[0].path.description == "photos/s1/IMG_30.jpg")
    #expect(state.library[state.viewport.cursor].path == cursorPath)
    #expect(state.library[state.selection.marks.sorted[0]].path == markedPath && state.selection.marks.count == 1)
    #expect(state.layout.frame(ofItem: state.viewport.cursor).y - state.viewport.offset == line)
    #expect(state.message == "sorted by name, reversed")
    _ = state.apply(.cycleSort)
    #expect(state.library.arrangement.sort == .date)
    #expect(state.library[state.viewport.cursor].path == cursorPath)
}

@Test func itemsStreamingIntoASortedLibraryLeaveTheCursorItemWhereItIs() {
    var state = GalleryState(
        library: Library(arrangement: Arrangement(sort: .size, isReversed: true)),
        spec: threeColumns, width: 40, height: 20, isScanning: true)
    func files(_ sizes: Range<Int>) -> [ImageFile] {
        sizes.map { ImageFile(path: ImagePath("f/\($0).jpg"), byteCount: Int64($0), modified: 0, format: .jpeg) }
    }
    _ = state.apply(.scanned([Scanner.Batch(folder: ImagePath("f"), files: files(0..<40))], isFinished: false))
    state.apply([.move(.down), .move(.down), .move(.down), .move(.down), .toggleMark])
    let cursorPath = state.library[state.viewport.cursor].path
    let line = state.layout.frame(ofItem: state.viewport.cursor).y - state.viewport.offset
    // Larger files sort before everything shown.
    _ = state.apply(.scanned([Scanner.Batch(folder: ImagePath("f"), files: files(100..<130))], isFinished: true))
    #expect(state.library[0].path.description == "f/129.jpg")
    #expect(state.library[state.viewport.cursor].path == cursorPath)
    #expect(state.layout.frame(ofItem: state.viewport.cursor).y - state.viewport.offset == line)
    #expect(state.selection.marks.count == 1 && state.library[state.selection.marks.sorted[0]].path == cursorPath)
}

@Test func sortingByDateReadsEveryDateInTheBackgroundAndReSortsAsTheyCome() {
    var state = GalleryState(
        library: Library(arrangement: Arrangement(sections: .month, sort: .date)),
        spec: threeColumns, width: 40, height: 20, isScanning: true)
    let files = (0..<4).map { ImageFile(path: ImagePath("f/\($0).jpg"), byteCount: 1, modified: 1_000_000_000 * 1_000_000_000, format: .jpeg) }
    let effects = state.apply(.scanned([Scanner.Batch(folder: ImagePath("f"), files: files)], isFinished: true))
    let asked = effects.compactMap { effect -> [Int]? in
        if case .readMetadata(let requests, false) = effect { return requests.map(\.id.rawValue) } else { return nil }
    }
    #expect(asked == [[0, 1, 2, 3]])
    _ = state.apply(.move(.right))
    #expect(state.library[state.viewport.cursor].path.description == "f/1.jpg")
    // f/3 was taken first, in an earlier month; f/1 has no EXIF date and keeps its mtime (September 2001).
    var early = ImageMetadata(), late = ImageMetadata()
    early.dateTaken = "2001:02:03 04:05:06"
    late.dateTaken = "2001:03:01 00:00:00"
    _ = state.apply(
        .metadataRead([
            MetadataResult(id: ItemID(3), metadata: early, size: nil), MetadataResult(id: ItemID(0), metadata: late, size: nil),
            MetadataResult(id: ItemID(1), metadata: nil, size: nil), MetadataResult(id: ItemID(2), metadata: late, size: nil),
        ]))
    #expect((0..<4).map { state.library[$0].path.description } == ["f/3.jpg", "f/0.jpg", "f/2.jpg", "f/1.jpg"])
    #expect(state.library.sections.map { String(decoding: $0.title, as: UTF8.self) } == ["February 2001", "March 2001", "September 2001"])
    #expect(state.library[state.viewport.cursor].path.description == "f/1.jpg")
    // Nothing more to read.
    #expect(state.apply(.move(.right)).allSatisfy { if case .readMetadata = $0 { return false } else { return true } })
}

@Test func collapsingASectionLeavesItsHeaderAndSkipsItsItems() {
    var state = GalleryState(library: library([7, 2, 20]), spec: threeColumns, width: 40, height: 20)
    state.apply([.move(.right), .move(.right), .move(.down), .toggleSection])
    #expect(state.viewport.cursor == 0 && state.layout.collapsed == [true, false, false])
    #expect(state.store.demand.allSatisfy { $0.id.rawValue >= 7 }, "no thumbnails for a collapsed section")
    // Space on a collapsed header marks the whole section; moving on leaves it.
    _ = state.apply(.toggleMarkAndAdvance)
    #expect(state.selection.marks.count == 7 && state.viewport.cursor == 7)
    state.apply([.move(.up)])
    #expect(state.viewport.cursor == 0)
    // More items arriving for a collapsed folder keep it collapsed.
    _ = state.apply(.toggleAllSections)
    #expect(state.layout.collapsed == [true, true, true])
    #expect(state.layout.contentHeight == 3 * 1 + 2 * 1)
    _ = state.apply(.toggleAllSections)
    #expect(state.layout.collapsed == [false, false, false])
}

@Test func footersAddALineToEverySection() {
    let without = GalleryState(library: library([7, 2]), spec: threeColumns, width: 40, height: 20).layout.contentHeight
    let state = GalleryState(library: library([7, 2]), spec: threeColumns, width: 40, height: 20, settings: settings { $0.showsFooters = true })
    #expect(state.layout.contentHeight == without + 2)
}

@Test func masonryReadsShapesAndSettlesWithoutMovingTheCursorTile() {
    var state = GalleryState(library: library([40, 40]), spec: threeColumns, width: 40, height: 24)
    let effects = state.apply(.cycleLayout)
    #expect(state.layoutState.mode == .masonry && state.message == "masonry layout")
    let asked = effects.flatMap { effect -> [Int] in
        if case .readMetadata(let requests, false) = effect { return requests.map(\.id.rawValue) } else { return [] }
    }
    let urgent = effects.flatMap { effect -> [Int] in
        if case .readMetadata(let requests, true) = effect { return requests.map(\.id.rawValue) } else { return [] }
    }
    #expect((asked + urgent).sorted() == Array(0..<80), "every picture's shape is read, once")
    #expect(!urgent.isEmpty && urgent.allSatisfy { state.isOnScreen(state.library.position(of: ItemID($0))) }, "shapes on screen first")
    state.apply([.move(.down), .move(.down), .move(.down), .move(.down), .move(.right)])
    let cursor = state.viewport.cursor
    let line = state.layout.frame(ofItem: cursor).y - state.viewport.offset
    // Portraits and panoramas arrive: tiles change height, the cursor's stays on its line.
    let results = (0..<80).map {
        MetadataResult(id: ItemID($0), metadata: nil, size: $0 % 3 == 0 ? PixelSize(width: 600, height: 900) : PixelSize(width: 900, height: 300))
    }
    _ = state.apply(.metadataRead(results))
    #expect(state.viewport.cursor == cursor)
    #expect(state.layout.frame(ofItem: cursor).y - state.viewport.offset == line)
    #expect(state.layout.boxFrame(ofItem: 0).height > state.layout.boxFrame(ofItem: 1).height)
    // Only tiles on screen are decoded first.
    #expect(state.store.demand.prefix { state.isOnScreen(state.library.position(of: $0.id)) }.count > 0)
    _ = state.apply(.cycleLayout)
    #expect(state.layoutState.mode == .strip && state.isOnScreen(state.viewport.cursor))
    _ = state.apply(.cycleLayout)
    #expect(state.layoutState.mode == .grid && state.tileOfCursorIsVisible)
}

@Test func theStripScrollsSidewaysAndKeepsTheCursorTileInView() {
    var state = GalleryState(library: library([30, 30]), spec: threeColumns, width: 60, height: 20, settings: settings { $0.layoutMode = .strip })
    #expect(state.layout.axis == .horizontal && state.viewportLength == 58)
    for _ in 0..<25 {
        _ = state.apply(.move(.right))
        let tile = state.layout.frame(ofItem: state.viewport.cursor)
        #expect(
            tile.x >= state.viewport.offset + state.layout.pinnedHeaderLength && tile.maxX <= state.viewport.offset + state.viewportLength,
            "cursor \(state.viewport.cursor) at \(tile.x) offset \(state.viewport.offset)")
    }
    #expect(state.viewport.offset > 0)
    _ = state.apply(.pageDown)
    #expect(state.layout.span(of: state.layout.frame(ofItem: state.viewport.cursor)).end <= state.viewport.offset + state.viewportLength)
    let before = state.viewport.offset
    _ = state.apply(.scroll(lines: -3))
    #expect(state.viewport.offset == before - 3)
    // A click on a tile moves the cursor to it.
    let target = state.visibleItems.first { state.isOnScreen($0) && state.layout.frame(ofItem: $0).x > state.viewport.offset + 20 }!
    let frame = state.layout.frame(ofItem: target)
    _ = state.apply(.click(x: frame.x - state.viewport.offset + GalleryState.gridInset + 1, y: frame.y + 1))
    #expect(state.viewport.cursor == target)
}

/// A sort key may be a text: by kind, the format's name orders (camera RAW, JPEG, PNG), the scan's
/// order breaks ties; reversed, both turn.
@Test func aTextSortKeyOrdersByKindThenByPath() {
    func file(_ name: String, _ format: ImageFormat) -> ImageFile {
        ImageFile(path: ImagePath("f/\(name)"), byteCount: 1, modified: 0, format: format)
    }
    let folder = ImageFolder(
        path: ImagePath("f"), files: [file("1.png", .png), file("2.jpg", .jpeg), file("3.dng", .cameraRaw), file("4.jpg", .jpeg), file("5.png", .png)])
    var library = Library(folders: [folder])
    library.arrange(by: Arrangement(sort: .kind))
    #expect(names(library) == ["f/3.dng", "f/2.jpg", "f/4.jpg", "f/1.png", "f/5.png"])
    library.arrange(by: Arrangement(sort: .kind, isReversed: true))
    #expect(names(library) == ["f/5.png", "f/1.png", "f/4.jpg", "f/2.jpg", "f/3.dng"])
    #expect(SortKey.number(9) < .text([]) && SortKey.text(Array("JPEG".utf8)) < .text(Array("PNG".utf8)) && !(SortKey.number(2) < .number(1)))
}

/// Every sort key is in the option's choices, its help, `s`'s help and the README's table.
@Test func theSortKeysListsComeFromTheirTable() {
    let option = OptionTable.all.first { $0.long == "sort" }!
    #expect(option.choices == Arrangement.Sort.allCases.map(\.rawValue))
    for sort in Arrangement.Sort.allCases {
        #expect(option.help.contains(sort.rawValue) && option.details?.contains(sort.description) == true)
        #expect(CommandTable.row(of: .cycleSort).help.contains(sort.rawValue))
    }
}

/// Every kind of section is in `--sections`' choices, help and README row.
@Test func theSectionKindsListsComeFromTheirTable() {
    let option = OptionTable.all.first { $0.long == "sections" }!
    #expect(option.choices == Arrangement.Sections.allCases.map(\.rawValue))
    for kind in Arrangement.Sections.allCases { #expect(option.help.contains(kind.rawValue) && option.details?.contains(kind.description) == true) }
}
