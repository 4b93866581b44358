import LightboxLayout
import LightboxThumbnails
import Testing

@testable import LightboxApp

/// A folder's files by name, as a scan (or the index) hands them out.
private func files(_ folder: String, _ names: [String], size: Int64 = 1000) -> [ImageFile] {
    names.map { ImageFile(path: ImagePath("\(folder)/\($0)"), byteCount: size, modified: 0, format: .jpeg) }
}

private func walked(_ folder: String, _ names: [String]) -> Scanner.Batch { Scanner.Batch(folder: ImagePath(folder), files: files(folder, names)) }

private func remembered(_ folder: String, _ names: [String], dates: [String?] = []) -> Scanner.Batch {
    let found = files(folder, names)
    let kept = found.indices.map { i -> IndexedMetadata? in
        guard i < dates.count, let date = dates[i] else { return nil }
        var metadata = ImageMetadata()
        metadata.dateTaken = date
        return IndexedMetadata(metadata: metadata, shownSize: PixelSize(width: 40, height: 30))
    }
    return Scanner.Batch(folder: ImagePath(folder), files: found, indexed: kept)
}

/// The paths in display order, and the sections' titles and sizes.
private func shown(_ library: Library) -> (paths: [String], sections: [String]) {
    ((0..<library.count).map { library[$0].path.description }, library.sections.map { "\(String(decoding: $0.title, as: UTF8.self)):\($0.items.count)" })
}

private func batches(_ list: [Scanner.Batch]) -> [(files: [ImageFile], folder: ImagePath)] { list.map { ($0.files, $0.folder) } }

@Test func aLibraryFromTheIndexThatTheScanConfirmsDoesNotChange() {
    let known = [remembered("a", ["1.jpg", "2.jpg"]), remembered("b", ["1.jpg"])]
    var library = Library()
    library.appendFromIndex(batches(known))
    let before = shown(library)
    #expect(library.isChecking)
    let changed = library.appendChecked(batches([walked("a", ["1.jpg", "2.jpg"]), walked("b", ["1.jpg"])]))
    let went = library.finishChecking()
    #expect(!changed && !went)
    #expect(shown(library) == before && library.totalCount == 3 && !library.isChecking)
}

@Test func whatTheScanFindsOtherwiseEndsAsAFreshScanWouldShowIt() {
    // Remembered: a/1,2,3; c/1. Now: a/2 gone, a/0 and a/10 new, b new between a and c, c/2 new at the end, d new.
    let known = [remembered("a", ["1.jpg", "2.jpg", "3.jpg"]), remembered("c", ["1.jpg"])]
    let now = [walked("a", ["0.jpg", "1.jpg", "3.jpg", "10.jpg"]), walked("b", ["1.jpg"]), walked("c", ["1.jpg", "2.jpg"]), walked("d", ["1.jpg"])]
    for arrangement in [Arrangement(), Arrangement(sections: .none), Arrangement(sort: .size)] {
        var library = Library(arrangement: arrangement)
        library.appendFromIndex(batches(known))
        // The walk's batches one at a time, as they come.
        for batch in now { library.appendChecked(batches([batch])) }
        let went = library.finishChecking()
        #expect(went)
        var fresh = Library(arrangement: arrangement)
        fresh.append(batches(now))
        #expect(shown(library) == shown(fresh), "\(arrangement)")
        #expect(library.foundCount == 8 && library.fileCount == 8 && library.totalCount == 9)
    }
}

@Test func aFileChangedSinceTakesItsOldPlace() {
    var library = Library()
    library.appendFromIndex(batches([remembered("a", ["1.jpg", "2.jpg", "3.jpg"])]))
    let old = library.id(at: 1)
    let changed = library.appendChecked([(files("a", ["1.jpg"]) + files("a", ["2.jpg"], size: 5) + files("a", ["3.jpg"]), ImagePath("a"))])
    #expect(changed)
    #expect(shown(library).paths == ["a/1.jpg", "a/2.jpg", "a/3.jpg"])
    #expect(library[1].byteCount == 5 && library.isGone(old) && library.position(of: old) < 0)
}

