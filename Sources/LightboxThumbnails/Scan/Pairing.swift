/// Files a camera or a phone writes together, shown as one item: a RAW beside its JPEG or HEIC
/// (RAW+JPEG), a HEIC or JPEG beside its MOV (an iPhone's Live Photo). They share a folder and a
/// name stem (`IMG_0001.CR2`, `IMG_0001.JPG`), which natural order keeps next to each other.
public enum Pairing: String, CaseIterable, Sendable {
    /// One item; accept prints every member, the picture first.
    case together
    /// One item; accept prints only the picture.
    case picture
    /// Every file its own item.
    case apart

    /// What a file is in a pair: the picture shown, or a companion of it.
    public enum Role: Sendable { case picture, companion }

    /// A kind of file's role in pairs, from its row (JPEG and HEIF pictures, RAWs and QuickTime videos companions).
    static func role(of format: ImageFormat) -> Role? { format.traits.pairRole }

    /// A file's name without its last extension.
    static func stem(_ path: ImagePath) -> ArraySlice<UInt8> {
        let name = path.lastComponent
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return name[...] }
        return name[..<dot]
    }

    /// How many files at the end of `files` share the last one's stem (and so may still gain a member).
    static func trailingGroupCount(_ files: [ImageFile]) -> Int {
        guard let last = files.last else { return 0 }
        let lastStem = stem(last.path)
        return files.reversed().prefix { stem($0.path) == lastStem }.count
    }

    /// The runs of `files` (one folder's, in natural order) that share a stem, as index ranges.
    /// - Complexity: O(*n*).
    static func stemRuns(_ files: [ImageFile]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        while start < files.count {
            let runStem = stem(files[start].path)
            var end = start + 1
            while end < files.count, stem(files[end].path) == runStem { end += 1 }
            runs.append(start..<end)
            start = end
        }
        return runs
    }

    /// Whether a run of one stem holds a picture and a companion: one item.
    static func isPair(_ run: ArraySlice<ImageFile>) -> Bool {
        run.count > 1 && run.contains { role(of: $0.format) == .picture } && run.contains { role(of: $0.format) == .companion }
    }

    /// Whether `group(_:)` would make any of `files` a pair (most folders have none: their
    /// files, and what is kept for each by position, stay as they are).
    /// - Complexity: O(*n*).
    static func hasPair(_ files: [ImageFile]) -> Bool {
        // Most folders hold no companion at all (a RAW, a Live Photo's video): no stem is cut.
        guard files.contains(where: { companionKinds.contains($0.format) }) else { return false }
        return stemRuns(files).contains { isPair(files[$0]) }
    }

    /// The kinds that are a pair's companions, found once.
    static let companionKinds = ImageFormat.allCases.filter { role(of: $0) == .companion }

    /// `files` (one folder's, in natural order) with each run of one stem holding a picture and
    /// companions made one item: the picture, the companions its members. Other files are left as they are.
    /// - Complexity: O(*n*).
    static func group(_ files: [ImageFile]) -> [ImageFile] {
        var result: [ImageFile] = []
        result.reserveCapacity(files.count)
        for range in stemRuns(files) {
            let run = files[range]
            guard isPair(run), let picture = run.firstIndex(where: { role(of: $0.format) == .picture }) else {
                result += run
                continue
            }
            var item = files[picture]
            item.companions = run.filter { role(of: $0.format) == .companion }
            result.append(item)
            result += run.filter { $0 != files[picture] && role(of: $0.format) != .companion }
        }
        return result
    }
}

extension ImageFile {
    /// The badge a pair's tile shows: `RAW+JPG`, `RAW+HEIC`, `LIVE`; nil for a single file.
    public var pairBadge: String? {
        guard !companions.isEmpty else { return nil }
        var parts: [String] = []
        if companions.contains(where: { $0.format == .cameraRaw }) { parts.append("RAW+" + (format == .heif ? "HEIC" : "JPG")) }
        if companions.contains(where: { $0.format == .quickTime }) { parts.append("LIVE") }
        return parts.joined(separator: " ")
    }

    /// The paths this item stands for: the picture, then its companions.
    public var memberPaths: [ImagePath] { [path] + companions.map(\.path) }

    /// How many files it is: one, and its companions.
    public var memberCount: Int { 1 + companions.count }
}
