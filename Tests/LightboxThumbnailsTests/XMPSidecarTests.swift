import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// exiftool's whole reading of a file's XMP (every tag, structures whole), less the tags a
/// write is meant to change and the toolkit's stamp, which names the last writer.
private func everyProperty(_ path: String, without changed: [String]) throws -> [String: String] {
    let json = try toolText(["exiftool", "-j", "-G1", "-struct", "-XMP:all", path])
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
    var properties: [String: String] = [:]
    for (key, value) in object.first ?? [:] where key != "SourceFile" && !key.hasSuffix("XMPToolkit") {
        guard !changed.contains(where: { key.lowercased().hasSuffix(":" + $0.lowercased()) }) else { continue }
        let canonical = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        properties[key] = String(decoding: canonical, as: UTF8.self)
    }
    return properties
}

/// darktable's sidecar, in darktable's own shape: a history stack, tags, its colour labels.
private let darktableSidecar = """
    <?xml version="1.0" encoding="UTF-8"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
        xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:darktable="http://darktable.sf.net/"
       xmp:Rating="1"
       xmpMM:DerivedFrom="IMG_0001.CR2"
       darktable:import_timestamp="63840001234"
       darktable:xmp_version="5"
       darktable:raw_params="0"
       darktable:auto_presets_applied="1"
       darktable:history_end="2">
       <darktable:colorlabels>
        <rdf:Seq>
         <rdf:li>2</rdf:li>
        </rdf:Seq>
       </darktable:colorlabels>
       <dc:subject>
        <rdf:Bag>
         <rdf:li>holiday</rdf:li>
         <rdf:li>beach</rdf:li>
        </rdf:Bag>
       </dc:subject>
       <darktable:history>
        <rdf:Seq>
         <rdf:li darktable:num="0" darktable:operation="exposure" darktable:enabled="1" darktable:modversion="6" darktable:params="0000000000000000" darktable:multi_name="" darktable:multi_priority="0"/>
         <rdf:li darktable:num="1" darktable:operation="colorin" darktable:enabled="1" darktable:modversion="7" darktable:params="gz48eJxjZBgFo2AU0AsAAAQQAAE=" darktable:multi_name="" darktable:multi_priority="0"/>
        </rdf:Seq>
       </darktable:history>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    """

@Test func aDecisionGoesToANewSidecarThatExiftoolAndExiv2Read() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("IMG_0001.CR2")
    _ = FileManager.default.createFile(atPath: photo, contents: Data([1, 2, 3]))
    var decision = Decision(rating: 3, labels: [.red])
    #expect(XMPSidecar.write(decision, photo: ImagePath(photo), mode: .appended) == .written)
    let sidecar = photo + ".xmp"
    #expect(try toolText(["exiftool", "-s3", "-XMP:Rating", "-XMP:Label", sidecar]) == "3\nRed\n")
    #expect(try toolText(["exiv2", "-px", "-K", "Xmp.xmp.Rating", sidecar]).contains("3"))
    #expect(!FileManager.default.fileExists(atPath: try dir.file("IMG_0001.xmp")), "appended: the other name is not made")
    #expect(XMPSidecar.read(photo: ImagePath(photo)).decision == decision)
    // Rejected is a rating of −1, as the XMP specification has it; the same again writes nothing.
    decision.rating = -1
    #expect(XMPSidecar.write(decision, photo: ImagePath(photo), mode: .appended) == .written)
    #expect(try toolText(["exiftool", "-s3", "-XMP:Rating", sidecar]) == "-1\n")
    #expect(XMPSidecar.write(decision, photo: ImagePath(photo), mode: .appended) == .unchanged)
    // Replaced names the sidecar as Lightroom does; off makes none.
    let other = try dir.file("IMG_0002.jpg")
    _ = FileManager.default.createFile(atPath: other, contents: Data([1]))
    #expect(XMPSidecar.write(Decision(rating: 2), photo: ImagePath(other), mode: .off) == .unchanged)
    #expect(!FileManager.default.fileExists(atPath: try dir.file("IMG_0002.xmp")))
    #expect(XMPSidecar.write(Decision(rating: 2), photo: ImagePath(other), mode: .replaced) == .written)
    #expect(try toolText(["exiftool", "-s3", "-XMP:Rating", try dir.file("IMG_0002.xmp")]) == "2\n")
}

