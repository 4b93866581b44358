import LightboxApp
import LightboxTerminal
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// `--write-sidecars [PATH…]`: the decisions Lightbox kept in its state folder (because a
/// folder was read-only, `sidecar = off`, a sidecar could not be written into, or the photo was
/// not there) written beside their photos now, for the photos under PATH (all without one).
/// Each is merged into the sidecar that exists, else a new one named as `--sidecar` says
/// (`appended` when it says `off`: asking to write them is asking for sidecars); once beside its
/// photo, the kept copy goes.
enum SidecarSession {
    static func run(options: Options) -> Int32 {
        guard let root = options.sidecarPolicy.keptRoot else {
            Output.error("--write-sidecars: Lightbox's state folder is unknown (neither XDG_STATE_HOME nor HOME is set)")
            return 2
        }
        let wanted = options.paths.map(FreedesktopCache.absolute)
        let photos = keptPhotos(in: root).filter { photo in wanted.isEmpty || wanted.contains { photo.isWithin($0) } }
        guard !photos.isEmpty else {
            Output.error("--write-sidecars: no decisions kept in \(DisplayText.sanitized(bytes: root.bytes))" + (wanted.isEmpty ? "" : " for those paths"))
            return 1
        }
        let pool = options.makeSidecarPool()
        defer { pool.shutdown() }
        let policy = SidecarPolicy(mode: options.sidecarMode == .off ? .appended : options.sidecarMode, keptRoot: root)
        var written = 0
        for photo in photos {
            let name = DisplayText.sanitized(bytes: photo.bytes)
            var info = stat()
            guard photo.withCString({ lstat($0, &info) }) == 0 else {
                Output.error("\(name): the photo is not there (\(String(cString: strerror(errno)))); its decision stays kept")
                continue
            }
            let file = ImageFile(path: photo, byteCount: 0, modified: 0, format: .jpeg)
            let read = pool.readDecision(file, keptIn: root)
            var kept = stat()
            if !read.isKept, photo.keptSidecar(in: root).withCString({ lstat($0, &kept) }) != 0 {
                // Gone since it was listed: a write still in hand when its Lightbox ended put it beside the photo.
                written += 1
                Output.write(Array("\(name): already beside the photo\n".utf8), to: 2)
                continue
            }
            guard read.isKept, let decision = read.decision else {
                Output.error("\(name): \(read.problem ?? "its kept decision says nothing"); left as it is")
                continue
            }
            switch pool.writeDecision(decision, for: file, policy: policy) {
            case .written, .unchanged:
                written += 1
                Output.write(Array("\(name): written beside the photo\n".utf8), to: 2)
            case .kept(let reason), .failed(let reason): Output.error("\(name): \(reason); its decision stays kept")
            }
        }
        for folder in Set(photos.map(\.parent)) { removeStaleTemporaries(in: folder) }
        removeEmptyFolders(in: root)
        let left = photos.count - written
        Output.error(
            "\(written) of \(photos.count) decision\(photos.count == 1 ? "" : "s") written beside the photos"
                + (left > 0 ? "; \(left) still kept in \(DisplayText.sanitized(bytes: root.bytes))" : ""))
        return left == 0 ? 0 : 1
    }

    /// The photos whose decisions are kept under `root`, in natural order.
    static func keptPhotos(in root: ImagePath) -> [ImagePath] {
        var found: [ImagePath] = []
        walk(root) { file in if let photo = file.photoOfKeptSidecar(in: root) { found.append(photo) } }
        return found.sorted()
    }

    /// Calls `body` with every regular file under `folder`, links not followed.
    static func walk(_ folder: ImagePath, depth: Int = 0, _ body: (ImagePath) -> Void) {
        guard depth < 256, let directory = folder.withCString({ opendir($0) }) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = Array(DirectoryEntry.name(entry))
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            let path = folder.appending(name)
            var info = stat()
            guard path.withCString({ lstat($0, &info) }) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(path, depth: depth + 1, body)
            case S_IFREG: body(path)
            default: break
            }
        }
    }

    /// Removes what a write cut short left beside the photos (a Lightbox ended mid-write, its
    /// decoder killed): Lightbox's own temporary names (`.IMG_1.JPG.xmp.lightbox-XXXXXX`, as
    /// `mkstemp` makes them), older than a minute, so another Lightbox's write in hand is left be.
    static func removeStaleTemporaries(in folder: ImagePath) {
        guard let directory = folder.withCString({ opendir($0) }) else { return }
        defer { closedir(directory) }
        let marker = Array(".xmp.lightbox-".utf8), now = time(nil)
        while let entry = readdir(directory) {
            let name = Array(DirectoryEntry.name(entry))
            guard name.first == UInt8(ascii: "."), name.count > marker.count + 6,
                name[(name.count - 6 - marker.count)..<(name.count - 6)].elementsEqual(marker)
            else { continue }
            let path = folder.appending(name)
            var info = stat()
            guard path.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG, now - info.st_mtim.tv_sec > 60 else { continue }
            path.withCString { _ = unlink($0) }
        }
    }

    /// Removes the folders under `root` left empty once their decisions went beside the photos.
    static func removeEmptyFolders(in folder: ImagePath, depth: Int = 0) {
        guard depth < 256, let directory = folder.withCString({ opendir($0) }) else { return }
        var children: [ImagePath] = []
        while let entry = readdir(directory) {
            let name = Array(DirectoryEntry.name(entry))
            guard Int(DirectoryEntry.type(entry)) == DT_DIR, name != [UInt8(ascii: ".")], name != [UInt8(ascii: "."), UInt8(ascii: ".")] else { continue }
            children.append(folder.appending(name))
        }
        closedir(directory)
        for child in children {
            removeEmptyFolders(in: child, depth: depth + 1)
            child.withCString { _ = rmdir($0) }  // fails, as it should, when something is left in it
        }
    }
}

extension ImagePath {
    /// Whether this absolute path is `folder` or lies inside it.
    func isWithin(_ folder: ImagePath) -> Bool {
        bytes == folder.bytes || folder.bytes == [UInt8(ascii: "/")]
            || bytes.count > folder.bytes.count && bytes.starts(with: folder.bytes) && bytes[folder.bytes.count] == UInt8(ascii: "/")
    }
}