@Test func theCursorAndTheMarksStayOnTheirPhotosWhileTheScanChecks() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    let names = (1...30).map { "IMG_\($0).jpg" }
    _ = state.apply(.scanned([remembered("a", names)], isFinished: false))
    #expect(state.library.count == 30)
    state.apply([.move(.down), .move(.down), .move(.right), .toggleMark])
    let path = state.library[state.viewport.cursor].path
    #expect(path == ImagePath("a/IMG_8.jpg"))
    // The walk: IMG_2 gone, IMG_5a new (before the cursor), IMG_31 new at the end.
    var now = names.filter { $0 != "IMG_2.jpg" }
    now.insert("IMG_5a.jpg", at: 4)
    now.append("IMG_31.jpg")
    _ = state.apply(.scanned([walked("a", Array(now.prefix(10)))], isFinished: false))
    #expect(state.library[state.viewport.cursor].path == path)
    _ = state.apply(.scanned([walked("a", Array(now.dropFirst(10)))], isFinished: true))
    #expect(!state.isScanning && !state.library.isChecking)
    #expect(shown(state.library).paths == now.map { "a/" + $0 })
    #expect(state.library[state.viewport.cursor].path == path && state.viewport.cursor == 7)
    #expect(state.selection.marks.sorted == [7])
}

@Test func theIndexsDatesMakeTheSectionsAtOnce() {
    var state = GalleryState(library: Library(arrangement: Arrangement(sections: .date)), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(
        .scanned(
            [remembered("a", ["1.jpg", "2.jpg", "3.jpg"], dates: ["2024:05:01 10:00:00", "2024:05:02 10:00:00", "2024:05:01 11:00:00"])], isFinished: false))
    #expect(state.library.sections.map(\.items.count) == [2, 1])
    #expect(state.metadataState.requestedCount == 3)
}

@Test func aMarkOnAPhotoTheScanFindsGoneGoesWithIt() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(.scanned([remembered("a", ["1.jpg", "2.jpg", "3.jpg"])], isFinished: false))
    state.apply([.move(.right), .toggleMark, .move(.right), .toggleMark])
    #expect(state.selection.count == 2)
    _ = state.apply(.scanned([walked("a", ["1.jpg", "3.jpg"])], isFinished: true))
    #expect(state.selection.count == 1 && state.selection.marks.sorted == [1])
    #expect(state.library[1].path == ImagePath("a/3.jpg"))
}

/// The folder emptied since the index had it: the scan's end, in the first take (before the loop's
/// first turn) or a later one, says nothing was found, as a first visit would, not an empty gallery.
@Test func aLibraryWhoseIndexedPhotosAreAllGoneEndsAsNothingFound() {
    func endsFoundNothing(_ effects: [Effect]) -> Bool { effects.contains(.foundNothing) }
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    #expect(endsFoundNothing(state.apply(.scanned([remembered("a", ["1.jpg", "2.jpg"]), walked("a", [])], isFinished: true))))
    var later = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    #expect(!endsFoundNothing(later.apply(.scanned([remembered("a", ["1.jpg", "2.jpg"])], isFinished: false))))
    #expect(endsFoundNothing(later.apply(.scanned([], isFinished: true))) && later.library.isEmpty)
    // One photo left is a gallery.
    var one = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    #expect(!endsFoundNothing(one.apply(.scanned([remembered("a", ["1.jpg", "2.jpg"]), walked("a", ["2.jpg"])], isFinished: true))))
    #expect(one.library.count == 1)
}

/// A folder's listing (files named, not read: `ImageFile.isListed`), as a network mount's scan hands it out first.
private func listed(_ folder: String, _ names: [String], format: ImageFormat = .jpeg) -> Scanner.Batch {
    var batch = Scanner.Batch(folder: ImagePath(folder), files: names.map { ImageFile(listed: ImagePath("\(folder)/\($0)"), format: format) })
    batch.isListing = true
    return batch
}

private func endOfListing(_ folder: String) -> Scanner.Batch {
    var batch = Scanner.Batch(folder: ImagePath(folder), files: [])
    batch.endsListing = true
    return batch
}

