import LightboxLayout
import LightboxTestSupport
import LightboxThumbnails
import Testing

@testable import LightboxApp

/// The order and the sections, as a full arrangement made from nothing would have them.
private func arrangedAnew(_ library: Library) -> Library {
    var full = library
    full.forgetArrangement()
    full.arrange()
    return full
}

/// The ids in order, and each section's title and size.
private func arranged(_ library: Library) -> (order: [Int], sections: [String]) {
    (
        (0..<library.count).map { library.id(at: $0).rawValue },
        library.sections.map { "\(String(decoding: $0.title, as: UTF8.self)):\($0.items.count):\($0.videoCount)" }
    )
}

/// An arrangement reusing the last one (the items added or changed since worked out, sorted and
/// merged in) orders and sections the library as one made anew would, whatever came between:
/// files found, metadata read, decisions, a filter, another arrangement, the index's library
/// checked by a walk that finds files changed, gone and new.
@Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
func anArrangementReusingTheLastIsTheOneMadeAnew(seed: UInt64) {
    var random = SplitMix(state: seed)
    let day: Int64 = 86_400 * 1_000_000_000
    let folders = ["a", "b", "b/c", "d"]
    let filters = ["", "rating>=2", "!rejected", "camera:x100v", "date:2024-06", "kind:raw | rating:3"]
    let sections: [Arrangement.Sections] = [.folder, .date, .month, .none, .rating]
    let sorts: [Arrangement.Sort] = [.name, .date, .mtime, .size, .kind, .rating]
    var library = Library(arrangement: Arrangement(sections: .date, sort: .date))
    var serial = 0
    func newFiles(in folder: String) -> [ImageFile] {
        (0..<Int.random(in: 1...12, using: &random)).map { _ in
            serial += 1
            let format: ImageFormat = [.jpeg, .jpeg, .png, .cameraRaw, .quickTime].randomElement(using: &random)!
            return ImageFile(
                path: ImagePath("\(folder)/IMG_\(serial).x"), byteCount: Int64.random(in: 1...50, using: &random),
                modified: (19_875 + Int64.random(in: 0...60, using: &random)) * day, format: format)
        }
    }
    func someIDs() -> [ItemID] {
        guard library.totalCount > 0 else { return [] }
        return (0..<Int.random(in: 1...8, using: &random)).map { _ in ItemID(Int.random(in: 0..<library.totalCount, using: &random)) }
    }
    for step in 0..<160 {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<25:
            library.append(newFiles(in: folders.randomElement(using: &random)!), in: ImagePath(folders.randomElement(using: &random)!))
        case 25..<45:
            let results = someIDs().map { id -> MetadataResult in
                var metadata = ImageMetadata()
                metadata.dateTaken =
                    Bool.random(using: &random) ? nil : "2024:0\(Int.random(in: 5...7, using: &random)):1\(Int.random(in: 0...9, using: &random)) 10:00:00"
                metadata.make = ["FUJIFILM", "Canon", nil].randomElement(using: &random)!
                metadata.model = metadata.make == "FUJIFILM" ? "X100V" : "EOS R5"
                return MetadataResult(id: id, metadata: metadata, size: PixelSize(width: 40, height: Int.random(in: 20...60, using: &random)))
            }
            library.record(results, arranging: Bool.random(using: &random))
        case 45..<60:
            let changes = someIDs().map { Decisions.ItemChange(id: $0, decision: Decision(rating: Int.random(in: -1...5, using: &random))) }
            library.setDecisions(changes, arranging: Bool.random(using: &random))
        case 60..<66:
            guard case .success(let filter) = FilterExpression.parse(filters.randomElement(using: &random)!) else { Issue.record("filter"); return }
            library.setFilter(filter)
        case 66..<72:
            library.arrange(
                by: Arrangement(
                    sections: sections.randomElement(using: &random)!, sort: sorts.randomElement(using: &random)!, isReversed: Bool.random(using: &random),
                    stacks: Int.random(in: 0..<4, using: &random) == 0 ? .burst : .off))
        case 72..<78:
            library.setDatesTaken(someIDs().map { (id: $0, seconds: Bool.random(using: &random) ? nil : Int64.random(in: 0...(200 * 86_400), using: &random)) })
        case 78..<86:
            // What the index had, then the walk checking it: some found as they were, some
            // changed, some new, the rest gone at its end.
            let folder = folders.randomElement(using: &random)!
            let remembered = newFiles(in: folder)
            library.appendFromIndex([(files: remembered, folder: ImagePath(folder))])
            var walked: [ImageFile] = []
            for file in remembered where Int.random(in: 0..<4, using: &random) > 0 {
                var found = file
                if Int.random(in: 0..<3, using: &random) == 0 { found.byteCount += 1 }
                walked.append(found)
            }
            walked.insert(contentsOf: newFiles(in: folder), at: Int.random(in: 0...walked.count, using: &random))
            library.appendChecked([(files: walked, folder: ImagePath(folder))])
            if Bool.random(using: &random) { library.finishChecking() }
        case 86..<92:
            guard library.totalCount > 0 else { continue }
            let id = Int.random(in: 0..<library.totalCount, using: &random)
            var file = library.file(ItemID(id))
            file.format = [.jpeg, .cameraRaw, .quickTime].randomElement(using: &random)!
            file.modified += day * Int64.random(in: -3...3, using: &random)
            library.replaceChanged([file])
        default:
            library.arrange()
        }
        // Compared only where the library is arranged as it stands (a decision alone waits).
        var now = library
        now.arrange()
        let (reused, anew) = (arranged(now), arranged(arrangedAnew(library)))
        #expect(reused.order == anew.order && reused.sections == anew.sections, "seed \(seed), step \(step)")
        if reused.order != anew.order || reused.sections != anew.sections { return }
        // Each section's videos, counted apart from the arrangement's own counting.
        let videos = now.sections.map { section in section.items.filter { now[$0].format.isVideo }.count }
        #expect(now.sections.map(\.videoCount) == videos, "seed \(seed), step \(step)")
        if now.sections.map(\.videoCount) != videos { return }
        if Bool.random(using: &random) { library = now }
    }
}

