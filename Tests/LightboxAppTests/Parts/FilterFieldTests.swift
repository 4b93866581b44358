import LightboxApp
import LightboxLayout
import LightboxThumbnails
import Testing

/// Six photos, a RAW pair and a video among them, nothing decided yet.
private func cardLibrary() -> Library {
    let day: Int64 = 86_400 * 1_000_000_000
    func file(_ name: String, _ format: ImageFormat, day d: Int64) -> ImageFile {
        ImageFile(path: ImagePath("card/\(name)"), byteCount: 1, modified: (19_875 + d) * day + day / 2, format: format)
    }
    var pair = file("IMG_3.JPG", .jpeg, day: 2)
    pair.companions = [file("IMG_3.CR2", .cameraRaw, day: 2)]
    let files = [
        file("IMG_1.JPG", .jpeg, day: 0), file("IMG_2.JPG", .jpeg, day: 1), pair, file("MVI_4.MP4", .quickTime, day: 3), file("IMG_5.JPG", .jpeg, day: 40),
        file("IMG_6.JPG", .jpeg, day: 41),
    ]
    return Library(folders: [ImageFolder(path: ImagePath("card"), files: files)])
}

/// The card's six photos rated 0 to 4 and one rejected, labelled.
private func culled() -> GalleryState {
    var state = GalleryState(library: cardLibrary(), spec: threeColumns, width: 60, height: 40)
    _ = state.initialEffects()
    let decided: [Decision] = [
        Decision(rating: 1), Decision(rating: 3, labels: [.red]), Decision(rating: 4, labels: [.blue]), Decision(rating: -1), .none, Decision(rating: 2),
    ]
    _ = state.apply(.decisionsRead(decided.enumerated().map { Decisions.ItemChange(id: ItemID($0.offset), decision: $0.element) }))
    return state
}

private func shown(_ state: GalleryState) -> [String] {
    (0..<state.library.count).map { String(decoding: state.library[$0].path.lastComponent, as: UTF8.self) }
}

private func filtered(_ query: String) -> GalleryState {
    var state = culled()
    _ = state.apply(.startFilter)
    _ = state.apply(.filterInput(query))
    return state
}

@Test func theFilterFindsPhotosByWhatWasDecided() {
    #expect(shown(filtered("rating>=3")) == ["IMG_2.JPG", "IMG_3.JPG"])
    #expect(shown(filtered("rejected")) == ["MVI_4.MP4"])
    #expect(shown(filtered("unrated")) == ["IMG_5.JPG"])
    #expect(shown(filtered("!rejected rating<2")) == ["IMG_1.JPG", "IMG_5.JPG"])
    #expect(shown(filtered("label:red|blue")) == ["IMG_2.JPG", "IMG_3.JPG"])
    #expect(shown(filtered("rating:4 | rejected")) == ["IMG_3.JPG", "MVI_4.MP4"], "| is or")
    #expect(shown(filtered("kind:raw")) == ["IMG_3.JPG"])
    #expect(shown(filtered("kind:video")) == ["MVI_4.MP4"])
    #expect(shown(filtered("kind:pair")) == ["IMG_3.JPG"])
    #expect(shown(filtered("IMG rating>=2")) == ["IMG_2.JPG", "IMG_3.JPG", "IMG_6.JPG"], "a name word beside a field")
    #expect(shown(filtered("img5")) == ["IMG_5.JPG"], "with no field, the whole query is one fuzzy name, as before")
}

@Test func theFilterFindsPhotosByDate() {
    // Modified 2024-06-01 + days (no EXIF read here): local wall-clock days.
    #expect(shown(filtered("date:2024-06")).count == 4)
    #expect(shown(filtered("date:2024-07")) == ["IMG_5.JPG", "IMG_6.JPG"])
    #expect(shown(filtered("date:2024-06-02..2024-06-03")) == ["IMG_2.JPG", "IMG_3.JPG"])
    #expect(shown(filtered("date:2023")).isEmpty)
}