/// What the effects ask of the files: decodes, metadata reads and sidecar reads, by path.
private func asked(_ effects: [Effect]) -> (loads: [String], metadata: [String], decisions: [String]) {
    var asked: (loads: [String], metadata: [String], decisions: [String]) = ([], [], [])
    for effect in effects {
        switch effect {
        case .load(let requests): asked.loads += requests.map { $0.file.path.description }
        case .readMetadata(let requests, _): asked.metadata += requests.map { $0.file.path.description }
        case .readDecisions(let reads): asked.decisions += reads.map { $0.id.rawValue }.map { String($0) }
        default: break
        }
    }
    return asked
}

@Test func listedFilesAreShownAtOnceAndTheWalkConfirmsThemInPlace() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    let first = asked(state.apply(.scanned([listed("a", ["1.jpg", "2.jpg", "3.jpg", "4.jpg"])], isFinished: false)))
    #expect(state.library.count == 4 && state.library.isChecking && state.library.hasListedItems)
    // A still read whole is decoded as listed (its first bytes say what it is); no metadata, no sidecar yet.
    #expect(first.loads.sorted() == ["a/1.jpg", "a/2.jpg", "a/3.jpg", "a/4.jpg"] && first.metadata.isEmpty && first.decisions.isEmpty)
    #expect(state.loadingCount == 4 && !state.isScreenComplete && !state.screenWaitsForPictures)
    #expect(state.library.unreadListedCount == 4)
    state.apply([.move(.right), .toggleMark])
    let id = state.library.id(at: 1)
    // The walk reads 1, 2 (a PNG named .jpg) and 3; 4 is not an image.
    var read = files("a", ["1.jpg", "2.jpg", "3.jpg"])
    read[1].format = .png
    let then = asked(state.apply(.scanned([Scanner.Batch(folder: ImagePath("a"), files: read)], isFinished: false)))
    #expect(state.library.id(at: 1) == id && state.library.file(id) == read[1], "the same item, as read")
    #expect(state.viewport.cursor == 1 && state.selection.marks.sorted == [1])
    #expect(then.loads.sorted() == ["a/1.jpg", "a/2.jpg", "a/3.jpg", "a/4.jpg"])
    // Read now, the PNG's frames (it may animate) are asked for at once; the listed file still waits.
    #expect(then.metadata == ["a/2.jpg"] && then.decisions.sorted() == ["0", "1", "2"], "\(then)")
    #expect(state.library.count == 4 && state.library[3].isListed && state.library.unreadListedCount == 1)
    // The folder's walk ends: the listed file it did not find goes, at once (not at the scan's end).
    _ = state.apply(.scanned([endOfListing("a")], isFinished: false))
    #expect(shown(state.library).paths == ["a/1.jpg", "a/2.jpg", "a/3.jpg"] && !state.library.hasListedItems)
    #expect(state.library.fileCount == 3 && state.library.listedCount == 4 && state.library.unreadListedCount == 0 && state.isScanning)
}

/// A listed RAW or video is not decoded until the walk reads it (its decoder reads only a part,
/// so nothing tells what it is first): it counts as loading, and while its share does not answer
/// it waits offline, not loading.
@Test func aListedRawWaitsForTheWalk() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    let first = asked(state.apply(.scanned([listed("a", ["1.nef", "2.nef"], format: .cameraRaw)], isFinished: false)))
    #expect(first.loads.isEmpty && first.metadata.isEmpty && first.decisions.isEmpty)
    #expect(state.loadingCount == 2)
    _ = state.apply(.mountsNotAnswering(["/"]))
    #expect(state.loadingCount == 0)
    _ = state.apply(.mountsNotAnswering([]))
    var read = files("a", ["1.nef", "2.nef"])
    for i in read.indices { read[i].format = .cameraRaw }
    let then = asked(state.apply(.scanned([Scanner.Batch(folder: ImagePath("a"), files: read)], isFinished: false)))
    #expect(then.loads.sorted() == ["a/1.nef", "a/2.nef"])
}