/// Adding a few files to a large library arranged by date works out only theirs: the entries
/// of the rest are the last arrangement's.
@Test func aFewFilesAddedAreWorkedOutAlone() {
    var library = Library(arrangement: Arrangement(sections: .date, sort: .date))
    let files = (0..<1000).map { ImageFile(path: ImagePath("a/IMG_\($0).jpg"), byteCount: 1, modified: Int64($0) * 1_000_000_000, format: .jpeg) }
    library.append(files, in: ImagePath("a"))
    #expect(library.arrangedUpTo == 1000 && library.arrangedEntries.count == 1000)
    library.append([ImageFile(path: ImagePath("a/IMG_x.jpg"), byteCount: 1, modified: 500_500_000_000, format: .jpeg)], in: ImagePath("a"))
    #expect(library.arrangedUpTo == 1001)
    #expect(library.position(of: ItemID(1000)) == 501, "between the photos of 500 and 501 seconds")
    library.record([MetadataResult(id: ItemID(3), metadata: nil, size: nil)], arranging: false)
    #expect(library.touchedSinceArranged == [3])
}

/// A file the walk finds before the first of a folder the index had moves that folder's
/// section key: every item of it is placed anew, not only the one found.
@Test func aFolderWhoseFirstKeyMovesIsArrangedAnew() {
    func files(_ folder: String, _ names: [String]) -> [ImageFile] {
        names.map { ImageFile(path: ImagePath("\(folder)/\($0)"), byteCount: 1, modified: 0, format: .jpeg) }
    }
    var library = Library(arrangement: Arrangement(sections: .folder, sort: .size))
    library.append(files("a", ["1.jpg"]), in: ImagePath("a"))
    // A first check finds a file before what the index had: keys no longer rise with ids.
    library.appendFromIndex([(files: files("b", ["2.jpg"]), folder: ImagePath("b"))])
    library.appendChecked([(files: files("b", ["1.jpg", "2.jpg"]), folder: ImagePath("b"))])
    library.finishChecking()
    #expect(!library.keysRiseWithIDs)
    // The second: what the index had of c, then the walk finding a file before it.
    library.appendFromIndex([(files: files("c", ["2.jpg", "3.jpg"]), folder: ImagePath("c"))])
    library.appendChecked([(files: files("c", ["1.jpg", "2.jpg", "3.jpg"]), folder: ImagePath("c"))])
    let (reused, anew) = (arranged(library), arranged(arrangedAnew(library)))
    #expect(reused.order == anew.order && reused.sections == anew.sections)
    #expect(library.sections.map(\.items.count) == [1, 2, 3], "c is one section")
}