@Test func aBadFieldSaysWhatIsWrongAsItIsTypedAndKeepsWhatShows() {
    var state = filtered("rating>=3")
    _ = state.apply(.filterBackspace)
    #expect(shown(state) == ["IMG_2.JPG", "IMG_3.JPG"] && state.message == "rating: >=, <=, >, <, = or : and 0 to 5, as rating>=3")
    _ = state.apply(.filterInput("3 label:pink"))
    #expect(state.message?.hasPrefix("label: red, yellow, green, blue, purple") == true)
    #expect(filtered("kind:sculpture").message?.hasPrefix("kind: raw, video, animation, photo, pair") == true)
    #expect(filtered("date:June").message?.hasPrefix("date:") == true)
    #expect(filtered("!").message == "! needs a term after it")
}

@Test func theMarkedFieldAndAFilterThatReadsDecisionsAsTheyArrive() {
    var state = culled()
    state.apply([.move(.right), .toggleMark])
    state.apply([.startFilter, .filterInput("marked")])
    #expect(shown(state) == ["IMG_2.JPG"])
    // Sidecars read after the filter was typed are asked again.
    var late = GalleryState(library: cardLibrary(), spec: threeColumns, width: 60, height: 40)
    late.apply([.startFilter, .filterInput("rejected")])
    #expect(shown(late).isEmpty)
    _ = late.apply(.decisionsRead([Decisions.ItemChange(id: ItemID(5), decision: Decision(rating: -1))]))
    #expect(shown(late) == ["IMG_6.JPG"])
}

