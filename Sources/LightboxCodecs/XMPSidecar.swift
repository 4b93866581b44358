import CExempi
import CSystem
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

    /// A photo's decision: the one Lightbox keeps for it in its state folder (under `keptRoot`:
    /// written there when it could not go beside the photo), else its sidecar's, else its
    /// embedded XMP's; nil with no XMP that says one, and the reason when an XMP could not be read.
    /// With `found`, which of those files are there is taken from it, not looked at again.
    public static func read(photo: ImagePath, keptIn keptRoot: ImagePath? = nil, found: DecisionStamp.Found? = nil) -> DecisionRead {
        guard started else { return DecisionRead(decision: nil, problem: "Exempi did not start") }
        var problem: String?
        if let keptRoot {
            let kept = photo.keptSidecar(in: keptRoot)
            if found?.hasKept ?? exists(kept) {
                switch parse(kept) {
                case .success(let xmp):
                    defer { xmp_free(xmp) }
                    return DecisionRead(decision: decision(in: xmp), isKept: true)
                case .failure(let reason): problem = "its decision kept in Lightbox's state folder: \(reason.text)"
                }
            }
        }
        if let sidecar = found == nil ? existing(of: photo) : found?.sidecar {
            switch parse(sidecar) {
            case .success(let xmp):
                defer { xmp_free(xmp) }
                return DecisionRead(decision: decision(in: xmp), problem: problem)
            case .failure(let reason): return DecisionRead(decision: nil, problem: problem ?? "sidecar \(sidecar.lastComponent.text): \(reason.text)")
            }
        }
        if let header = jpegHeader(of: photo) {
            guard let packet = header.xmpPacket else { return DecisionRead(decision: nil, problem: problem) }
            guard let xmp = parse(Array(header.bytes[packet])) else { return DecisionRead(decision: nil, problem: problem) }
            defer { xmp_free(xmp) }
            return DecisionRead(decision: decision(in: xmp), problem: problem)
        }
        guard let file = photo.withCString({ xmp_files_open_new($0, XmpOpenFileOptions(XMP_OPEN_READ.rawValue | XMP_OPEN_ONLYXMP.rawValue)) })
        else { return DecisionRead(decision: nil, problem: problem) }
        defer { xmp_files_free(file) }
        guard let xmp = xmp_files_get_new_xmp(file) else { return DecisionRead(decision: nil, problem: problem) }
        defer { xmp_free(xmp) }
        return DecisionRead(decision: decision(in: xmp), problem: problem)
    }

    /// What of a photo is read first for its JPEG headers (most cameras' fit), and the most.
    static let headerReadFirst = 64 << 10
    public static let headerReadLimit = 256 << 10

    /// A JPEG's headers read in a call or two (`headerReadFirst`, then up to `headerReadLimit`),
    /// when the photo is a JPEG whose headers all fit (Exempi's own reading takes a few bytes at a time, each a round trip
    /// on a share without a cache); nil otherwise, for Exempi to read.
    static func jpegHeader(of photo: ImagePath) -> (bytes: [UInt8], xmpPacket: Range<Int>?)? {
        let fd = photo.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: headerReadLimit)
        var done = 0, wanted = headerReadFirst
        while true {
            while done < wanted {
                let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, wanted - done) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
            let header = JPEGHeader(parsing: Array(bytes[..<done]))
            guard let header else { return nil }
            if header.headersAreWhole { return (Array(bytes[..<done]), header.xmpPacket) }
            // Headers longer than the first read: the rest, once (a file that ended says no more).
            guard done == wanted, wanted < headerReadLimit else { return nil }
            wanted = headerReadLimit
        }
    }

    /// Writes `decision`'s `fields` beside the photo: into its sidecar that exists (re-read now,
    /// every other property kept, the decision's other fields too: another Lightbox may have
    /// set them), else a new one named as the policy's mode says; atomically, never through a
    /// link, and not at all when it already says so. Where that cannot be (a read-only folder,
    /// `off`, a sidecar it cannot write into), the decision is kept under the policy's `keptRoot`
    /// instead (`.kept`, with the reason); once beside the photo, a copy kept there is removed.
    public static func write(_ decision: Decision, fields: DecisionFields = .all, photo: ImagePath, policy: SidecarPolicy) -> SidecarWrite {
        guard started else { return .failed("Exempi did not start") }
        let change = Change(decision: decision, fields: fields)
        if !policy.besidePhoto, let root = policy.keptRoot {
            return keep(change, at: photo.keptSidecar(in: root), because: "its folder did not answer in time")
        }
        let beside = writeBeside(change, photo: photo, mode: policy.mode)
        guard let root = policy.keptRoot else {
            switch beside {
            case .written: return .written
            case .alreadySaid, .nothingToSay, .notMade: return .unchanged
            case .failed(let reason): return .failed(reason)
            }
        }
        let kept = photo.keptSidecar(in: root)
        switch beside {
        case .written, .alreadySaid, .nothingToSay:
            // Beside the photo now: what was kept for it is no longer its decision.
            let hadKept = exists(kept)
            if hadKept { kept.withCString { _ = unlink($0) } }
            return beside == .written || hadKept ? .written : .unchanged
        case .notMade: return keep(change, at: kept, because: "sidecar = off")
        case .failed(let reason): return keep(change, at: kept, because: reason)
        }
    }

    /// Writes beside the photo only, as `policy` names new sidecars (nothing kept elsewhere).
    public static func write(_ decision: Decision, photo: ImagePath, mode: SidecarMode) -> SidecarWrite {
        write(decision, photo: photo, policy: SidecarPolicy(mode: mode))
    }

    /// A decision and what of it to write.
    struct Change {
        var decision: Decision
        var fields: DecisionFields
    }

    /// What became of a write beside the photo.
    enum BesideWrite: Equatable {
        case written, alreadySaid
        /// No sidecar, and nothing decided to make one for.
        case nothingToSay
        /// No sidecar, and `sidecar = off` makes none.
        case notMade
        case failed(String)
    }

    static func writeBeside(_ change: Change, photo: ImagePath, mode: SidecarMode) -> BesideWrite {
        guard started else { return .failed("Exempi did not start") }
        // A sidecar goes beside a photo that is there: one whose share is not mounted would get
        // it in the empty mount point, hidden once the share is mounted over it.
        var info = stat()
        guard photo.withCString({ lstat($0, &info) }) == 0 else { return .failed("the photo is not there: \(String(cString: strerror(errno)))") }
        for _ in 0..<attempts {
            if let sidecar = existing(of: photo) {
                switch update(sidecar, with: change) {
                case .written: return .written
                case .alreadySaid: return .alreadySaid
                case .failed(let reason): return .failed("sidecar \(sidecar.lastComponent.text): \(reason)")
                }
            }
            guard !change.decision.isEmpty else { return .nothingToSay }
            guard mode != .off else { return .notMade }
            let target = mode == .appended ? photo.sidecarNames.appended : photo.sidecarNames.replaced
            switch make(target, with: change) {
            case .written: return .written
            case .alreadySaid: return .alreadySaid
            case .failed(let reason): return .failed(reason)
            case nil: continue  // another program made it meanwhile: written into, as it is now
            }
        }
        return .failed("another program kept changing its sidecar; not written")
    }

    /// Keeps `decision` at `kept` in the state folder (its folders made), as a sidecar of its own.
    static func keep(_ change: Change, at kept: ImagePath, because reason: String) -> SidecarWrite {
        let notKept = reason + "; nor kept in Lightbox's state folder: "
        if let problem = makeFolders(kept.parent) { return .failed(notKept + problem) }
        for _ in 0..<attempts {
            switch exists(kept) ? update(kept, with: change) : make(kept, with: change) {
            case .written, .alreadySaid: return .kept(reason)
            case .failed(let problem): return .failed(notKept + problem)
            case nil: continue
            }
        }
        return .failed(notKept + "it kept changing")
    }

    /// What became of writing one sidecar file.
    enum FileWrite {
        case written, alreadySaid
        case failed(String)
    }

    /// What tells one state of a file from another: a rename or a write changes it.
    struct FileIdentity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
        var mode: mode_t

        init?(_ path: ImagePath) {
            var info = stat()
            guard path.withCString({ lstat($0, &info) }) == 0 else { return nil }
            (device, inode, size) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size))
            (seconds, nanoseconds, mode) = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_mode)
        }
    }

    /// Writes `decision` into the sidecar at `path`, re-read now, every other property kept.
    /// Another program (or another Lightbox) may write the sidecar meanwhile: when it changed
    /// between the read and the rename, it is read again and the decision written into what it
    /// holds now, so what the other wrote is kept; so many times at most.
    static let attempts = 8

    static func update(_ path: ImagePath, with change: Change) -> FileWrite {
        for _ in 0..<attempts {
            let before = FileIdentity(path)
            let bytes: [UInt8]
            switch readSafely(path) {
            case .success(let read): bytes = read
            case .failure(let problem): return .failed(problem.text + "; not written")
            }
            guard let xmp = parse(bytes) else { return .failed("not XMP Lightbox can read; not written") }
            defer { xmp_free(xmp) }
            let permissions = before.map { $0.mode & 0o7777 } ?? 0o644
            // Nil: it changed since it was read, and nothing was written.
            guard
                let outcome = write(
                    change, into: xmp, at: path, permissions: permissions, darktableInFile: bytes.contains(darktable),
                    digiKamInFile: bytes.contains(digiKam), unlessChangedFrom: before)
            else { continue }
            return outcome
        }
        return .failed("another program kept changing it; not written")
    }

    /// Makes a new sidecar at `path` saying `decision`; nil when one appeared there meanwhile
    /// (another program made it: nothing written).
    static func make(_ path: ImagePath, with change: Change) -> FileWrite? {
        guard let xmp = xmp_new_empty() else { return .failed("Exempi could not make a packet") }
        defer { xmp_free(xmp) }
        return write(change, into: xmp, at: path, permissions: 0o644, darktableInFile: false, digiKamInFile: false, unlessChangedFrom: nil)
    }

    /// Sets the change in `xmp` and replaces `path` with it, unless it says so already; nil when
    /// `path` is no longer the file `before` was, or (`before` nil) a file appeared there: nothing
    /// written. darktable's and digiKam's labels are kept in step where their namespace is in the
    /// file, and darktable's whenever there are several labels (`xmp:Label` holds one).
    static func write(
        _ change: Change, into xmp: XmpPtr, at path: ImagePath, permissions: mode_t, darktableInFile: Bool, digiKamInFile: Bool,
        unlessChangedFrom before: FileIdentity?
    ) -> FileWrite? {
        // What the file says now, with the change's fields: a packet saying nothing takes all.
        let current = self.decision(in: xmp)
        let fields = current == nil ? DecisionFields.all : change.fields
        let decision = (current ?? .none).merging(change.decision, fields: fields)
        if current == decision { return .alreadySaid }
        set(decision, fields: fields, in: xmp, darktable: darktableInFile || decision.labels.count > 1, digiKam: digiKamInFile)
        // A property another program made of another shape (an array where a value goes) is not
        // overwritten: the sidecar is left as it was rather than saying something else.
        guard let serialized = serialized(xmp, saying: decision) else {
            return .failed("Lightbox cannot write its decision into what it holds; not written")
        }
        let body = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8) + serialized
        switch replaceAtomically(path, with: body, permissions: permissions, unlessChangedFrom: before) {
        case .done: return .written
        case .changedMeanwhile: return nil
        case .failed(let problem): return .failed(problem)
        }
    }

    /// Whether something (a link too) is at `path`.
    static func exists(_ path: ImagePath) -> Bool {
        var info = stat()
        return path.withCString { lstat($0, &info) } == 0
    }

    /// Makes `folder` and the folders above it that are missing, for the owner only.
    static func makeFolders(_ folder: ImagePath) -> String? {
        var info = stat()
        if folder.withCString({ stat($0, &info) }) == 0 { return info.st_mode & S_IFMT == S_IFDIR ? nil : "\(folder) is not a folder" }
        if folder.bytes.count > 1, let problem = makeFolders(folder.parent) { return problem }
        guard folder.withCString({ mkdir($0, 0o700) }) == 0 || errno == EEXIST else { return String(cString: strerror(errno)) }
        return nil
    }

    /// What a sidecar holding `bytes` says, and its bytes once `decision` is written into it (nil
    /// when they are not XMP Lightbox reads): a read and a write without the files, for the fuzzer.
    public static func roundTrip(_ bytes: [UInt8], writing decision: Decision) -> (read: Decision?, written: [UInt8]?) {
        guard started, let xmp = parse(bytes) else { return (nil, nil) }
        defer { xmp_free(xmp) }
        let read = self.decision(in: xmp)
        set(decision, fields: .all, in: xmp, darktable: bytes.contains(darktable) || decision.labels.count > 1, digiKam: bytes.contains(digiKam))
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
        // Any number another program wrote, however large (or NaN), is held to −1…5.
        if let text = property(xmp, xap, "Rating"), let value = Double(text), !value.isNaN {
            rating = Int(max(-1, min(5, value.rounded())))
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

    /// Sets `decision`'s `fields` in `xmp`: `xmp:Rating` for the rating, `xmp:Label` for the
    /// labels; darktable's labels and digiKam's labels and pick too when asked.
    static func set(_ decision: Decision, fields: DecisionFields, in xmp: XmpPtr, darktable keepsDarktable: Bool, digiKam keepsDigiKam: Bool) {
        if fields.contains(.rating) { _ = xmp_set_property(xmp, xap, "Rating", String(decision.rating), 0) }
        guard fields.contains(.labels) else {
            if keepsDigiKam { setDigiKamPick(decision, in: xmp) }
            return
        }
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
            if fields.contains(.rating) { setDigiKamPick(decision, in: xmp) }
        }
    }

    /// digiKam's pick label: 1 (rejected) for a rejected photo; a reject taken back is 0.
    static func setDigiKamPick(_ decision: Decision, in xmp: XmpPtr) {
        let pick = property(xmp, digiKam, "PickLabel").flatMap { Int($0) }
        if decision.isRejected {
            _ = xmp_set_property(xmp, digiKam, "PickLabel", "1", 0)
        } else if pick == 1 {
            _ = xmp_set_property(xmp, digiKam, "PickLabel", "0", 0)
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

    /// What became of replacing a file.
    enum Replacement {
        case done, changedMeanwhile
        case failed(String)
    }

    /// Writes `body` to a temporary file beside `target` (made with `mkstemp`), then renames it
    /// over `target`: readers see the old file or the new one, and a link planted at `target`
    /// is replaced, never followed. When `target` is no longer the file `before` was, or
    /// (`before` nil) one appeared there (another program wrote it meanwhile), nothing is replaced.
    static func replaceAtomically(_ target: ImagePath, with body: [UInt8], permissions: mode_t, unlessChangedFrom before: FileIdentity?)
        -> Replacement
    {
        var template =
            target.parent.appending(Array(".".utf8) + Array(target.lastComponent) + Array(".lightbox-XXXXXX".utf8)).bytes.map { CChar(bitPattern: $0) } + [0]
        let fd = mkstemp(&template)
        guard fd >= 0 else { return .failed("cannot write beside the photo: " + String(cString: strerror(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = 0
        while written < body.count {
            let n = body.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let problem = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                return .failed("cannot write the sidecar: " + problem)
            }
            written += n
        }
        fchmod(fd, permissions)
        let synced = fsync(fd) == 0
        close(fd)
        guard synced else {
            unlink(temporary)
            return .failed("cannot write the sidecar: " + String(cString: strerror(errno)))
        }
        if let before {
            // Swapped in at once, then what was there looked at: when another program wrote the
            // sidecar since it was read, its file is swapped back and nothing is lost.
            if target.withCString({ lb_rename_exchange(temporary, $0) }) == 0 {
                let displaced = FileIdentity(ImagePath(temporary))
                if displaced != before { _ = target.withCString { lb_rename_exchange(temporary, $0) } }
                unlink(temporary)
                return displaced == before ? .done : .changedMeanwhile
            }
            guard errno == EINVAL || errno == ENOSYS else {
                let problem = String(cString: strerror(errno))
                unlink(temporary)
                return .failed("cannot write the sidecar: " + problem)
            }
        }
        // A file system without the swap: checked just before the rename.
        guard FileIdentity(target) == before else {
            unlink(temporary)
            return .changedMeanwhile
        }
        var renamed = target.withCString { before == nil ? lb_rename_noreplace(temporary, $0) : rename(temporary, $0) }
        if renamed != 0, before == nil, errno == EINVAL || errno == ENOSYS {
            renamed = target.withCString { rename(temporary, $0) }  // a file system without the flag: checked just before
        }
        guard renamed == 0 else {
            let appeared = before == nil && errno == EEXIST
            let problem = String(cString: strerror(errno))
            unlink(temporary)
            return appeared ? .changedMeanwhile : .failed("cannot write the sidecar: " + problem)
        }
        return .done
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
