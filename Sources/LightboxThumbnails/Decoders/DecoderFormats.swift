#if canImport(Glibc)
    import Glibc
#endif

/// The kinds of file the decoder's libvips loads (`lightbox-decode --supported-formats`), with
/// the files the answer depends on (the decoder, libvips, its modules and their folder) and each
/// one's stamp then. Asking starts libvips, about 80 ms of a core, and a folder holding a WebP,
/// TIFF, HEIF, JPEG XL or JPEG 2000 photo waits for the answer before its first items show; so
/// the answer is kept in Lightbox's cache folder and asked again only when one of them changed.
public struct DecoderFormats: Sendable {
    /// A file's identity and version: replaced (a package upgrade) or changed, it differs.
    public struct Stamp: Hashable, Sendable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int64, nanoseconds: Int64

        /// `path`'s stamp now (links followed), nil when it cannot be looked at.
        init?(of path: ImagePath) {
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
            (device, inode, size) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size))
            (seconds, nanoseconds) = (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
        }

        init(device: UInt64, inode: UInt64, size: Int64, seconds: Int64, nanoseconds: Int64) {
            (self.device, self.inode, self.size, self.seconds, self.nanoseconds) = (device, inode, size, seconds, nanoseconds)
        }
    }

    public var formats: Set<ImageFormat>
    /// What the answer depends on, each with its stamp when it was given.
    public var dependencies: [(path: ImagePath, stamp: Stamp)]

    /// The cache file's first line: a file without it is not one of these.
    static let header = "lightbox decoder formats 1"
    /// Larger than any answer: a bigger file is not one.
    static let byteLimit = 64 * 1024

    /// The decoder's answer (`answer`: a format's name a line, then `uses PATH` lines), with
    /// `decoder` and each path it uses stamped now; nil when it names no format or a path cannot be stamped.
    public init?(answer: String, decoder: ImagePath) {
        let formats = Self.formats(inAnswer: answer)
        let paths = [decoder] + answer.split(separator: "\n").filter { $0.hasPrefix("uses /") }.map { ImagePath(String($0.dropFirst(5))) }
        var dependencies: [(path: ImagePath, stamp: Stamp)] = []
        for path in paths {
            guard let stamp = Stamp(of: path) else { return nil }
            dependencies.append((path, stamp))
        }
        guard !formats.isEmpty else { return nil }
        self.formats = formats
        self.dependencies = dependencies
    }

    /// The kinds an answer names (a name a line), whatever else it says.
    public static func formats(inAnswer answer: String) -> Set<ImageFormat> {
        Set(answer.split(separator: "\n").compactMap { ImageFormat(rawValue: String($0)) })
    }

    /// Whether every file it depends on is as it was when it was asked.
    /// - Complexity: a `stat` a dependency.
    public var isCurrent: Bool { dependencies.allSatisfy { Stamp(of: $0.path) == $0.stamp } }

    /// As the cache file holds it: the header, the formats on one line, then a line a dependency.
    var encoded: [UInt8] {
        var text = Self.header + "\nformats " + formats.map(\.rawValue).sorted().joined(separator: " ") + "\n"
        for (path, stamp) in dependencies {
            text += "uses \(stamp.device) \(stamp.inode) \(stamp.size) \(stamp.seconds) \(stamp.nanoseconds) \(path.description)\n"
        }
        return Array(text.utf8)
    }

    /// A cache file's bytes read back; nil when they are not one (damaged, foreign, another version).
    init?(encoded bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == Self.header, lines[1].hasPrefix("formats "), lines.last == "" else { return nil }
        var formats = Set<ImageFormat>()
        for name in lines[1].dropFirst(8).split(separator: " ") {
            guard let format = ImageFormat(rawValue: String(name)) else { return nil }
            formats.insert(format)
        }
        var dependencies: [(path: ImagePath, stamp: Stamp)] = []
        for line in lines[2..<(lines.count - 1)] {
            let fields = line.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
            guard fields.count == 7, fields[0] == "uses", fields[6].hasPrefix("/"),
                let device = UInt64(fields[1]), let inode = UInt64(fields[2]), let size = Int64(fields[3]),
                let seconds = Int64(fields[4]), let nanoseconds = Int64(fields[5])
            else { return nil }
            let stamp = Stamp(device: device, inode: inode, size: size, seconds: seconds, nanoseconds: nanoseconds)
            dependencies.append((ImagePath(String(fields[6])), stamp))
        }
        guard !formats.isEmpty, !dependencies.isEmpty else { return nil }
        self.formats = formats
        self.dependencies = dependencies
    }

    /// The answer kept at `file`, if it is one and still holds (for `decoder`: another build's is not).
    public static func load(from file: ImagePath, decoder: ImagePath) -> DecoderFormats? {
        guard case .success(let bytes) = FileReader.read(file, limit: byteLimit), let kept = DecoderFormats(encoded: bytes),
            kept.dependencies.first?.path == decoder, kept.isCurrent
        else { return nil }
        return kept
    }

    /// Keeps the answer at `file`, whole or not at all (a new file renamed over it). Paths
    /// that a line cannot hold (a newline in one) are not kept: asked again next time.
    @discardableResult
    public func save(to file: ImagePath) -> Bool {
        guard !dependencies.contains(where: { $0.path.bytes.contains(UInt8(ascii: "\n")) }), FreedesktopCache.makeFolders(file.parent),
            case .success = FreedesktopCache.writeWhole(encoded, to: file)
        else { return false }
        return true
    }

    /// The files of libvips and its modules that `maps` (`/proc/self/maps`' bytes) names, and
    /// the modules' folder (where one may come or go): what a decoder's answer depends on.
    /// - Complexity: O(*n*) in the bytes.
    public static func libvipsFiles(maps: [UInt8]) -> [ImagePath] {
        var found: [ImagePath] = []
        func add(_ path: ImagePath) { if !found.contains(path) { found.append(path) } }
        for line in maps.split(separator: UInt8(ascii: "\n")) {
            guard let slash = line.firstIndex(of: UInt8(ascii: "/")) else { continue }
            let path = ImagePath(bytes: Array(line[slash...]))
            guard path.lastComponent.contains(Array("vips".utf8)) else { continue }
            if path.parent.lastComponent.contains(Array("vips".utf8)) { add(path.parent) }
            add(path)
        }
        return found
    }

    /// This process's memory map (`/proc/self/maps`); empty where there is none.
    public static func ownMaps() -> [UInt8] { FileReader.readToEnd("/proc/self/maps") ?? [] }
}
