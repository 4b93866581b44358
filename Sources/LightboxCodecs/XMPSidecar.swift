import CExempi
import Foundation
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// Reads and writes decisions in XMP with Exempi (Adobe's XMP Toolkit), in the decoder
/// processes only, where a hostile sidecar costs one worker. A sidecar wins over the XMP
/// embedded in the photo; of two sidecars (both names), the newer. Only sidecars are written,
/// never the photo, every property other programs put there kept.
public enum XMPSidecar {
    static let xap = "http://ns.adobe.com/xap/1.0/"
    static let darktable = "http://darktable.sf.net/"
    static let digiKam = "http://www.digikam.org/ns/1.0/"
    /// The largest sidecar read (darktable's history stacks are tens of KB).
    public static let byteLimit = 16 << 20

    /// Exempi started, and the namespaces of the tools whose labels are kept in step registered.
    static let started: Bool = {
        guard xmp_init() else { return false }
        let prefix = xmp_string_new()
        defer { xmp_string_free(prefix) }
        _ = xmp_register_namespace(darktable, "darktable", prefix)
        _ = xmp_register_namespace(digiKam, "digiKam", prefix)
        return true
    }()

    /// digiKam's colour label numbers for ours (its 2 is orange, 6 magenta: ours purple).
    static let digiKamLabels: [ColorLabel: Int] = [.red: 1, .yellow: 3, .green: 4, .blue: 5, .purple: 6]

    /// The sidecar of `photo` that exists: either name; both: the newer.
    static func existing(of photo: ImagePath) -> ImagePath? {
        let names = photo.sidecarNames
        let found = [names.appended, names.replaced].compactMap { path -> (ImagePath, Int)? in
            var info = stat()
            guard path.withCString({ lstat($0, &info) }) == 0 else { return nil }
            return (path, info.st_mtim.tv_sec)
        }
        return found.max { $0.1 < $1.1 }?.0
    }

    /// A photo's decision: its sidecar's, else its embedded XMP's; nil with no XMP that says
    /// one, and the reason when an XMP could not be read.
    public static func read(photo: ImagePath) -> (decision: Decision?, problem: String?) {
        guard started else { return (nil, "Exempi did not start") }
        if let sidecar = existing(of: photo) {
            switch parse(sidecar) {
            case .success(let xmp):
                defer { xmp_free(xmp) }
                return (decision(in: xmp), nil)
            case .failure(let problem): return (nil, "sidecar \(sidecar.lastComponent.text): \(problem.text)")
            }
        }
        guard let file = photo.withCString({ xmp_files_open_new($0, XmpOpenFileOptions(XMP_OPEN_READ.rawValue | XMP_OPEN_ONLYXMP.rawValue)) })
        else { return (nil, nil) }
        defer { xmp_files_free(file) }
        guard let xmp = xmp_files_get_new_xmp(file) else { return (nil, nil) }
        defer { xmp_free(xmp) }
        return (decision(in: xmp), nil)
    }

