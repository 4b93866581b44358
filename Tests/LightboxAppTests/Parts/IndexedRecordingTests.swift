import LightboxThumbnails
import Testing

@testable import LightboxApp

/// Photos' metadata as the index keeps it: several cameras and lenses in runs, texts that are
/// not ASCII, dates that are not EXIF's, bursts, animations, a file without metadata.
private func kept(_ i: Int) -> IndexedMetadata? {
    if i % 11 == 10 { return nil }  // nothing kept: read by the reader
    if i % 7 == 6 { return IndexedMetadata(metadata: nil, shownSize: PixelSize(width: 30, height: 40)) }
    var m = ImageMetadata()
    m.dateTaken = i % 13 == 0 ? "2024:02:30 soon" : i % 17 == 0 ? "2024:05:17 23:30:05.25+02:00" : "2024:05:\(10 + i % 3) 12:00:0\(i % 10)"
    m.make = i < 12 ? "FUJIFILM" : i < 20 ? "Canon" : nil
    m.model = i < 12 ? "X100V" : i < 20 ? "Canon EOS R5" : "Pixel 8"
    m.lens = i % 5 == 0 ? nil : i < 15 ? "RF 24-70mm F2.8 L IS USM" : "Objektiv Ø 35"
    m.iso = i % 4 == 0 ? nil : 100 * i
    m.fNumber = i % 3 == 0 ? nil : 2.8
    m.focalLength = i % 6 == 0 ? .nan : 35
    m.subsecond = i % 2 == 0 ? 0.25 : nil
    m.frameCount = i % 9 == 0 ? 12 : nil
    m.burstID = i >= 24 && i < 27 ? "C5A9-Ü" : nil
    return IndexedMetadata(metadata: m, shownSize: i % 8 == 0 ? nil : PixelSize(width: 40 + i, height: 30))
}

@Test func metadataFromTheIndexRecordsAsTheReadersResultsDo() {
    let count = 40
    let files = (0..<count).map { ImageFile(path: ImagePath("a/\($0).jpg"), byteCount: 1, modified: 0, format: .jpeg) }
    let metadata = (0..<count).map(kept)
    for arrangement in [Arrangement(), Arrangement(sections: .date, sort: .date), Arrangement(stacks: .burst)] {
        var read = Library(arrangement: arrangement), indexed = Library(arrangement: arrangement)
        read.append(files, in: ImagePath("a"))
        indexed.append(files, in: ImagePath("a"))
        let results = metadata.indices.compactMap { i in metadata[i]?.result(for: ItemID(i)) }
        read.record(results)
        // In two runs, as two batches come.
        let runs = [
            Library.IndexedRun(first: ItemID(0), metadata: Array(metadata[..<25])), Library.IndexedRun(first: ItemID(25), metadata: Array(metadata[25...])),
        ]
        indexed.record(indexed: runs, answered: results.map(\.id))
        #expect(indexed.datesTaken == read.datesTaken)
        #expect(indexed.details == read.details)
        #expect(indexed.names == read.names)
        #expect(indexed.burstTimes == read.burstTimes)
        #expect(indexed.burstNames == read.burstNames)
        #expect(indexed.aspectsByID == read.aspectsByID)
        #expect(indexed.detailsReadCount == read.detailsReadCount && read.detailsReadCount == results.count)
        #expect((0..<indexed.count).map { indexed.id(at: $0) } == (0..<read.count).map { read.id(at: $0) }, "\(arrangement)")
    }
    // What was checked is what is read: a date that is not EXIF's has no seconds.
    #expect(metadata[13]?.parts.dateTakenSeconds(in: metadata[13]!.encoded) == nil)
    #expect(metadata[1]?.parts.dateTakenSeconds(in: metadata[1]!.encoded) == metadata[1]?.metadata?.dateTakenSeconds)
}