@Test func darktablesSidecarKeepsItsHistoryTagsAndLabelsInStep() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("IMG_0001.CR2")
    _ = FileManager.default.createFile(atPath: photo, contents: Data([1]))
    let sidecar = photo + ".xmp"
    try darktableSidecar.write(toFile: sidecar, atomically: true, encoding: .utf8)
    chmod(sidecar, 0o600)
    #expect(XMPSidecar.read(photo: ImagePath(photo)).decision == Decision(rating: 1, labels: [.green]), "darktable's green label")
    let before = try everyProperty(sidecar, without: ["Rating", "Label", "ColorLabels"])
    #expect(XMPSidecar.write(Decision(rating: 4, labels: [.red, .blue]), photo: ImagePath(photo), mode: .appended) == .written)
    let after = try everyProperty(sidecar, without: ["Rating", "Label", "ColorLabels"])
    #expect(before == after && before.count > 6, "every other property kept: \(before) against \(after)")
    #expect(try toolText(["exiftool", "-s3", "-XMP:Rating", sidecar]) == "4\n")
    // darktable's own labels follow: red (0) and blue (3).
    let labels = try toolText(["exiv2", "-px", sidecar])
    #expect(labels.contains("Xmp.darktable.colorlabels") && labels.contains("0, 3"), "\(labels)")
    var info = stat()
    stat(sidecar, &info)
    #expect(info.st_mode & 0o777 == 0o600, "the mode kept")
}

@Test func lightroomsAndDigikamsSidecarsKeepWhatTheyHold() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("DSC_0001.NEF")
    _ = FileManager.default.createFile(atPath: photo, contents: Data([1]))
    // Lightroom's shape: IMG.xmp with develop settings, keywords and a label; digiKam's namespace too.
    let sidecar = try dir.file("DSC_0001.xmp")
    try runTool([
        "exiftool", "-q", "-o", sidecar, "-XMP-crs:Exposure2012=+0.50", "-XMP-crs:WhiteBalance=Custom", "-XMP-dc:Subject=trip",
        "-XMP-xmp:Label=Yellow", "-XMP-xmp:Rating=2", "-XMP-digiKam:ColorLabel=3", "-XMP-digiKam:PickLabel=3", "-XMP-lr:HierarchicalSubject=places|sea",
    ])
    #expect(XMPSidecar.read(photo: ImagePath(photo)).decision == Decision(rating: 2, labels: [.yellow]))
    let before = try everyProperty(sidecar, without: ["Rating", "Label", "ColorLabel", "PickLabel"])
    #expect(XMPSidecar.write(Decision(rating: -1), photo: ImagePath(photo), mode: .appended) == .written)
    #expect(!FileManager.default.fileExists(atPath: photo + ".xmp"), "the sidecar that exists is the one written")
    let after = try everyProperty(sidecar, without: ["Rating", "Label", "ColorLabel", "PickLabel"])
    #expect(after == before && before.count > 3, "\(before) against \(after)")
    #expect(try toolText(["exiftool", "-s3", "-XMP:Rating", "-XMP-digiKam:PickLabel", "-XMP-digiKam:ColorLabel", sidecar]) == "-1\n1\n0\n")
    #expect(try toolText(["exiftool", "-s3", "-XMP:Label", sidecar]).isEmpty, "no label left")
}

@Test func embeddedRatingsAreReadAndASidecarWinsOverThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("a.jpg")
    try TestImages.jpeg(at: photo, width: 16, height: 16)
    try runTool(["exiftool", "-q", "-overwrite_original", "-XMP-xmp:Rating=4", "-XMP-xmp:Label=Blue", photo])
    #expect(XMPSidecar.read(photo: ImagePath(photo)).decision == Decision(rating: 4, labels: [.blue]))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
    #expect(XMPSidecar.write(Decision(rating: 1), photo: ImagePath(photo), mode: .appended) == .written)
    #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == bytes, "the photo is never rewritten")
    #expect(XMPSidecar.read(photo: ImagePath(photo)).decision == Decision(rating: 1))
    // Of two sidecars, the newer.
    let older = try dir.file("a.xmp")
    try runTool(["exiftool", "-q", "-o", older, "-XMP-xmp:Rating=5"])
    try runTool(["touch", "-d", "2001-01-01", older])
    #expect(XMPSidecar.read(photo: ImagePath(photo)).decision == Decision(rating: 1))
}

@Test func hostileSidecarsAreAMessageNeverACrashOrAHang() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    func photo(_ name: String) throws -> ImagePath {
        let path = try dir.file(name)
        _ = FileManager.default.createFile(atPath: path, contents: Data([1]))
        return ImagePath(path)
    }
    // Entities that expand without end: refused before the parser.
    let laughs = try photo("laughs.jpg")
    let lol = "<!DOCTYPE x [<!ENTITY a \"lol\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]>"
    try (lol + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">&c;</x:xmpmeta>").write(toFile: laughs.description + ".xmp", atomically: true, encoding: .utf8)
    let read = XMPSidecar.read(photo: laughs)
    #expect(read.decision == nil && read.problem?.contains("not XMP") == true)
    #expect(XMPSidecar.write(Decision(rating: 2), photo: laughs, mode: .appended) == .failed("sidecar laughs.jpg.xmp: not XMP Lightbox can read; not written"))
    // Not XML at all, another encoding.
    let junk = try photo("junk.jpg")
    _ = FileManager.default.createFile(atPath: junk.description + ".xmp", contents: Data([0xFF, 0xFE, 0x3C, 0, 0x78, 0]))
    #expect(XMPSidecar.read(photo: junk).decision == nil)
    // A FIFO: no hang. A link to /dev/zero: not followed. A huge file: not read.
    let fifo = try photo("fifo.jpg")
    mkfifo(fifo.description + ".xmp", 0o644)
    #expect(XMPSidecar.read(photo: fifo).problem?.contains("not a regular file") == true)
    let zero = try photo("zero.jpg")
    symlink("/dev/zero", zero.description + ".xmp")
    #expect(XMPSidecar.read(photo: zero).problem?.contains("symbolic link") == true)
    let huge = try photo("huge.jpg")
    let fd = open(huge.description + ".xmp", O_CREAT | O_WRONLY, 0o644)
    ftruncate(fd, 1 << 30)
    close(fd)
    #expect(XMPSidecar.read(photo: huge).problem?.contains("larger than") == true)
    // A sidecar planted as a link to another file: that file is never written.
    let planted = try photo("planted.jpg")
    let victim = try dir.file("victim.txt")
    try "keep me".write(toFile: victim, atomically: true, encoding: .utf8)
    symlink(victim, planted.description + ".xmp")
    if case .written = XMPSidecar.write(Decision(rating: 5), photo: planted, mode: .appended) { Issue.record("written through a link") }
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
}

