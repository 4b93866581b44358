import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

func file(_ name: String, _ format: ImageFormat) -> ImageFile {
    ImageFile(path: ImagePath("card/" + name), byteCount: 1, modified: 0, format: format)
}

@Test func filesOfOneStemThatACameraWritesTogetherAreOneItem() {
    let files = [
        file("IMG_0001.CR2", .cameraRaw), file("IMG_0001.JPG", .jpeg), file("IMG_0002.HEIC", .heif), file("IMG_0002.MOV", .quickTime),
        file("IMG_0003.JPG", .jpeg), file("IMG_0004.MOV", .quickTime), file("IMG_0005.CR2", .cameraRaw),
        file("IMG_0006.DNG", .cameraRaw), file("IMG_0006.JPG", .jpeg), file("IMG_0006.PNG", .png),
    ]
    let items = Pairing.group(files)
    #expect(
        items.map(\.path.lastComponent).map { String(decoding: $0, as: UTF8.self) }
            == ["IMG_0001.JPG", "IMG_0002.HEIC", "IMG_0003.JPG", "IMG_0004.MOV", "IMG_0005.CR2", "IMG_0006.JPG", "IMG_0006.PNG"])
    #expect(items[0].companions == [files[0]] && items[0].pairBadge == "RAW+JPG")
    #expect(items[1].companions == [files[3]] && items[1].pairBadge == "LIVE")
    #expect(items[2].companions.isEmpty && items[2].pairBadge == nil, "a JPEG alone")
    #expect(items[3].companions.isEmpty && items[4].companions.isEmpty, "a video or a RAW alone stays itself")
    #expect(items[5].memberPaths == [ImagePath("card/IMG_0006.JPG"), ImagePath("card/IMG_0006.DNG")], "the picture first")
    #expect(Pairing.trailingGroupCount(files) == 3 && Pairing.trailingGroupCount([]) == 0)
}

@Test func aPairSplitAcrossBatchesIsStillOneItem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let jpeg = try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 1, 2, 3), width: 8, height: 8)
    let raw = TestRaws.dng(preview: nil)
    // 100 pairs, in batches smaller than the first batch size: some pairs fall on a batch's edge.
    for i in 1...100 {
        try TestImages.bytes(raw, at: try dir.file(String(format: "IMG_%04d.DNG", i)))
        try TestImages.bytes(jpeg, at: try dir.file(String(format: "IMG_%04d.JPG", i)))
    }
    var scanner = LightboxThumbnails.Scanner(pairing: .together)
    scanner.batchLimit = 7
    var batches: [LightboxThumbnails.Scanner.Batch] = []
    scanner.scan([ImagePath(dir.path)]) {
        batches.append($0); return true
    }
    let items: [ImageFile] = batches.flatMap { $0.files }
    #expect(batches.count > 10)
    #expect(items.count == 100)
    let paired = items.filter { (item: ImageFile) in item.format == .jpeg && item.companions.map(\.format) == [.cameraRaw] }
    #expect(paired.count == 100)
    var apart = LightboxThumbnails.Scanner(pairing: .apart)
    apart.batchLimit = 7
    #expect(apart.scan([ImagePath(dir.path)]).folders.flatMap(\.files).count == 200)
}

@Test func aFolderWithoutPairsIsSaidToHaveNone() {
    #expect(!Pairing.hasPair([file("IMG_0001.JPG", .jpeg), file("IMG_0001.PNG", .png), file("IMG_0002.CR2", .cameraRaw), file("IMG_0003.MOV", .quickTime)]))
    #expect(Pairing.hasPair([file("IMG_0001.JPG", .jpeg), file("IMG_0002.CR2", .cameraRaw), file("IMG_0002.JPG", .jpeg)]))
    #expect(!Pairing.hasPair([]))
    #expect(!Pairing.hasPair([file("IMG_0001.JPG", .jpeg), file("IMG_0001.PNG", .png)]), "two pictures of one stem, no companion")
    #expect(Pairing.companionKinds.contains(.cameraRaw) && Pairing.companionKinds.contains(.quickTime) && !Pairing.companionKinds.contains(.jpeg))
}