/// A picture made of a listed file (`Thumbnail.readFile`) is kept for the file the walk then
/// finds, when that is the file it was made of (its size, time and kind): whether it came before
/// the walk's finding or after. A file found otherwise is decoded again.
@Test func aPictureOfAListedFileIsKeptWhenTheWalkFindsTheSameFile() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    let listing = asked(state.apply(.scanned([listed("a", ["1.jpg", "2.jpg", "3.jpg"])], isFinished: false)))
    #expect(listing.loads.count == 3)
    let requests = state.store.demand
    func picture(of file: ImageFile) -> DecodeResult {
        var thumbnail = Thumbnail(width: 2, height: 2, pixels: Array(repeating: 90, count: 12))
        thumbnail.readFile = file
        return .decoded(thumbnail)
    }
    var found = files("a", ["1.jpg", "2.jpg", "3.jpg"])
    // 1.jpg and 2.jpg decoded before the walk reads them; 2.jpg rewritten in between.
    _ = state.apply(.decoded(requests.first { $0.file.path == ImagePath("a/1.jpg") }!, picture(of: found[0])))
    var older = found[1]
    older.modified = 5
    _ = state.apply(.decoded(requests.first { $0.file.path == ImagePath("a/2.jpg") }!, picture(of: older)))
    let walk = asked(state.apply(.scanned([Scanner.Batch(folder: ImagePath("a"), files: found)], isFinished: false)))
    #expect(state.store.cache.contains(state.thumbnailKey(ofItem: 0)), "kept for the file found")
    #expect(!state.store.cache.contains(state.thumbnailKey(ofItem: 1)), "made of another version")
    #expect(walk.loads.sorted() == ["a/2.jpg", "a/3.jpg"], "\(walk.loads)")
    // 3.jpg's picture, asked for while listed, comes after the walk read it.
    found[2].format = .jpeg
    _ = state.apply(.decoded(requests.first { $0.file.path == ImagePath("a/3.jpg") }!, picture(of: found[2])))
    #expect(state.store.cache.contains(state.thumbnailKey(ofItem: 2)))
    #expect(state.store.demand.map(\.file.path) == [ImagePath("a/2.jpg")])
}

@Test func aListingAfterWalkedFoldersKeepsTheScansOrder() {
    // A local folder walked first, then a share's folder listed, then a file the listing did not name.
    var library = Library()
    library.append(batches([walked("a", ["1.jpg", "2.jpg"])]))
    library.appendFromIndex(batches([listed("b", ["1.jpg", "2.jpg"])]))
    library.appendChecked(batches([walked("b", ["1.jpg", "1b.jpg", "2.jpg"])]))
    library.settleListing(of: ImagePath("b"))
    library.appendChecked(batches([walked("c", ["1.jpg"])]))
    library.finishChecking()
    #expect(shown(library).paths == ["a/1.jpg", "a/2.jpg", "b/1.jpg", "b/1b.jpg", "b/2.jpg", "c/1.jpg"])
    #expect(shown(library).sections == ["a:2", "b:3", "c:1"])
    #expect((0..<library.count).allSatisfy { !library[$0].isListed })
}

@Test func aFileChangedInPlaceIsReadAgainWhereItIs() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(.scanned([remembered("a", ["1.jpg", "2.jpg", "3.jpg"], dates: ["2024:05:01 10:00:00", "2024:05:02 10:00:00", nil])], isFinished: false))
    _ = state.apply(.scanned([walked("a", ["1.jpg", "2.jpg", "3.jpg"])], isFinished: true))
    state.apply([.move(.right), .toggleMark])
    let id = state.library.id(at: 1)
    #expect(state.metadataState.results[id] != nil && !state.library.isChecking)
    // 2.jpg rewritten in place (now a PNG of another size), found by the check after the walk.
    var now = files("a", ["2.jpg"], size: 77)[0]
    now.format = .png
    var batch = Scanner.Batch(folder: ImagePath("a"), files: [now])
    batch.isChanged = true
    let effects = asked(state.apply(.scanned([batch], isFinished: false)))
    #expect(state.library.id(at: 1) == id && state.library.file(id) == now && state.library.count == 3)
    #expect(state.viewport.cursor == 1 && state.selection.marks.sorted == [1] && state.library.changedCount == 1)
    #expect(state.metadataState.results[id] == nil, "what was read of it forgotten")
    #expect(effects.loads.contains("a/2.jpg") && effects.decisions == ["1"], "its picture and sidecar asked for again")
}