/// What the fuzzer's xmp target does, on inputs it starts from: nothing, junk, a packet.
@Test func aRoundTripOfAnythingEndsWithADecisionOrNone() {
    #expect(XMPSidecar.roundTrip([], writing: Decision(rating: 2)).read == nil)
    // make fuzz's find: a rating no Int holds trapped the decoder; it is held to −1…5.
    for (written, read) in [("-1444444444444444444444444444444444444444444", -1), ("9e300", 5), ("nan", 0), ("3.6", 4)] {
        let odd = Array(
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:Rating=\"\(written)\"/></rdf:RDF></x:xmpmeta>"
                .utf8)
        #expect(XMPSidecar.roundTrip(odd, writing: Decision(rating: 2)).read?.rating == (written == "nan" ? nil : read), "\(written)")
    }
    #expect(XMPSidecar.roundTrip(Array("not xml <<".utf8), writing: Decision(rating: 2)).read == nil)
    let packet = Array(
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:Rating=\"2\"/></rdf:RDF></x:xmpmeta>"
            .utf8)
    let (read, written) = XMPSidecar.roundTrip(packet, writing: Decision(rating: 4, labels: [.green]))
    #expect(read == Decision(rating: 2))
    #expect(written.map { XMPSidecar.roundTrip($0, writing: .none).read } == Decision(rating: 4, labels: [.green]))
}

/// Two labels on a photo without a sidecar: xmp:Label holds one, darktable's list both.
@Test func severalLabelsAreAllKept() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("two.jpg")
    _ = FileManager.default.createFile(atPath: photo, contents: Data([1]))
    let decision = Decision(rating: 0, labels: [.red, .blue])
    #expect(XMPSidecar.write(decision, photo: ImagePath(photo), mode: .appended) == .written)
    #expect(XMPSidecar.read(photo: ImagePath(photo)).decision == decision)
    #expect(try toolText(["exiv2", "-px", photo + ".xmp"]).contains("Xmp.darktable.colorlabels"))
}

/// A fuzzer's find: a namespace of an odd shape made the written text read back as another
/// decision. Now nothing is written unless it reads back as written.
@Test func whatIsWrittenReadsBackAsWrittenOrIsNotWritten() throws {
    let bytes = [UInt8](
        Data(
            base64Encoded:
                "PD94cGFja2V0IGJlZ2luPScwTXBDZWhpSHpyZVN6TlRjemtjOWQnPz4KPHg6eG1wbWV0YSB4bWxuczp4PSdhZG9iZTpuczptZXRhLycgeDp4bXB0az0nSW1hZ2U6OkV4aWZUb29sIDEyLjU3Jz4KPHJkZjpSREYgeG1sbnM6cmRmPSdodHRwOi8vd3d3LnczLm9yZy8xOTk5LzAyLzIyLXJkZi1zeW50YXgtbnMjJz4KCiA8cmRmOkRlc2NyaXB0aW9uIHJkZjphYm91dD0nJwogIHhtbG5zOmNycz0naHR0cDovL25zLmFkb2JlLmNvbS+uMC8iIGNhbWVyYS1yYXctc2V0dGluZ3MvMS4wLyc+CiAgPGNyczpFeHBvc3VyZTIwMTI+KzAuNTwvY3JzOkV4cG9zdXJlMjAxMj4KIDwvcmRmOkRlc2NyaXB0aW9uPgoKIDxyZGY6RGVzY3JpcHRpb24gcmRmOmFib3X/////dD0nJwogIHhtbG5zOmRjPSdodHRwOi8vcHVybC5vcmcvZGMvZWxlbWVudHMvMS4xLyc+CiAgPGRjOnN1YmplY3Q+CiAgIDxyZGY6QmFnPgogICAgPHJkZjpsaT50cmlwPC9yZGY6bGk+CiAgIDwvcmRmOkJhZz4KICA8L2RjOnN1YmplY3Q+CiA8L3JkZjpEZXNjcmlwdGlvbj4KCiA8cmRmOkRlc2NyaXB0aW9uIHJkZjphYm91dD0nJwogIHhtbG5zOnhtcD0naHR0cDovL25zLgAAAGFkb2JlLmNvbS94YXAvMS4wLyc+CiAgPHhtcDpMYWJlbD5SpJs8L3htcDpMYWJlbD4KICA8eG1wOlJhdGluZz4zPC94bXA6UmF0aW5nPgogPC9yZGY6RGVzY3JpcHRpb24+CjwvcmRmOlJERj4KPC94OnhtcG1ldGE+Cjw/eHBhY2tldCBlbmQ9J3cnPz4="
        )!)
    let decision = Decision(rating: Int(bytes.count % 7) - 1, labels: bytes.count % 2 == 0 ? [.red, .blue] : [])
    if let written = XMPSidecar.roundTrip(bytes, writing: decision).written {
        #expect(XMPSidecar.roundTrip(written, writing: decision).read == decision)
    }
}