/// Every field is one row: a name, how its value is written, its help.
@Test func everyFilterFieldHasItsRow() {
    #expect(Set(FilterField.table.map(\.name)).count == FilterField.table.count)
    for field in FilterField.table { #expect(!field.syntax.isEmpty && !field.help.isEmpty && field.syntax.hasPrefix(field.name)) }
}

/// `--sort rating` puts the highest first and rejected last; `--sections rating` makes a section
/// a rating; both follow what the sidecars say as it is read.
@Test func photosSortAndGroupByRating() {
    var state = culled()
    state.apply([.cycleSort, .cycleSort, .cycleSort, .cycleSort, .cycleSort])
    #expect(state.library.arrangement.sort == .rating)
    #expect(shown(state) == ["IMG_3.JPG", "IMG_2.JPG", "IMG_6.JPG", "IMG_1.JPG", "IMG_5.JPG", "MVI_4.MP4"])
    var grouped = state.library
    grouped.arrange(by: Arrangement(sections: .rating, sort: .name))
    #expect(grouped.sections.map { String(decoding: $0.title, as: UTF8.self) } == ["★★★★", "★★★", "★★", "★", "Unrated", "Rejected"])
    // A decision made keeps its photo where it is; read from a sidecar, it moves it.
    state.apply([.move(.first), .rate(5)])
    #expect(shown(state).first == "IMG_3.JPG" && state.decisions[ItemID(2)].stars == 5)
    state.apply([.move(.last), .rate(5)])
    #expect(shown(state).last == "MVI_4.MP4", "rated now, it stays where it is")
    _ = state.apply(.decisionsRead([Decisions.ItemChange(id: ItemID(4), decision: Decision(rating: 5))]))
    #expect(shown(state).prefix(3) == ["IMG_3.JPG", "MVI_4.MP4", "IMG_5.JPG"], "arranged again: five stars first, in scan order")
}

/// What each of the card's photos was taken with, as their metadata says (the video says nothing).
private func details() -> [MetadataResult] {
    func exif(_ make: String, _ model: String, lens: String, iso: Int, f: Double, focal: Double) -> ImageMetadata {
        var metadata = ImageMetadata()
        (metadata.make, metadata.model, metadata.lens) = (make, model, lens)
        (metadata.iso, metadata.fNumber, metadata.focalLength) = (iso, f, focal)
        return metadata
    }
    var animated = ImageMetadata()
    animated.frameCount = 12
    let read: [(ImageMetadata?, PixelSize?)] = [
        (exif("FUJIFILM", "X100V", lens: "23.0 mm f/2.0", iso: 160, f: 2, focal: 23), PixelSize(width: 6000, height: 4000)),
        (exif("Canon", "Canon EOS R5", lens: "RF35mm F1.8 MACRO IS STM", iso: 6400, f: 1.8, focal: 35), PixelSize(width: 5464, height: 8192)),
        (exif("NIKON CORPORATION", "NIKON Z 6_2", lens: "NIKKOR Z 50mm f/1.8 S", iso: 800, f: 2.8, focal: 50), PixelSize(width: 6048, height: 4024)),
        (nil, PixelSize(width: 1920, height: 1080)),
        (exif("FUJIFILM", "X-T5", lens: "XF35mmF1.4 R", iso: 3200, f: 28 / 10, focal: 35.2), PixelSize(width: 4000, height: 4000)),
        (animated, PixelSize(width: 480, height: 640)),
    ]
    return read.enumerated().map { MetadataResult(id: ItemID($0.offset), metadata: $0.element.0, size: $0.element.1) }
}

/// Photos come in runs of one camera (the library remembers the last one named): each keeps its
/// own, the first camera again after another is the first's, and so is a lens.
@Test func camerasInRunsEachKeepTheirOwn() {
    var state = culled()
    func exif(_ make: String, _ model: String, _ lens: String) -> ImageMetadata {
        var metadata = ImageMetadata()
        (metadata.make, metadata.model, metadata.lens) = (make, model, lens)
        return metadata
    }
    let fuji = exif("FUJIFILM", "X100V", "23.0 mm f/2.0"), canon = exif("Canon", "Canon EOS R5", "RF35mm F1.8 MACRO IS STM")
    var fujiAgain = fuji
    fujiAgain.lens = "RF35mm F1.8 MACRO IS STM"
    let read = [fuji, fuji, canon, fuji, canon, fujiAgain].enumerated().map { MetadataResult(id: ItemID($0.offset), metadata: $0.element, size: nil) }
    _ = state.apply(.metadataRead(read))
    func shown(_ query: String) -> [String] {
        var filtered = state
        filtered.apply([.startFilter, .filterInput(query)])
        return (0..<filtered.library.count).map { String(decoding: filtered.library[$0].path.lastComponent, as: UTF8.self) }
    }
    #expect(shown("camera:x100v") == ["IMG_1.JPG", "IMG_2.JPG", "MVI_4.MP4", "IMG_6.JPG"])
    #expect(shown("camera:eos") == ["IMG_3.JPG", "IMG_5.JPG"])
    #expect(shown("lens:rf35") == ["IMG_3.JPG", "IMG_5.JPG", "IMG_6.JPG"])
    #expect(shown("lens:23") == ["IMG_1.JPG", "IMG_2.JPG", "MVI_4.MP4"])
}

@Test func theFilterFindsPhotosByWhatTheirMetadataSays() {
    var state = culled()
    _ = state.apply(.metadataRead(details()))
    func shown(_ query: String) -> [String] {
        var filtered = state
        filtered.apply([.startFilter, .filterInput(query)])
        #expect(filtered.message == nil, "\(query): \(filtered.message ?? "")")
        return (0..<filtered.library.count).map { String(decoding: filtered.library[$0].path.lastComponent, as: UTF8.self) }
    }
    #expect(shown("camera:x100v") == ["IMG_1.JPG"], "a part of the model, any case")
    #expect(shown("camera:fujifilm") == ["IMG_1.JPG", "IMG_5.JPG"], "the make")
    #expect(shown("camera:z6") == ["IMG_3.JPG"], "spaces and underscores aside")
    #expect(shown("camera:xt5 | camera:eos") == ["IMG_2.JPG", "IMG_5.JPG"])
    #expect(shown("lens:35") == ["IMG_2.JPG", "IMG_5.JPG"])
    #expect(shown("iso>3200") == ["IMG_2.JPG"])
    #expect(shown("iso>=800 !iso:6400") == ["IMG_3.JPG", "IMG_5.JPG"])
    #expect(shown("f<2.8") == ["IMG_1.JPG", "IMG_2.JPG"])
    #expect(shown("f:2.8") == ["IMG_3.JPG", "IMG_5.JPG"], "28/10 is 2.8")
    #expect(shown("focal:35") == ["IMG_2.JPG", "IMG_5.JPG"], "35.2 mm is 35")
    #expect(shown("focal>=50") == ["IMG_3.JPG"])
    #expect(shown("orientation:portrait") == ["IMG_2.JPG", "IMG_6.JPG"])
    #expect(shown("orientation:square") == ["IMG_5.JPG"])
    #expect(shown("orientation:landscape kind:video") == ["MVI_4.MP4"])
    #expect(shown("kind:photo !kind:raw") == ["IMG_1.JPG", "IMG_2.JPG", "IMG_5.JPG", "IMG_6.JPG"], "a JPEG's frame count does not make it move")
    #expect(shown("!camera:canon iso<1000") == ["IMG_1.JPG", "IMG_3.JPG"], "what a photo does not say never matches")
    #expect(shown("f") == [], "a bare f is a name word, not the field")
}

/// Six files, one of them a GIF that animates, for `kind:animation`.
@Test func kindAnimationFindsWhatMoves() {
    var files = (1...3).map { ImageFile(path: ImagePath("a/IMG_\($0).GIF"), byteCount: 1, modified: 0, format: .gif) }
    files.append(ImageFile(path: ImagePath("a/IMG_4.JPG"), byteCount: 1, modified: 0, format: .jpeg))
    var state = GalleryState(library: Library(folders: [ImageFolder(path: ImagePath("a"), files: files)]), spec: threeColumns, width: 60, height: 40)
    state.apply([.startFilter, .filterInput("kind:animation")])
    #expect(state.library.count == 0 && state.detailsProgress?.done == 0)
    var moving = ImageMetadata()
    moving.frameCount = 30
    _ = state.apply(.metadataRead([MetadataResult(id: ItemID(1), metadata: moving, size: nil), MetadataResult(id: ItemID(0), metadata: nil, size: nil)]))
    #expect(state.library.count == 1 && state.library[0].path.lastComponent.elementsEqual("IMG_2.GIF".utf8), "asked again as details arrive")
    #expect(state.library.detailsReadCount == 2 && state.detailsProgress?.done == 2)
    _ = state.apply(.metadataRead((2...3).map { MetadataResult(id: ItemID($0), metadata: nil, size: nil) }))
    #expect(state.detailsProgress == nil, "every file read")
}

@Test func anUnknownFieldOrABadNumberSaysWhatIsWrong() {
    #expect(filtered("lense:35").message == "no field lense: " + FilterField.table.map(\.name).joined(separator: ", "))
    #expect(filtered("iso>fast").message?.hasPrefix("iso: >=, <=, >, <, = or : and a number") == true)
    #expect(filtered("iso>1.5").message?.hasPrefix("iso:") == true, "ISO is a whole number")
    #expect(filtered("f<-2").message?.hasPrefix("f:") == true)
    #expect(filtered("camera:").message?.hasPrefix("camera: a part of its name") == true)
    #expect(filtered("orientation:diagonal").message?.hasPrefix("orientation: portrait, landscape, square") == true)
}

/// The fields are found where they are needed: `/` on an empty line names them, the completions
/// of `--list` offer them, both from the table.
@Test func theFieldsAreNamedWhereTheFilterOpens() {
    var state = culled()
    _ = state.apply(.startFilter)
    #expect(state.message == FilterField.hint)
    for field in FilterField.table { #expect(state.message?.contains(" " + field.start) == true, "\(field.name)") }
    #expect(FilterField.table.first { $0.name == "iso" }?.start == "iso>" && FilterField.table.first { $0.name == "rejected" }?.start == "rejected")
    #expect(OptionTable.all.first { $0.long == "list" }?.choices == FilterField.table.map(\.start))
}