/// The walk over while the files of folders it took from the index are still looked at: what it
/// did not find goes at once (not minutes later, after the look), the status line says what goes
/// on, and a file found changed afterwards still takes its place.
@Test func whatTheWalkDidNotFindGoesWhenItIsOverNotAfterTheLookAtFiles() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(.scanned([remembered("a", ["1.jpg", "2.jpg", "3.jpg"], dates: [nil, nil, nil])], isFinished: false))
    var end = Scanner.Batch(folder: ImagePath("."), files: [])
    end.endsWalk = true
    _ = state.apply(.scanned([walked("a", ["1.jpg", "3.jpg"]), end], isFinished: false))
    #expect(shown(state.library).paths == ["a/1.jpg", "a/3.jpg"] && !state.library.isChecking)
    #expect(state.isScanning && state.isWalkOver)
    var now = files("a", ["3.jpg"], size: 77)[0]
    now.format = .png
    var batch = Scanner.Batch(folder: ImagePath("a"), files: [now])
    batch.isChanged = true
    _ = state.apply(.scanned([batch], isFinished: true))
    #expect(state.library.file(state.library.id(at: 1)) == now && state.library.count == 2 && !state.isScanning)
}

/// The walk looks the index's items up a folder at a time, as it reaches each (hashing all
/// 100,000 at its first finding held a key 30 ms); a file it finds under another folder's name
/// (a path given alone) is still found among all the index had.
@Test func theIndexsItemsAreLookedUpAFolderAtATime() {
    var library = Library()
    library.appendFromIndex(batches([remembered("a", ["1.jpg", "2.jpg"]), remembered("b", ["1.jpg", "2.jpg", "3.jpg"])]))
    library.appendChecked(batches([walked("a", ["1.jpg"])]))
    #expect(library.unconfirmed.count == 1 && library.unconfirmedWaitingCount == 3, "a's alone")
    #expect(library.uncheckedCount == 4)
    let changed = library.appendChecked([(files: files("b", ["2.jpg"]), folder: ImagePath("given"))])
    #expect(!changed && library.uncheckedCount == 3 && library.unconfirmedWaitingCount == 0)
    let went = library.finishChecking()
    #expect(went && shown(library).paths == ["a/1.jpg", "b/2.jpg"])

    // A listing settled: its folder's items alone are looked up, the rest still wait.
    var listing = Library()
    listing.appendFromIndex(batches([remembered("a", ["1.jpg", "2.jpg"]), listed("b", ["1.jpg", "2.jpg"])]))
    listing.appendChecked(batches([walked("b", ["1.jpg"])]))
    let gone = listing.settleListing(of: ImagePath("b"))
    #expect(gone && listing.unconfirmed.isEmpty && listing.unconfirmedWaitingCount == 2 && listing.uncheckedCount == 2)
    #expect(shown(listing).paths == ["a/1.jpg", "a/2.jpg", "b/1.jpg"])
}

/// The index's parts and a listing that comes once the walk has begun are checked alike: what
/// the walk confirms counts down, what it never finds goes at its end.
@Test func partsAddedWhileCheckingAreCheckedAlike() {
    var library = Library()
    library.appendFromIndex(batches([remembered("a", ["1.jpg", "2.jpg"])]))
    library.appendFromIndex(batches([remembered("b", ["1.jpg"])]))
    #expect(library.uncheckedCount == 3)
    library.appendChecked(batches([walked("a", ["1.jpg", "2.jpg"])]))
    #expect(library.uncheckedCount == 1)
    library.appendFromIndex(batches([remembered("c", ["1.jpg", "2.jpg"])]))
    #expect(library.uncheckedCount == 3)
    library.appendChecked(batches([walked("b", ["1.jpg"]), walked("c", ["2.jpg"])]))
    #expect(library.uncheckedCount == 1)
    let went = library.finishChecking()
    #expect(went && shown(library).paths == ["a/1.jpg", "a/2.jpg", "b/1.jpg", "c/2.jpg"] && library.uncheckedCount == 0)
}