/// Where a decision cannot go beside its photo (`sidecar = off`, a sidecar Lightbox cannot write
/// into, a photo not there, a read-only folder: the end-to-end run mounts one), it is kept in the state folder,
/// read from there first, and the kept copy goes once it is written beside the photo.
@Test func aDecisionThatCannotGoBesideThePhotoIsKeptInTheStateFolder() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let root = ImagePath(try dir.file("state/lightbox/sidecars"))
    let photo = ImagePath(try dir.file("card/IMG_0001.JPG"))
    _ = FileManager.default.createFile(atPath: photo.description, contents: Data([1]))
    let kept = photo.keptSidecar(in: root)
    #expect(kept.bytes.starts(with: root.bytes) && kept.description.hasSuffix("/card/IMG_0001.JPG.xmp"))
    #expect(kept.photoOfKeptSidecar(in: root) == FreedesktopCache.absolute(photo))

    let off = SidecarPolicy(mode: .off, keptRoot: root)
    #expect(XMPSidecar.write(Decision(rating: 3, labels: [.purple]), photo: photo, policy: off) == .kept("sidecar = off"))
    #expect(!FileManager.default.fileExists(atPath: photo.description + ".xmp"), "nothing beside the photo")
    #expect(try toolText(["exiftool", "-s3", "-XMP:Rating", "-XMP:Label", kept.description]) == "3\nPurple\n", "a sidecar exiftool reads")
    #expect(XMPSidecar.read(photo: photo, keptIn: root) == DecisionRead(decision: Decision(rating: 3, labels: [.purple]), isKept: true))
    #expect(XMPSidecar.read(photo: photo).decision == nil, "not beside the photo")
    // A sidecar Lightbox cannot write into (here a FIFO) keeps the decision aside too, with why.
    let fifoPhoto = ImagePath(try dir.file("card/IMG_0002.JPG"))
    _ = FileManager.default.createFile(atPath: fifoPhoto.description, contents: Data([1]))
    mkfifo(fifoPhoto.description + ".xmp", 0o644)
    guard case .kept(let reason) = XMPSidecar.write(Decision(rating: 1), photo: fifoPhoto, policy: SidecarPolicy(mode: .appended, keptRoot: root))
    else {
        Issue.record("not kept")
        return
    }
    #expect(reason.contains("not a regular file"))
    // A photo that is not there (its share not mounted: the mount point's empty folder) gets no
    // sidecar there, hidden once the share is mounted over it: its decision is kept.
    let away = ImagePath(try dir.file("nas/IMG_0003.JPG"))
    #expect(
        XMPSidecar.write(Decision(rating: 2), photo: away, policy: SidecarPolicy(mode: .appended, keptRoot: root))
            == .kept("the photo is not there: No such file or directory"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: away.parent.description).isEmpty, "nothing beside it")
    #expect(XMPSidecar.read(photo: away, keptIn: root) == DecisionRead(decision: Decision(rating: 2), isKept: true))
    // Written beside the photo once it can be: the kept copy goes, the sidecar says it.
    #expect(XMPSidecar.write(Decision(rating: 4), photo: photo, policy: SidecarPolicy(mode: .appended, keptRoot: root)) == .written)
    #expect(!FileManager.default.fileExists(atPath: kept.description))
    #expect(XMPSidecar.read(photo: photo, keptIn: root) == DecisionRead(decision: Decision(rating: 4)))
    #expect(try toolText(["exiftool", "-s3", "-XMP:Rating", photo.description + ".xmp"]) == "4\n")
    // Straight to the state folder, as the end does for writes a share did not take in time.
    var keepOnly = SidecarPolicy(mode: .appended, keptRoot: root)
    keepOnly.besidePhoto = false
    #expect(XMPSidecar.write(Decision(rating: 1), fields: .rating, photo: photo, policy: keepOnly) == .kept("its folder did not answer in time"))
    #expect(XMPSidecar.read(photo: photo, keptIn: root) == DecisionRead(decision: Decision(rating: 1), isKept: true))
    // With nowhere to keep it either, the write fails and says both.
    let blocked = ImagePath(try dir.file("blocked"))
    _ = FileManager.default.createFile(atPath: blocked.description, contents: Data())
    guard case .failed(let both) = XMPSidecar.write(Decision(rating: 2), photo: fifoPhoto, policy: SidecarPolicy(mode: .appended, keptRoot: blocked))
    else {
        Issue.record("not a failure")
        return
    }
    #expect(both.contains("not a regular file") && both.contains("nor kept in Lightbox's state folder"))
}

