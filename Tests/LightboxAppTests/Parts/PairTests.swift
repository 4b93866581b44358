import LightboxApp
import LightboxThumbnails
import Testing

/// A card: IMG_1 as RAW+JPEG, IMG_2 a Live Photo, IMG_3 a JPEG alone.
func card() -> Library {
    func file(_ name: String, _ format: ImageFormat, _ companions: [ImageFile] = []) -> ImageFile {
        ImageFile(path: ImagePath("card/" + name), byteCount: 1, modified: 0, format: format, companions: companions)
    }
    return Library(folders: [
        ImageFolder(
            path: ImagePath("card"),
            files: [
                file("IMG_1.JPG", .jpeg, [file("IMG_1.CR2", .cameraRaw)]),
                file("IMG_2.HEIC", .heif, [file("IMG_2.MOV", .quickTime)]),
                file("IMG_3.JPG", .jpeg),
            ])
    ])
}

@Test func markingAPairMarksOneItemAndAcceptPrintsEveryMemberPictureFirst() {
    var state = GalleryState(library: card(), width: 80, height: 24)
    #expect(state.library.count == 3 && state.library.fileCount == 5)
    state.apply([.toggleMark, .move(.right), .move(.right), .toggleMark])
    #expect(state.markedCount == 2)
    #expect(state.acceptedPaths == ["card/IMG_1.JPG", "card/IMG_1.CR2", "card/IMG_3.JPG"].map(ImagePath.init))
    // Nothing marked: the cursor's item, with its members.
    _ = state.apply(.clearMarks)
    _ = state.apply(.move(.left))
    #expect(state.acceptedPaths == ["card/IMG_2.HEIC", "card/IMG_2.MOV"].map(ImagePath.init))
}

@Test func pairsPictureAcceptPrintsOnlyThePicture() {
    var state = GalleryState(library: card(), width: 80, height: 24, settings: settings { $0.pairing = .picture })
    state.apply([.markAll])
    #expect(state.acceptedPaths == ["card/IMG_1.JPG", "card/IMG_2.HEIC", "card/IMG_3.JPG"].map(ImagePath.init))
}

@Test func aPairIsPreMarkedWhenAnyOfItsFilesWasListed() {
    let listed = PathSet(records: Array("card/IMG_1.CR2\ncard/IMG_2.HEIC\n".utf8), separator: 10)
    let state = GalleryState(library: Library(), width: 80, height: 24, settings: settings { $0.pendingMarks = listed })
    var scanned = state
    _ = scanned.apply(.scanned([Scanner.Batch(folder: ImagePath("card"), files: (0..<3).map { card()[$0] })], isFinished: true))
    #expect(scanned.selection.marks.sorted == [0, 1] && scanned.selection.pending.isEmpty)
}