/// The scan over, what the index had and it did not find stays when its mount is not answering
/// (gone, or stalled: the walk could not look there); elsewhere it goes.
@Test func whatTheIndexHadOnAMountNotAnsweringStays() {
    let here = String(decoding: ImagePath("a").absoluteBytes, as: UTF8.self)  // as if a mount point
    var library = Library()
    library.appendFromIndex(batches([remembered("a", ["1.jpg", "2.jpg"])]))
    #expect(!library.finishChecking(keepingUnder: [here]) && library.foundCount == 2 && !library.isChecking)
    var other = Library()
    other.appendFromIndex(batches([remembered("a", ["1.jpg", "2.jpg"])]))
    #expect(other.finishChecking(keepingUnder: ["/mnt/nas"]) && other.foundCount == 0)
    // In the gallery: its mount named before the walk's end.
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(.scanned([remembered("a", ["1.jpg"])], isFinished: false))
    _ = state.apply(.mountsNotAnswering([here]))
    _ = state.apply(.scanned([], isFinished: true))
    #expect(state.library.count == 1 && !state.isScanning)
}

/// A list on standard input, recalled from the index a chunk at a time, each chunk checked by the
/// walk before the next is recalled (a new file, one gone, a folder named again later): it ends
/// as the list shown without the index would.
@Test func aListRecalledAChunkAtATimeEndsAsTheListWouldShow() {
    let chunks: [(recalled: [Scanner.Batch], walked: [Scanner.Batch])] = [
        ([remembered("a", ["1.jpg", "2.jpg", "3.jpg"])], [walked("a", ["1.jpg", "new.jpg", "3.jpg"])]),
        ([remembered("b", ["1.jpg"]), remembered("a", ["9.jpg"])], [walked("b", ["1.jpg", "2.jpg"]), walked("a", ["9.jpg"])]),
    ]
    for arrangement in [Arrangement(), Arrangement(sections: .none), Arrangement(sort: .size)] {
        var library = Library(arrangement: arrangement)
        for chunk in chunks {
            library.appendFromIndex(batches(chunk.recalled))
            library.appendChecked(batches(chunk.walked))
        }
        let went = library.finishChecking()
        #expect(went, "a/2.jpg went")
        var fresh = Library(arrangement: arrangement)
        fresh.append(batches(chunks.flatMap(\.walked)))
        #expect(shown(library) == shown(fresh), "\(arrangement)")
        #expect(library.foundCount == 6)
    }
}

/// What the walk shows of folders walked again is checked as what the index had is: the items
/// it finds again stay (cursor and marks on them), a new one goes in its place, one not found
/// goes; the items of other folders are not touched.
@Test func foldersWalkedAgainAreCheckedInPlace() {
    var library = Library()
    library.append(batches([walked("/l/a", ["1.jpg", "2.jpg"]), walked("/nas/p", ["1.jpg", "3.jpg", "4.jpg"]), walked("/l/b", ["1.jpg"])]))
    library.startChecking(under: [Array("/nas/p".utf8)])
    #expect(library.isChecking && library.uncheckedCount == 3)
    library.appendChecked(batches([walked("/nas/p", ["0.jpg", "1.jpg", "2.jpg", "4.jpg"])]))
    let went = library.finishChecking()
    #expect(went)
    #expect(shown(library).paths == ["/l/a/1.jpg", "/l/a/2.jpg", "/nas/p/0.jpg", "/nas/p/1.jpg", "/nas/p/2.jpg", "/nas/p/4.jpg", "/l/b/1.jpg"])
}