/// Another program writing the sidecar while Lightbox does (exiftool adding keywords, one run
/// after another, as a tagging tool would) loses nothing: Lightbox swaps its file in and, when
/// what it displaced is not what it read, swaps the other's back and writes again. (With a plain
/// check before the rename, two runs in three lost a keyword here.) The decision written last is there.
@Test func aConcurrentWriterLosesNothingOfItsOwn() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = ImagePath(try dir.file("IMG_0001.CR2"))
    _ = FileManager.default.createFile(atPath: photo.description, contents: Data([1]))
    #expect(XMPSidecar.write(Decision(rating: 1), photo: photo, mode: .appended) == .written)
    let sidecar = photo.description + ".xmp"
    let keywords = (1...12).map { "keyword\($0)" }
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var toolFailed = false
    Thread {
        for keyword in keywords where (try? runTool(["exiftool", "-q", "-overwrite_original", "-XMP-dc:Subject+=\(keyword)", sidecar])) == nil {
            toolFailed = true
        }
        done.signal()
    }.start()
    var writes = 0, rating = 1
    while done.wait(timeout: .now()) == .timedOut {
        rating = rating % 5 + 1
        if case .failed(let reason) = XMPSidecar.write(Decision(rating: rating), photo: photo, mode: .appended) { Issue.record("\(reason)") }
        writes += 1
    }
    #expect(!toolFailed && writes > 12)
    #expect(XMPSidecar.write(Decision(rating: -1, labels: [.green]), photo: photo, mode: .appended) == .written)
    let subjects = try toolText(["exiftool", "-s3", "-sep", ",", "-XMP-dc:Subject", sidecar]).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(Set(subjects.split(separator: ",").map(String.init)) == Set(keywords), "every keyword exiftool added is there")
    #expect(XMPSidecar.read(photo: photo).decision == Decision(rating: -1, labels: [.green]))
}

/// A write sets only what the user changed: another Lightbox's label survives this one's rating,
/// and digiKam's own label numbers (its orange has no match here) survive a rating.
@Test func aWriteSetsOnlyWhatChanged() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = ImagePath(try dir.file("IMG_0001.JPG"))
    _ = FileManager.default.createFile(atPath: photo.description, contents: Data([1]))
    #expect(XMPSidecar.write(Decision(rating: 2, labels: [.blue]), photo: photo, mode: .appended) == .written)
    let policy = SidecarPolicy(mode: .appended)
    #expect(XMPSidecar.write(Decision(rating: 5), fields: .rating, photo: photo, policy: policy) == .written)
    #expect(XMPSidecar.read(photo: photo).decision == Decision(rating: 5, labels: [.blue]), "the label another instance set stays")
    #expect(XMPSidecar.write(Decision(labels: [.red]), fields: .labels, photo: photo, policy: policy) == .written)
    #expect(XMPSidecar.read(photo: photo).decision == Decision(rating: 5, labels: [.red]), "the rating stays")
    #expect(XMPSidecar.write(Decision(rating: 5, labels: [.green]), fields: .rating, photo: photo, policy: policy) == .unchanged)
    // digiKam's orange (2) is not one of ours: a rating leaves it as it is.
    let sidecar = photo.description + ".xmp"
    try runTool(["exiftool", "-q", "-overwrite_original", "-config", "/dev/null", "-XMP-digiKam:ColorLabel=2", sidecar])
    let withDigiKam = try String(contentsOfFile: sidecar, encoding: .utf8)
    if withDigiKam.contains("digikam") {
        #expect(XMPSidecar.write(Decision(rating: 1), fields: .rating, photo: photo, policy: policy) == .written)
        #expect(try toolText(["exiftool", "-s3", "-XMP-digiKam:ColorLabel", "-XMP:Rating", sidecar]) == "2\n1\n")
    }
}