    /// Writes `decision` into the photo's sidecar: the one that exists (re-read now, every other
    /// property kept), else a new one named as `mode` says; atomically, never through a link,
    /// and not at all when it already says so.
    public static func write(_ decision: Decision, photo: ImagePath, mode: SidecarMode) -> SidecarWrite {
        guard started else { return .failed("Exempi did not start") }
        let target: ImagePath, xmp: XmpPtr, permissions: mode_t, keepsDarktable: Bool, keepsDigiKam: Bool
        if let sidecar = existing(of: photo) {
            let bytes: [UInt8]
            switch readSafely(sidecar) {
            case .success(let read): bytes = read
            case .failure(let problem): return .failed("sidecar \(sidecar.lastComponent.text): \(problem.text); not written")
            }
            guard let parsed = parse(bytes) else { return .failed("sidecar \(sidecar.lastComponent.text): not XMP Lightbox can read; not written") }
            target = sidecar
            xmp = parsed
            var info = stat()
            permissions = sidecar.withCString { stat($0, &info) } == 0 ? info.st_mode & 0o7777 : 0o644
            keepsDarktable = bytes.contains(darktable) || decision.labels.count > 1
            keepsDigiKam = bytes.contains(digiKam)
        } else {
            guard mode != .off, !decision.isEmpty else { return .unchanged }
            guard let empty = xmp_new_empty() else { return .failed("Exempi could not make a packet") }
            target = mode == .appended ? photo.sidecarNames.appended : photo.sidecarNames.replaced
            xmp = empty
            permissions = 0o644
            keepsDarktable = decision.labels.count > 1  // xmp:Label holds one: darktable's list holds them all
            keepsDigiKam = false
        }
        defer { xmp_free(xmp) }
        if let current = self.decision(in: xmp), current == decision { return .unchanged }
        set(decision, in: xmp, darktable: keepsDarktable, digiKam: keepsDigiKam)
        // A property another program made of another shape (an array where a value goes) is not
        // overwritten: the sidecar is left as it was rather than saying something else.
        guard let serialized = serialized(xmp, saying: decision) else {
            return .failed("sidecar \(target.lastComponent.text): Lightbox cannot write its decision into what it holds; not written")
        }
        let body = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8) + serialized
        if let problem = replaceAtomically(target, with: body, permissions: permissions) { return .failed(problem) }
        return .written
    }

    /// What a sidecar holding `bytes` says, and its bytes once `decision` is written into it (nil
    /// when they are not XMP Lightbox reads): a read and a write without the files, for the fuzzer.
    public static func roundTrip(_ bytes: [UInt8], writing decision: Decision) -> (read: Decision?, written: [UInt8]?) {
        guard started, let xmp = parse(bytes) else { return (nil, nil) }
        defer { xmp_free(xmp) }
        let read = self.decision(in: xmp)
        set(decision, in: xmp, darktable: bytes.contains(darktable) || decision.labels.count > 1, digiKam: bytes.contains(digiKam))
        return (read, serialized(xmp, saying: decision))
    }

    /// `xmp` as text, when it reads back saying `decision` (a namespace of an odd shape can make
    /// the text say something else: then nothing is written).
    static func serialized(_ xmp: XmpPtr, saying decision: Decision) -> [UInt8]? {
        let text = xmp_string_new()
        defer { xmp_string_free(text) }
        guard xmp_serialize(xmp, text, UInt32(XMP_SERIAL_OMITPACKETWRAPPER), 0), let serialized = xmp_string_cstr(text) else { return nil }
        let bytes = Array(String(cString: serialized).utf8)
        guard let again = parse(bytes) else { return nil }
        defer { xmp_free(again) }
        return self.decision(in: again) == decision ? bytes : nil
    }

    /// The decision an XMP packet says, or nil when it says none.
    static func decision(in xmp: XmpPtr) -> Decision? {
        var said = false, rating = 0
        var labels = Set<ColorLabel>()
        if let text = property(xmp, xap, "Rating"), let value = Double(text) {
            rating = Int(value.rounded())
            said = true
        }
        if let text = property(xmp, xap, "Label") {
            said = true
            if let label = ColorLabel(named: text) { labels.insert(label) }
        }
        var index: Int32 = 1
        while let item = arrayItem(xmp, darktable, "colorlabels", index) {
            said = true
            if let number = Int(item), let label = ColorLabel(rawValue: number) { labels.insert(label) }
            index += 1
        }
        if let text = property(xmp, digiKam, "ColorLabel"), let number = Int(text) {
            said = true
            if let label = digiKamLabels.first(where: { $0.value == number })?.key { labels.insert(label) }
        }
        if let text = property(xmp, digiKam, "PickLabel"), let pick = Int(text) {
            said = true
            if pick == 1 { rating = -1 }
        }
        return said ? Decision(rating: rating, labels: labels) : nil
    }

    /// Sets `decision` in `xmp`: `xmp:Rating` and `xmp:Label` always; darktable's and digiKam's
    /// labels where their namespace is already in the file, and darktable's whenever there are
    /// several labels (`xmp:Label` holds one).
    static func set(_ decision: Decision, in xmp: XmpPtr, darktable keepsDarktable: Bool, digiKam keepsDigiKam: Bool) {
        _ = xmp_set_property(xmp, xap, "Rating", String(decision.rating), 0)
        if let first = decision.labels.first {
            _ = xmp_set_property(xmp, xap, "Label", first.name, 0)
        } else {
            _ = xmp_delete_property(xmp, xap, "Label")
        }
        if keepsDarktable {
            _ = xmp_delete_property(xmp, darktable, "colorlabels")
            for label in decision.labels {
                _ = xmp_append_array_item(xmp, darktable, "colorlabels", UInt32(XMP_PROP_ARRAY_IS_ORDERED.rawValue), String(label.rawValue), 0)
            }
        }
        if keepsDigiKam {
            _ = xmp_set_property(xmp, digiKam, "ColorLabel", String(decision.labels.first.flatMap { digiKamLabels[$0] } ?? 0), 0)
            let pick = property(xmp, digiKam, "PickLabel").flatMap { Int($0) }
            if decision.isRejected {
                _ = xmp_set_property(xmp, digiKam, "PickLabel", "1", 0)
            } else if pick == 1 {
                _ = xmp_set_property(xmp, digiKam, "PickLabel", "0", 0)
            }
        }
    }

    static func property(_ xmp: XmpPtr, _ schema: String, _ name: String) -> String? {
        let value = xmp_string_new()
        defer { xmp_string_free(value) }
        guard xmp_get_property(xmp, schema, name, value, nil), let text = xmp_string_cstr(value) else { return nil }
        return String(cString: text)
    }

    static func arrayItem(_ xmp: XmpPtr, _ schema: String, _ name: String, _ index: Int32) -> String? {
        let value = xmp_string_new()
        defer { xmp_string_free(value) }
        guard xmp_get_array_item(xmp, schema, name, index, value, nil), let text = xmp_string_cstr(value) else { return nil }
        return String(cString: text)
    }

    /// A sidecar parsed, or why not.
    static func parse(_ path: ImagePath) -> Result<XmpPtr, SidecarProblem> {
        switch readSafely(path) {
        case .success(let bytes):
            guard let xmp = parse(bytes) else { return .failure(SidecarProblem("not XMP Lightbox can read")) }
            return .success(xmp)
        case .failure(let problem): return .failure(problem)
        }
    }

    /// XMP from bytes, or nil: a DTD is refused before the parser sees it (entities expanding
    /// without end, files read from outside).
    static func parse(_ bytes: [UInt8]) -> XmpPtr? {
        guard !bytes.contains("<!DOCTYPE"), !bytes.contains("<!ENTITY") else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { xmp_new($0, buffer.count) } }
        }
    }

    /// A sidecar's bytes: a regular file (not a link, a FIFO or a device), at most `byteLimit`.
    static func readSafely(_ path: ImagePath) -> Result<[UInt8], SidecarProblem> {
        let fd = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            return .failure(SidecarProblem(errno == ELOOP ? "a symbolic link, which Lightbox does not follow" : String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(SidecarProblem("not a regular file")) }
        guard info.st_size <= byteLimit else { return .failure(SidecarProblem("larger than \(byteLimit >> 20) MB")) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        return .success(Array(bytes[..<done]))
    }

    /// Writes `body` to a temporary file beside `target` (made with `mkstemp`), then renames it
    /// over `target`: readers see the old file or the new one, and a link planted at `target`
    /// is replaced, never followed. The reason when it cannot.
    static func replaceAtomically(_ target: ImagePath, with body: [UInt8], permissions: mode_t) -> String? {
        var template =
            target.parent.appending(Array(".".utf8) + Array(target.lastComponent) + Array(".lightbox-XXXXXX".utf8)).bytes.map { CChar(bitPattern: $0) } + [0]
        let fd = mkstemp(&template)
        guard fd >= 0 else { return "cannot write beside the photo: " + String(cString: strerror(errno)) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = 0
        while written < body.count {
            let n = body.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let problem = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                return "cannot write the sidecar: " + problem
            }
            written += n
        }
        fchmod(fd, permissions)
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, target.withCString({ rename(temporary, $0) }) == 0 else {
            let problem = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot write the sidecar: " + problem
        }
        return nil
    }
}

/// Why a sidecar was not read.
struct SidecarProblem: Error {
    var text: String
    init(_ text: String) { self.text = text }
}

extension ArraySlice<UInt8> {
    /// A name for messages.
    var text: String { String(decoding: self, as: UTF8.self) }
}

extension [UInt8] {
    /// Whether `text`'s bytes stand anywhere in these.
    func contains(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard needle.count <= count, let first = needle.first else { return false }
        var i = 0
        while i + needle.count <= count {
            if self[i] == first && self[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
