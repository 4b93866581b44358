import LightboxApp
import LightboxLayout
import LightboxThumbnails
import Testing

/// Six photos: rated 0 to 4 and one rejected, labelled, a RAW pair and a video among them.
private func culled() -> GalleryState {
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
    var state = GalleryState(library: Library(folders: [ImageFolder(path: ImagePath("card"), files: files)]), spec: threeColumns, width: 60, height: 40)
    _ = state.initialEffects()
    let decided: [Decision] = [
        Decision(rating: 1), Decision(rating: 3, labels: [.red]), Decision(rating: 4, labels: [.blue]), Decision(rating: -1), .none, Decision(rating: 2),
    ]
    state.apply(.decisionsRead(decided.enumerated().map { Decisions.ItemChange(id: ItemID($0.offset), decision: $0.element) }))
    return state
}

private func shown(_ state: GalleryState) -> [String] {
    (0..<state.library.count).map { String(decoding: state.library[$0].path.lastComponent, as: UTF8.self) }
}

private func filtered(_ query: String) -> GalleryState {
    var state = culled()
    state.apply(.startFilter)
    state.apply(.filterInput(query))
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
    state.apply(.filterBackspace)
    #expect(shown(state) == ["IMG_2.JPG", "IMG_3.JPG"] && state.message == "rating: >=, <=, >, <, = or : and 0 to 5, as rating>=3")
    state.apply(.filterInput("3 label:pink"))
    #expect(state.message?.hasPrefix("label: red, yellow, green, blue, purple") == true)
    #expect(filtered("kind:sculpture").message?.hasPrefix("kind: raw, video, photo, pair") == true)
    #expect(filtered("date:June").message?.hasPrefix("date:") == true)
    #expect(filtered("!").message == "! needs a term after it")
}

@Test func theMarkedFieldAndAFilterThatReadsDecisionsAsTheyArrive() {
    var state = culled()
    state.apply([.move(.right), .toggleMark])
    state.apply([.startFilter, .filterInput("marked")])
    #expect(shown(state) == ["IMG_2.JPG"])
    // Sidecars read after the filter was typed are asked again.
    var late = GalleryState(library: culled().library, spec: threeColumns, width: 60, height: 40)
    late.apply([.startFilter, .filterInput("rejected")])
    #expect(shown(late).isEmpty)
    late.apply(.decisionsRead([Decisions.ItemChange(id: ItemID(5), decision: Decision(rating: -1))]))
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
    state.apply(.decisionsRead([Decisions.ItemChange(id: ItemID(4), decision: Decision(rating: 5))]))
    #expect(shown(state).prefix(3) == ["IMG_3.JPG", "MVI_4.MP4", "IMG_5.JPG"], "arranged again: five stars first, in scan order")
}