/// Lightroom embeds its XMP in JPEG, TIFF and DNG, phones and other tools in PNG and HEIC: each
/// is read when no sidecar says otherwise (the files are ImageMagick's and heif-enc's, the XMP exiftool's).
@Test func embeddedRatingsAreReadFromEveryKindThatCarriesThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let png = try dir.file("a.png"), tiff = try dir.file("a.tif"), dng = try dir.file("a.dng"), heic = try dir.file("a.heic")
    try runTool(["convert", "-size", "32x24", "xc:#336699", png])
    try runTool(["convert", "-size", "32x24", "xc:#336699", tiff])
    try runTool(["cp", tiff, dng])
    try runTool(["exiftool", "-q", "-overwrite_original", "-DNGVersion=1.4.0.0", dng])
    try runTool(["heif-enc", "-q", "50", png, "-o", heic])
    for (path, rating) in [(png, 2), (tiff, 3), (dng, 4), (heic, 5)] {
        try runTool(["exiftool", "-q", "-overwrite_original", "-XMP-xmp:Rating=\(rating)", "-XMP-xmp:Label=Green", path])
        #expect(XMPSidecar.read(photo: ImagePath(path)).decision == Decision(rating: rating, labels: [.green]), "\(path)")
    }
}

/// `lightbox-decode` as built beside the tests.
private func builtDecoder() throws -> String {
    let tests = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let decoder = URL(fileURLWithPath: tests).deletingLastPathComponent().appendingPathComponent("lightbox-decode").path
    try #require(FileManager.default.isExecutableFile(atPath: decoder), "lightbox-decode is built beside the tests")
    return decoder
}

/// One visit's reading of decisions with the index in `cache`: what came back, in order.
private func readDecisions(_ reads: [DecisionKeeper.Read], writing writes: [DecisionWrite] = [], decoder: String, cache: String) throws
    -> [DecisionKeeper.Result]
{
    let index = try #require(LibraryIndex(folder: cache, mode: .on))
    // The scan's part: the photos are in the index (a decision is kept with its photo's row).
    for file in reads.flatMap(\.files) { index.remember(file) }
    let pool = WorkerPoolDecoder(command: [Array(decoder.utf8)] + DecoderSettings(pixelLimit: 1 << 24, cacheRoot: nil).arguments, timeLimit: 10)
    defer { pool.shutdown() }
    let keeper = DecisionKeeper(pool: pool, policy: SidecarPolicy(mode: .appended), index: index) {}
    keeper.write(writes)
    keeper.read(reads)
    var results: [DecisionKeeper.Result] = []
    for _ in 0..<1000 {
        results += keeper.takeResults()
        if keeper.isIdle { break }
        usleep(10_000)
    }
    results += keeper.takeResults()
    _ = keeper.finish(waitingAtMost: 5)
    index.flush()
    #expect(index.takeProblems().isEmpty)
    return results
}

/// The decisions items were said to have, by id, in the order said (a later saying wins).
private func said(_ results: [DecisionKeeper.Result]) -> [Int: Decision] {
    var decisions: [Int: Decision] = [:]
    for case .read(let items) in results { for item in items { decisions[item.id.rawValue] = item.decision } }
    return decisions
}

/// The index keeps what sidecars said: the next visit shows it at once, before any sidecar is
/// read; only photos whose files changed since are read again (a sidecar exiftool rewrote
/// keeping its time, one removed, a rating embedded in the photo), and a decision written
/// shows from the index the visit after.
@Test func theIndexShowsDecisionsAtOnceAndOnlyChangedOnesAreReadAgain() throws {
    let decoder = try builtDecoder()
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let cache = try dir.file("cache")
    var reads: [DecisionKeeper.Read] = []
    for (number, name) in ["a.jpg", "b.jpg", "c.jpg"].enumerated() {
        let photo = try dir.file(name)
        try TestImages.jpeg(at: photo, width: 16, height: 16)
        reads.append(DecisionKeeper.Read(id: ItemID(number), item: ImageFile(path: ImagePath(photo), byteCount: 0, modified: 0, format: .jpeg)))
    }
    // A pair: its RAW's sidecar (darktable's name) says what the item has.
    let pairJPEG = try dir.file("d.jpg"), pairRAW = try dir.file("d.nef")
    try TestImages.jpeg(at: pairJPEG, width: 16, height: 16)
    _ = FileManager.default.createFile(atPath: pairRAW, contents: Data([1]))
    reads.append(
        DecisionKeeper.Read(
            id: ItemID(3),
            item: ImageFile(
                path: ImagePath(pairJPEG), byteCount: 0, modified: 0, format: .jpeg,
                companions: [ImageFile(path: ImagePath(pairRAW), byteCount: 0, modified: 0, format: .cameraRaw)])))
    try runTool(["exiftool", "-q", "-o", try dir.file("a.jpg.xmp"), "-XMP-xmp:Rating=3"])
    try runTool(["exiftool", "-q", "-o", try dir.file("b.xmp"), "-XMP-xmp:Label=Green"])  // Lightroom's name
    try runTool(["exiftool", "-q", "-o", try dir.file("d.nef.xmp"), "-XMP-xmp:Rating=2"])

    let first = try readDecisions(reads, decoder: decoder, cache: cache)
    let expected: [Int: Decision] = [0: Decision(rating: 3), 1: Decision(labels: [.green]), 3: Decision(rating: 2)]
    #expect(said(first) == expected, "\(first)")

    // Nothing changed: all of it at once, in one result, and nothing read again.
    let second = try readDecisions(reads, decoder: decoder, cache: cache)
    #expect(second.count == 1 && said(second) == expected, "\(second)")
    // On a local disk an unchanged photo's stamp is taken in the app: no decoder is asked (here
    // there is none that answers).
    let withoutDecoder = try readDecisions(reads, decoder: "/bin/false", cache: cache)
    #expect(withoutDecoder.count == 1 && said(withoutDecoder) == expected, "\(withoutDecoder)")

    // Changed behind Lightbox's back: a's sidecar rewritten with its time kept (-P), b's removed,
    // a rating put into c itself.
    try runTool(["exiftool", "-q", "-P", "-overwrite_original", "-XMP-xmp:Rating=5", try dir.file("a.jpg.xmp")])
    unlink(try dir.file("b.xmp"))
    try runTool(["exiftool", "-q", "-overwrite_original", "-XMP-xmp:Rating=4", try dir.file("c.jpg")])
    let third = try readDecisions(reads, decoder: decoder, cache: cache)
    #expect(said(Array(third.prefix(1))) == expected, "the index's copy first: \(third)")
    #expect(said(third) == [0: Decision(rating: 5), 1: .none, 2: Decision(rating: 4), 3: Decision(rating: 2)], "\(third)")
    #expect(third.count == 4, "the unchanged pair is not said again: \(third)")

    // A decision written is what the index says the visit after, and it is not read again.
    let write = DecisionWrite(id: ItemID(1), paths: [ImagePath(try dir.file("b.jpg"))], decision: Decision(rating: 1, labels: [.red]))
    _ = try readDecisions([], writing: [write], decoder: decoder, cache: cache)
    let fourth = try readDecisions(reads, decoder: decoder, cache: cache)
    #expect(
        fourth.count == 1 && said(fourth) == [0: Decision(rating: 5), 1: Decision(rating: 1, labels: [.red]), 2: Decision(rating: 4), 3: Decision(rating: 2)],
        "\(fourth)")
}

