#if canImport(Glibc)
    import Glibc
#endif

/// The shared thumbnail cache of the freedesktop.org Thumbnail Managing Standard, so that
/// folders other desktop programs thumbnailed open at once, and what we write they reuse.
public struct FreedesktopCache: Sendable {
    /// The standard's sizes: thumbnails fit inside a square of this many pixels.
    public enum Size: Int, CaseIterable, Sendable {
        case normal = 128, large = 256, xLarge = 512, xxLarge = 1024

        public var folder: String {
            switch self {
            case .normal: return "normal"
            case .large: return "large"
            case .xLarge: return "x-large"
            case .xxLarge: return "xx-large"
            }
        }

        /// The smallest size whose thumbnails have at least `pixels` on their longer side.
        public static func covering(_ pixels: Int) -> Size? { allCases.first { $0.rawValue >= pixels } }
    }

    /// A file as the cache identifies it.
    public struct Source: Sendable {
        public let absolutePath: ImagePath
        public let modifiedSeconds: Int64
        public let byteCount: Int64
        /// The file's canonical URI, and the entry name made from it (its MD5), worked out once:
        /// a lookup tries several sizes and a miss is followed by a store.
        public let uri: String
        let entryName: [UInt8]
        /// Whether the file's kind can be transparent (what libvips decodes: PNG, WebP, GIF…): an
        /// entry an earlier Lightbox wrote for it, flattened onto grey, is made again.
        public var mayBeTransparent: Bool

        public init(absolutePath: ImagePath, modifiedSeconds: Int64, byteCount: Int64, mayBeTransparent: Bool = false) {
            self.absolutePath = absolutePath
            self.modifiedSeconds = modifiedSeconds
            self.byteCount = byteCount
            self.mayBeTransparent = mayBeTransparent
            uri = FreedesktopCache.uri(forAbsolutePath: absolutePath.bytes)
            entryName = Array((MD5.hex(Array(uri.utf8)) + ".png").utf8)
        }
    }

    /// The `thumbnails` folder.
    public let root: ImagePath
    /// Where failures are recorded, named for this program and version.
    public let failFolder: String

    public init(root: ImagePath, version: String = lightboxVersion) {
        self.root = root
        failFolder = "fail/lightbox-" + version
    }

    /// `$XDG_CACHE_HOME/thumbnails`, or `$HOME/.cache/thumbnails`, with the variables' values as bytes.
    public static func defaultRoot(folder: (String) -> ImagePath? = EnvironmentVariable.folder) -> ImagePath? {
        if let cache = folder("XDG_CACHE_HOME") { return cache.appending(Array("thumbnails".utf8)) }
        return folder("HOME")?.appending(Array(".cache/thumbnails".utf8))
    }

    /// Bytes kept as they are in a file URI, as GLib's `g_filename_to_uri` keeps them
    /// (unreserved characters and the sub-delimiters allowed in paths, except `;`).
    static let kept: Set<UInt8> = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,=:@/".utf8))

