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

    public var formats: Set<ImageFormat>

    public init(formats: Set<ImageFormat> = Set(ImageFormat.allCases)) {
        self.formats = formats
    }

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
            } else if let file = imageFile(at: path, info: info) {
                byFolder[path.parent, default: []].append(file)
            } else {
                problems.append("not an image: \(path)")
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
            guard path.withCString({ stat($0, &info) }) == 0 else { continue }  // dangling link
            if Self.isDirectory(info) {
                subfolders.append((path, info))
            } else if let file = imageFile(at: path, info: info) {
                files.append(file)
            }
        }
        closedir(dir)
        if !files.isEmpty { byFolder[folder, default: []].append(contentsOf: files) }
        for (path, info) in subfolders { walk(path, info: info, into: &byFolder, problems: &problems, visited: &visited) }
    }

    /// The image at `path` if it is a regular file whose first bytes name a wanted format.
    func imageFile(at path: ImagePath, info: stat) -> ImageFile? {
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0, let format = ImageFormat(sniffing: Array(header.prefix(count))), formats.contains(format) else {
            return nil
        }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return ImageFile(path: path, byteCount: Int64(info.st_size), modified: modified, format: format)
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