/// On a local disk a JPEG with no XMP anywhere (nothing kept, no sidecar, none in its headers)
/// is told to say nothing without a decoder (here none answers), and the index keeps that;
/// one with XMP in its headers, a sidecar, or another kind of file still goes to the decoder.
@Test func aJPEGWithoutXMPIsToldNoneWithoutADecoder() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let cache = try dir.file("cache")
    func read(_ name: String, number: Int, format: ImageFormat = .jpeg) throws -> DecisionKeeper.Read {
        DecisionKeeper.Read(id: ItemID(number), item: ImageFile(path: ImagePath(try dir.file(name)), byteCount: 0, modified: 0, format: format))
    }
    for name in ["plain.jpg", "embedded.jpg", "beside.jpg"] { try TestImages.jpeg(at: try dir.file(name), width: 16, height: 16) }
    try runTool(["exiftool", "-q", "-overwrite_original", "-XMP-xmp:Rating=3", try dir.file("embedded.jpg")])
    try runTool(["exiftool", "-q", "-o", try dir.file("beside.jpg.xmp"), "-XMP-xmp:Rating=2"])
    try TestImages.png(at: try dir.file("picture.png"), width: 8, height: 8)
    let reads = [
        try read("plain.jpg", number: 0), try read("embedded.jpg", number: 1), try read("beside.jpg", number: 2),
        try read("picture.png", number: 3, format: .png),
    ]
    let results = try readDecisions(reads, decoder: "/bin/false", cache: cache)
    // The three others asked a decoder that does not answer: a problem each. The plain one, none.
    let problems = results.compactMap { if case .problem(let text) = $0 { text } else { nil } }
    #expect(problems.count == 3 && said(results).isEmpty, "\(results)")
    // The index kept that it says nothing, at its files' stamp: the next visit takes it from there.
    let index = try #require(LibraryIndex(folder: cache, mode: .read))
    let kept = index.decisions(of: [reads[0].files[0].path])
    #expect(kept.count == 1 && kept[0]?.decision == nil && kept[0]?.stamp == DecisionStamp.of(photo: reads[0].files[0].path, keptIn: nil), "\(kept)")
    #expect(index.decisions(of: [reads[1].files[0].path]) == [nil])
}

