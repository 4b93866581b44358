#if canImport(Glibc)
import Glibc
#endif

/// Finds images under the given paths: folders recursively, files directly.
public struct Scanner: Sendable {
    /// What a scan found: folders of images in natural order, and what could not be read.
    public struct Result: Sendable {
        public var folders: [ImageFolder]
        public var problems: [String]
    }

    /// Every format recognised by content is kept; the app drops those its libvips cannot load.
    public init() {}

    /// Scans `paths`. Hidden entries are skipped, symlinked folders are followed once each
    /// (no loops), and non-regular files are skipped without being opened.
    /// - Complexity: O(*n* log *n*) in the number of entries, plus one small read per file.
    public func scan(_ paths: [ImagePath]) -> Result {
        var byFolder: [ImagePath: [ImageFile]] = [:]
        var problems: [String] = []
        var visited = Set<FileIdentity>()
        for path in paths {
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0 else {
                problems.append("cannot open \(path): \(Self.errorText())")
                continue
            }
            if Self.isDirectory(info) {
                walk(path, info: info, into: &byFolder, problems: &problems, visited: &visited)
            } else {
                switch classify(path, info: info) {
                case .image(let file): byFolder[path.parent, default: []].append(file)
                case .refused(let reason): problems.append(reason)
                case .ignored: problems.append("not an image: \(path)")
                }
            }
        }
        let folders = byFolder.keys.sorted().map { folder in
            ImageFolder(path: folder, files: byFolder[folder]!.sorted { $0.path < $1.path })
        }
        return Result(folders: folders, problems: problems)
    }

    func walk(_ folder: ImagePath, info: stat, into byFolder: inout [ImagePath: [ImageFile]],
              problems: inout [String], visited: inout Set<FileIdentity>) {
        guard visited.insert(FileIdentity(info)).inserted else { return }
        guard let dir = folder.withCString({ opendir($0) }) else {
            problems.append("cannot read \(folder): \(Self.errorText())")
            return
        }
        var subfolders: [(ImagePath, stat)] = []
        var files: [ImageFile] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard let first = name.first, first != UInt8(ascii: ".") else { continue }
            let path = folder.appending(name)
            let type = entry.pointee.d_type
            if type != UInt8(DT_REG) && type != UInt8(DT_DIR) && type != UInt8(DT_LNK) && type != UInt8(DT_UNKNOWN) {
                continue  // FIFOs, devices, sockets: never opened
            }
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0 else {
                // A dangling link is nothing to report; anything else (a path too long) is.
                if errno != ENOENT { problems.append("cannot read \(path): \(Self.errorText())") }
                continue
            }
            if Self.isDirectory(info) {
                subfolders.append((path, info))
            } else {
                switch classify(path, info: info) {
                case .image(let file): files.append(file)
                case .refused(let reason): problems.append(reason)
                case .ignored: break
                }
            }
        }
        closedir(dir)
        if !files.isEmpty { byFolder[folder, default: []].append(contentsOf: files) }
        for (path, info) in subfolders { walk(path, info: info, into: &byFolder, problems: &problems, visited: &visited) }
    }

    /// What a scanned file is.
    enum Classification {
        case image(ImageFile)
        /// Named like an image but not one: the reason.
        case refused(String)
        case ignored
    }

    /// Whether `path` is an image (a regular file whose first bytes name a known format), or a
    /// file named like one that is not.
    func classify(_ path: ImagePath, info: stat) -> Classification {
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .ignored }
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return .refused("cannot read \(path): \(Self.errorText())") }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0, let format = ImageFormat(sniffing: Array(header.prefix(count))) else {
            guard Self.hasImageName(path) else { return .ignored }
            return .refused("not an image: \(path) (\(Self.describeContent(Array(header.prefix(max(0, count))))))")
        }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return .image(ImageFile(path: path, byteCount: Int64(info.st_size), modified: modified, format: format))
    }

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "gif", "webp", "tif", "tiff", "heic", "heif", "avif"]

    static func hasImageName(_ path: ImagePath) -> Bool {
        let name = path.lastComponent
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return false }
        return imageExtensions.contains(String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased())
    }

    /// A short guess at what a file that is not an image holds, for the message.
    static func describeContent(_ header: [UInt8]) -> String {
        if header.isEmpty { return "empty" }
        let text = String(decoding: header, as: UTF8.self).lowercased()
        if text.hasPrefix("<svg") || text.hasPrefix("<?xml") { return "SVG or XML, not supported" }
        if header.count >= 2, header[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(header[1]) {
            return "PPM/PNM, not supported"
        }
        if header.allSatisfy({ $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }) { return "text" }
        return "unknown content"
    }

    static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }

    static func errorText() -> String { String(cString: strerror(errno)) }
}

/// Device and inode: what makes a folder the same folder however it is reached.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