    /// The canonical `file://` URI of an absolute path, percent-encoded byte by byte.
    public static func uri(forAbsolutePath bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = Array("file://".utf8)
        for byte in bytes {
            if kept.contains(byte) { out.append(byte) } else { out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `path` made absolute against the working folder, with `.`, `..` and repeated slashes
    /// removed lexically (symlinks are kept, as file managers name files).
    public static func absolute(_ path: ImagePath) -> ImagePath {
        var bytes = path.bytes
        if bytes.first != UInt8(ascii: "/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                bytes = Array(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }) + [UInt8(ascii: "/")] + bytes
            }
        }
        var parts: [ArraySlice<UInt8>] = []
        for part in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            if part.elementsEqual([UInt8(ascii: ".")]) { continue }
            if part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return ImagePath(bytes: parts.isEmpty ? [UInt8(ascii: "/")] : parts.flatMap { [UInt8(ascii: "/")] + $0 })
    }

    /// Where the thumbnail of `source` at `size` lives.
    public func entryPath(for source: Source, size: Size) -> ImagePath {
        root.appending(Array(size.folder.utf8)).appending(source.entryName)
    }

    func failurePath(for source: Source) -> ImagePath {
        root.appending(Array(failFolder.utf8)).appending(source.entryName)
    }

    /// Whether `path` lies inside the cache (never thumbnail the thumbnails).
    public func contains(_ absolutePath: ImagePath) -> Bool {
        absolutePath.bytes.count > root.bytes.count && absolutePath.bytes.starts(with: root.bytes)
            && absolutePath.bytes[root.bytes.count] == UInt8(ascii: "/")
    }

    /// The PNG bytes of a valid entry at least `pixels` on its longer side, smallest first.
    public func lookup(_ source: Source, needing pixels: Int) -> [UInt8]? {
        guard let smallest = Size.covering(pixels) else { return nil }
        for size in Size.allCases where size.rawValue >= smallest.rawValue {
            if let data = Self.readSmallFile(entryPath(for: source, size: size)), let text = validText(data, for: source),
                !isFlattened(text, for: source)
            {
                return data
            }
        }
        return nil
    }

    /// The reason recorded for a file that failed before, if the record is still valid.
    public func recordedFailure(for source: Source) -> String? {
        guard let data = Self.readSmallFile(failurePath(for: source)), let text = validText(data, for: source) else { return nil }
        return text["X-Lightbox::Reason"] ?? "failed before"
    }

    /// An entry's text chunks, read once, when they describe `source` as it is now; else nil.
    func validText(_ data: [UInt8], for source: Source) -> [String: String]? {
        guard let text = PNGText.entries(in: data), text["Thumb::URI"] == source.uri,
            let mtime = text["Thumb::MTime"].flatMap({ Int64($0) }), mtime == source.modifiedSeconds
        else { return nil }
        if let size = text["Thumb::Size"], Int64(size) != source.byteCount { return nil }
        return text
    }

    /// What entries say once transparency is kept in them (RGBA when the picture has any).
    static let alphaKept = ("X-Lightbox::Alpha", "kept")

    /// Whether an entry with `text` is one an earlier Lightbox wrote for a file that may be
    /// transparent: it flattened transparency onto grey, so the entry is made again, once.
    func isFlattened(_ text: [String: String], for source: Source) -> Bool {
        source.mayBeTransparent && text["Software"] == "Lightbox" && text[Self.alphaKept.0] == nil
    }

    /// Writes `thumbnail` (already fitted to `size`) atomically: a temporary file in the same
    /// folder, mode 0600, then a rename. Returns false when it could not.
    @discardableResult
    public func store(_ thumbnail: Thumbnail, for source: Source, size: Size) -> Bool {
        (try? put(thumbnail, for: source, size: size).get()) != nil
    }

    /// Why an entry could not be written: the failing call's error ("No space left on device").
    public struct WriteFailure: Error, Hashable {
        public var reason: String
    }

    /// Writes the entry as `store` does, saying why when it could not.
    public func put(_ thumbnail: Thumbnail, for source: Source, size: Size) -> Result<Void, WriteFailure> {
        write(thumbnail, text: attributes(for: source), to: entryPath(for: source, size: size))
    }

    /// Records that `source` cannot be thumbnailed, so it is not retried every time.
    @discardableResult
    public func storeFailure(_ reason: String, for source: Source) -> Bool {
        let pixel = Thumbnail(width: 1, height: 1, pixels: [0, 0, 0])
        let written = write(pixel, text: attributes(for: source) + [("X-Lightbox::Reason", String(reason.prefix(200)))], to: failurePath(for: source))
        return (try? written.get()) != nil
    }

    func attributes(for source: Source) -> [(String, String)] {
        [
            ("Thumb::URI", source.uri), ("Thumb::MTime", String(source.modifiedSeconds)),
            ("Thumb::Size", String(source.byteCount)), ("Software", "Lightbox"), Self.alphaKept,
        ]
    }

    /// The error of the call that just failed (ENOSPC, EROFS): what the user is told.
    private static func failed() -> Result<Void, WriteFailure> { .failure(WriteFailure(reason: String(cString: strerror(errno)))) }

    func write(_ thumbnail: Thumbnail, text: [(String, String)], to path: ImagePath) -> Result<Void, WriteFailure> {
        guard Self.makeFolders(path.parent) else { return Self.failed() }
        guard let png = PNGWriter.encode(thumbnail, text: text) else { return .failure(WriteFailure(reason: "the picture cannot be encoded")) }
        return Self.writeWhole(png, to: path, temporarySuffix: ".png")
    }

    /// Writes `bytes` to `path` whole or not at all, in its folder (made already): a new file of
    /// mode 0600 there (`O_EXCL`, so a link planted in its place is not followed), renamed over it.
    static func writeWhole(_ bytes: [UInt8], to path: ImagePath, temporarySuffix: String = "") -> Result<Void, WriteFailure> {
        var suffix = [UInt8](repeating: 0, count: 8)
        for k in suffix.indices { suffix[k] = UInt8(ascii: "a") + UInt8.random(in: 0..<26) }
        let temporary = path.parent.appending(Array(".lightbox-\(getpid())-".utf8) + suffix + Array(temporarySuffix.utf8))
        let fd = temporary.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { return failed() }
        var outcome: Result<Void, WriteFailure> = FileReader.writeAll(bytes, to: fd) ? .success(()) : failed()
        close(fd)
        if case .success = outcome, temporary.withCString({ from in path.withCString { to in rename(from, to) } }) != 0 { outcome = failed() }
        if case .failure = outcome { _ = temporary.withCString { unlink($0) } }
        return outcome
    }

    /// Creates `folder` and its parents with mode 0700.
    static func makeFolders(_ folder: ImagePath) -> Bool {
        var info = stat()
        if folder.withCString({ stat($0, &info) }) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                errno = ENOTDIR  // for the reason `write` gives
                return false
            }
            return true
        }
        let parent = folder.parent
        if parent != folder, parent.bytes != [UInt8(ascii: ".")] { _ = makeFolders(parent) }
        return folder.withCString { mkdir($0, 0o700) } == 0 || errno == EEXIST
    }

    /// A cache entry's bytes (at most 16 MiB), or nil.
    static func readSmallFile(_ path: ImagePath) -> [UInt8]? {
        guard case .success(let data) = FileReader.read(path, limit: 16 << 20) else { return nil }
        return data
    }
}