/// A JPEG's embedded rating is read from its headers in one go; one whose headers run past
/// what is read at once (comments of 320 KB before its XMP) is read whole by Exempi, the same.
@Test func aJPEGsEmbeddedXMPIsReadFromItsHeadersWhateverTheirLength() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("a.jpg")
    try TestImages.jpeg(at: photo, width: 16, height: 16)
    try runTool(["exiftool", "-q", "-overwrite_original", "-XMP-xmp:Rating=3", "-XMP-xmp:Label=Red", photo])
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
    let header = try #require(JPEGHeader(parsing: bytes))
    let packet = try #require(header.xmpPacket)
    #expect(header.headersAreWhole && String(decoding: bytes[packet], as: UTF8.self).contains("Rating") == true)
    #expect(XMPSidecar.read(photo: ImagePath(photo)).decision == Decision(rating: 3, labels: [.red]))

    let comment: [UInt8] = [0xFF, 0xFE, 0xFF, 0xFF] + Array(repeating: UInt8(ascii: "c"), count: 65533)
    let long = try dir.file("long.jpg")
    try TestImages.bytes(Array(bytes[..<2]) + Array(repeating: comment, count: 5).joined() + Array(bytes[2...]), at: long)
    let longHeader = try #require(JPEGHeader(parsing: Array([UInt8](try Data(contentsOf: URL(fileURLWithPath: long))).prefix(XMPSidecar.headerReadLimit))))
    #expect(!longHeader.headersAreWhole && longHeader.xmpPacket == nil, "past what is read at once")
    #expect(XMPSidecar.read(photo: ImagePath(long)).decision == Decision(rating: 3, labels: [.red]))
    // A JPEG without XMP says nothing, and no Exempi is needed to know it.
    let plain = try dir.file("plain.jpg")
    try TestImages.jpeg(at: plain, width: 16, height: 16)
    #expect(JPEGHeader(parsing: [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain))))?.headersAreWhole == true)
    #expect(XMPSidecar.read(photo: ImagePath(plain)).decision == nil)
}

/// Sidecar reads send nothing to a mount that stopped answering: its photos' reads wait,
/// parked, with no problem said, while other mounts' are read, and go once it is asked again.
@Test func sidecarReadsOfAMountThatDoesNotAnswerWaitParked() throws {
    let decoder = try builtDecoder()
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("a.jpg")
    try TestImages.jpeg(at: photo, width: 16, height: 16)
    try runTool(["exiftool", "-q", "-o", try dir.file("a.jpg.xmp"), "-XMP-xmp:Rating=2"])
    let (watch, release) = watchWithALateRead()
    let pool = WorkerPoolDecoder(command: [Array(decoder.utf8)] + DecoderSettings(pixelLimit: 1 << 24, cacheRoot: nil).arguments, timeLimit: 10)
    defer { pool.shutdown() }
    let keeper = DecisionKeeper(pool: pool, policy: SidecarPolicy(mode: .appended), watch: watch) {}
    let file = { (path: String) in ImageFile(path: ImagePath(path), byteCount: 1, modified: 0, format: .jpeg) }
    keeper.read([DecisionKeeper.Read(id: ItemID(0), item: file("/proc/self/stat")), DecisionKeeper.Read(id: ItemID(1), item: file(photo))])
    var results: [DecisionKeeper.Result] = []
    for _ in 0..<500 where !keeper.isIdle {
        usleep(10_000)
        results += keeper.takeResults()
    }
    results += keeper.takeResults()
    #expect(results == [.read([DecisionKeeper.Known(id: ItemID(1), decision: Decision(rating: 2))])], "\(results)")
    #expect(keeper.parkedCount == 1)
    release.signal()
    usleep(50_000)
    keeper.retryParked()
    #expect(keeper.parkedCount == 0)
    for _ in 0..<500 where !keeper.isIdle { usleep(10_000) }
    #expect(keeper.isIdle && keeper.takeResults().isEmpty, "read, and nothing to say of it")
}

/// The stamp's look says which decision files are there (the newer of two sidecars, a kept
/// copy), and the read takes that from it instead of looking again.
@Test func theStampsLookIsWhatTheReadTakes() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("a.jpg")
    try TestImages.jpeg(at: photo, width: 16, height: 16)
    let older = try dir.file("a.xmp"), newer = try dir.file("a.jpg.xmp")
    try runTool(["exiftool", "-q", "-o", older, "-XMP-xmp:Rating=1"])
    try runTool(["exiftool", "-q", "-o", newer, "-XMP-xmp:Rating=5"])
    try runTool(["touch", "-d", "2001-01-01", older])
    let keptRoot = ImagePath(try dir.file("state"))
    let look = DecisionStamp.look(photo: ImagePath(photo), keptIn: keptRoot)
    #expect(look.found == DecisionStamp.Found(hasKept: false, sidecar: ImagePath(newer)))
    #expect(look.stamp == DecisionStamp.of(photo: ImagePath(photo), keptIn: keptRoot), "the same files, the same stamp")
    #expect(XMPSidecar.read(photo: ImagePath(photo), keptIn: keptRoot, found: look.found).decision == Decision(rating: 5))
    // What the look found is what is read: told of no sidecar, none is read.
    #expect(XMPSidecar.read(photo: ImagePath(photo), keptIn: keptRoot, found: DecisionStamp.Found()).decision == nil)
    try runTool(["touch", "-d", "2002-01-01", newer])
    #expect(DecisionStamp.of(photo: ImagePath(photo), keptIn: keptRoot) != look.stamp, "a sidecar's time changed")
}