/// A path given whose mount went away while the walk went on (named not answering) is walked
/// again once the scan is over and the mount answers: the walk's problems there go (said again
/// if they still are), the gallery scans, and what the walk finds is checked in place; a mount
/// named after the walk, or paths on no such mount, are not walked again.
@Test func aPathWhoseMountWentAwayDuringTheWalkIsWalkedAgainWhenItAnswers() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    state.scanRoots = [ImagePath("/l"), ImagePath("/nas/p/")]
    var failed = walked("/nas/p", [])
    failed.problems = [
        "cannot open /nas/p/x: Transport endpoint is not connected", "cannot open /nas/p: Transport endpoint is not connected", "not an image: /nas/pp.jpg",
    ]
    _ = state.apply(.scanned([walked("/l", ["1.jpg"]), remembered("/nas/p", ["1.jpg", "3.jpg"])], isFinished: false))
    _ = state.apply(.mountsNotAnswering(["/nas"]))
    _ = state.apply(.scanned([failed], isFinished: true))
    #expect(!state.isScanning && state.library.count == 3 && state.scanProblems.count == 3, "kept from the index, offline")
    state.apply([.move(.right), .move(.right), .toggleMark])
    let effects = state.apply(.mountsNotAnswering([]))
    #expect(effects.contains(.walkAgain([ImagePath("/nas/p/")])), "\(effects)")
    #expect(state.isScanning && state.scanProblems == ["not an image: /nas/pp.jpg"], "\(state.scanProblems)")
    _ = state.apply(.scanned([walked("/nas/p", ["1.jpg", "2.jpg", "3.jpg"])], isFinished: true))
    #expect(!state.isScanning && shown(state.library).paths == ["/l/1.jpg", "/nas/p/1.jpg", "/nas/p/2.jpg", "/nas/p/3.jpg"])
    #expect(state.library[state.viewport.cursor].path == ImagePath("/nas/p/3.jpg") && state.selection.marks.count == 1)
    // Named after the walk: nothing to walk again.
    _ = state.apply(.mountsNotAnswering(["/nas"]))
    #expect(!state.apply(.mountsNotAnswering([])).contains(.walkAgain([ImagePath("/nas/p/")])))
    // Stalled while it walked, the walk waiting for it (no problem met there): not walked again.
    var stalled = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    stalled.scanRoots = [ImagePath("/nas/p")]
    _ = stalled.apply(.mountsNotAnswering(["/nas"]))
    _ = stalled.apply(.scanned([walked("/nas/p", ["1.jpg"])], isFinished: false))
    let resumed = stalled.apply(.mountsNotAnswering([]))
    _ = stalled.apply(.scanned([], isFinished: true))
    #expect(!resumed.contains(.walkAgain([ImagePath("/nas/p")])) && !stalled.isScanning)
}

/// A list's paths that the scan could not look at, their mount gone (`Batch.missed`), are looked
/// at again once it answers, each once: what the index had of them is checked in place (the
/// cursor and marks stay), one it did not have comes, one gone goes, and the problems met there
/// go; a path on another mount waits for that one.
@Test func aListsPathsMissedAsTheirMountWentAwayAreLookedAtAgain() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    var failed = Scanner.Batch(folder: ImagePath("/nas/p"), files: [])
    failed.problems = ["cannot open /nas/p/2.jpg: Transport endpoint is not connected", "cannot open /nas/p/3.jpg: Transport endpoint is not connected"]
    failed.missed = ["/nas/p/1.jpg", "/nas/p/2.jpg", "/nas/p/3.jpg", "/nas/p/2.jpg"].map { ImagePath($0) }
    var elsewhere = Scanner.Batch(folder: ImagePath("/other"), files: [])
    elsewhere.missed = [ImagePath("/other/9.jpg")]
    _ = state.apply(.scanned([walked("/l", ["1.jpg"]), remembered("/nas/p", ["1.jpg", "2.jpg"])], isFinished: false))
    _ = state.apply(.mountsNotAnswering(["/nas", "/other"]))
    _ = state.apply(.scanned([failed, elsewhere], isFinished: true))
    #expect(!state.isScanning && state.library.count == 3, "kept from the index, offline")
    state.apply([.move(.right), .toggleMark])
    let effects = state.apply(.mountsNotAnswering(["/other"]))
    #expect(effects.contains(.walkAgain(["/nas/p/1.jpg", "/nas/p/2.jpg", "/nas/p/3.jpg"].map { ImagePath($0) })), "\(effects)")
    #expect(state.isScanning && state.scanProblems.isEmpty, "\(state.scanProblems)")
    _ = state.apply(.scanned([walked("/nas/p", ["1.jpg", "3.jpg"])], isFinished: true))
    #expect(!state.isScanning && shown(state.library).paths == ["/l/1.jpg", "/nas/p/1.jpg", "/nas/p/3.jpg"])
    #expect(state.library[state.viewport.cursor].path == ImagePath("/nas/p/1.jpg") && state.selection.marks.count == 1)
    // The other mount's, once that answers: its own walk again.
    #expect(state.apply(.mountsNotAnswering([])).contains(.walkAgain([ImagePath("/other/9.jpg")])))
}
