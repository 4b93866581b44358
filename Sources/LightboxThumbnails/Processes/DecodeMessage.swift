/// The small binary messages between the app and its decoder processes. Each is framed as a
/// little-endian 32-bit length and a body; every field read is bounds-checked. An answer's body
/// is its pixels, then its other fields, then their length: the pixels are sent from the
/// thumbnail's own buffer and stay in the buffer they were read into, never copied on the way.
public enum DecodeMessage {
    /// Largest body accepted: a thumbnail of the largest size plus headers.
    static let maxBody = PixelSize.maxSide * PixelSize.maxSide * 4 + 256  // RGB and alpha

    /// What the app asks a worker.
    public enum Request: Hashable, Sendable {
        /// A thumbnail fitted to the box; with `smallerSuffices`, a source of half its size will do (a slow link).
        case decode(ImageFile, PixelSize, smallerSuffices: Bool = false)
        /// The same, with the file's bytes as the app read them ahead (`FileReadStage`).
        case decodeRead(ImageFile, PixelSize, contents: [UInt8])
        case decodeFrames(ImageFile, PixelSize)
        /// A part of the photo at full resolution, fitted to the box.
        case decodeRegion(ImageFile, PixelSize, PhotoRegion)
        /// A video's frames to play from `start` milliseconds on, fitted to the box.
        case decodeClip(ImageFile, PixelSize, start: Int)
        case warm(ImageFile, FreedesktopCache.Size)
        /// What the photo's XMP (or its decision kept under the root) says was decided of it;
        /// only that its files are unchanged when they still have the stamp `unless` (0: any).
        case readDecision(ImageFile, keptIn: ImagePath?, unless: Int64)
        /// Keep a decision's fields in the photo's sidecar, else where the policy says.
        case writeDecision(ImageFile, Decision, DecisionFields, SidecarPolicy)
        /// Say what was counted since the last answer (cache entries written between requests)
        /// and end, writing nothing more.
        case finish
    }

    /// What a worker answers, with the statistics it counted for it.
    public struct Response: Hashable, Sendable {
        public enum Body: Hashable, Sendable {
            case decoded(DecodeResult)
            case warmed(ThumbnailPipeline.WarmOutcome)
            /// The answer to `finish`: only the counts.
            case finished
            case decisionRead(DecisionRead)
            case decisionWritten(SidecarWrite)
        }
        public var body: Body
        public var counts: DecodeStatistics.Counts
    }

    // MARK: Encoding

    public static func encode(_ request: Request) -> [UInt8] {
        var out: [UInt8] = []
        switch request {
        case .decode(let file, let box, let smallerSuffices):
            out.append(smallerSuffices ? 10 : 1); put32(box.width, &out); put32(box.height, &out); putFile(file, &out)
        case .decodeRead(let file, let box, let contents):
            var field: [UInt8] = []
            put32(contents.count, &field)
            out.append(9); put32(box.width, &out); put32(box.height, &out); putFile(file, &out, fields: field + contents)
        case .warm(let file, let size):
            out.append(2); put32(size.rawValue, &out); put32(0, &out); putFile(file, &out)
        case .decodeFrames(let file, let box):
            out.append(3); put32(box.width, &out); put32(box.height, &out); putFile(file, &out)
        case .decodeRegion(let file, let box, let region):
            var fractions: [UInt8] = []
            for value in [region.x, region.y, region.width, region.height] { put32(value, &fractions) }
            out.append(7); put32(box.width, &out); put32(box.height, &out); putFile(file, &out, fields: fractions)
        case .decodeClip(let file, let box, let start):
            var at: [UInt8] = []
            put32(start, &at)
            out.append(8); put32(box.width, &out); put32(box.height, &out); putFile(file, &out, fields: at)
        case .finish:
            out.append(4)
        case .readDecision(let file, let keptRoot, let stamp):
            let bits = UInt64(bitPattern: stamp)
            out.append(5); put32(Int(bits >> 32), &out); put32(Int(bits & 0xFFFF_FFFF), &out); putFile(file, &out, fields: rootField(keptRoot))
        case .writeDecision(let file, let decision, let fields, let policy):
            out.append(6); put32(decision.rating + 1, &out)
            put32(
                Int(decision.labelBits) | SidecarMode.allCases.firstIndex(of: policy.mode)! << 8 | Int(fields.rawValue) << 16
                    | (policy.besidePhoto ? 0 : 1 << 24), &out)
            putFile(file, &out, fields: rootField(policy.keptRoot))
        }
        return framed(out)
    }

    /// The framed answer as parts to send in turn: the frame's length, the pixels (the
    /// thumbnail's own buffer, shared, not copied) and the other fields.
    public static func encodeParts(_ response: Response) -> [[UInt8]] {
        var fields: [UInt8] = []
        var pixels: [UInt8] = []
        for source in DecodeStatistics.Source.allCases { put32(response.counts.bySource[source, default: 0], &fields) }
        put32(response.counts.writes, &fields)
        switch response.body {
        case .decoded(.decoded(let t)) where !t.delays.isEmpty:
            // An animation: the frames one above the other, and their delays.
            fields.append(5); put32(t.width, &fields); put32(t.height, &fields); put32(t.delays.count, &fields)
            for delay in t.delays { put32(delay, &fields) }
            putAlpha(t.alpha, &fields)
            pixels = t.pixels
        case .decoded(.decoded(let t)):
            fields.append(0); put32(t.width, &fields); put32(t.height, &fields); putAlpha(t.alpha, &fields)
            pixels = t.pixels
        case .decoded(.failed(let failure)): fields += [1, failure.kind.rawValue]; fields += Array(failure.message.utf8.prefix(1000))
        case .warmed(.written): fields.append(2)
        case .warmed(.alreadyCached): fields.append(3)
        case .warmed(.failed(let reason)): fields.append(4); fields += Array(reason.utf8.prefix(1000))
        case .warmed(.needsCodecs): fields.append(6)
        case .warmed(.cacheUnwritable(let reason)): fields.append(8); fields += Array(reason.utf8.prefix(1000))
        case .finished: fields.append(7)
        case .decisionRead(let read):
            fields.append(9); fields.append(read.isUnchanged ? 3 : read.decision == nil ? 0 : read.isKept ? 2 : 1)
            put32((read.decision?.rating ?? 0) + 1, &fields)
            fields.append(read.decision?.labelBits ?? 0); put64(read.stamp, &fields); fields += Array((read.problem ?? "").utf8.prefix(1000))
        case .decisionWritten(.written): fields += [10, 0]
        case .decisionWritten(.unchanged): fields += [10, 1]
        case .decisionWritten(.failed(let reason)): fields += [10, 2]; fields += Array(reason.utf8.prefix(1000))
        case .decisionWritten(.kept(let reason)): fields += [10, 3]; fields += Array(reason.utf8.prefix(1000))
        }
        put32(fields.count, &fields)
        var length: [UInt8] = []
        put32(pixels.count + fields.count, &length)
        return [length, pixels, fields]
    }

    /// The framed answer as one array.
    public static func encode(_ response: Response) -> [UInt8] { encodeParts(response).flatMap { $0 } }

    static func framed(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        put32(body.count, &out)
        return out + body
    }

    /// A file's size, time, kind and path (last: the rest of the body), with the fields of the
    /// request's own kind between the kind and the path (a region, a clip's start, a state root).
    static func putFile(_ file: ImageFile, _ out: inout [UInt8], fields: [UInt8] = []) {
        put64(file.byteCount, &out); put64(file.modified, &out)
        out.append(UInt8(ImageFormat.allCases.firstIndex(of: file.format)!))
        out += fields
        out += file.path.bytes
    }

    /// A decision's state folder root as a field: its length first (0: none).
    static func rootField(_ root: ImagePath?) -> [UInt8] {
        var field: [UInt8] = []
        put32(root?.bytes.count ?? 0, &field)
        return field + (root?.bytes ?? [])
    }

    /// A thumbnail's transparency, if it has any.
    struct AlphaField { var plane: [UInt8]? }

    /// Appends a thumbnail's alpha field: 0, or 1 and the plane.
    static func putAlpha(_ alpha: [UInt8]?, _ out: inout [UInt8]) {
        guard let alpha else { out.append(0); return }
        out.append(1)
        out += alpha
    }

    static func put32(_ value: Int, _ out: inout [UInt8]) {
        let v = UInt32(truncatingIfNeeded: value)
        out += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 24)]
    }

    static func put64(_ value: Int64, _ out: inout [UInt8]) {
        put32(Int(truncatingIfNeeded: value), &out); put32(Int(truncatingIfNeeded: value >> 32), &out)
    }

    // MARK: Decoding

    /// Reads fields in order; any read past the end makes the whole message invalid.
    struct Reader {
        let bytes: [UInt8]
        var at = 0
        mutating func u8() -> UInt8? { guard at < bytes.count else { return nil }; at += 1; return bytes[at - 1] }
        mutating func u32() -> Int? {
            guard at + 4 <= bytes.count else { return nil }
            defer { at += 4 }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        /// The next `count` bytes.
        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count >= 0, bytes.count - at >= count else { return nil }
            defer { at += count }
            return Array(bytes[at..<(at + count)])
        }
        mutating func i64() -> Int64? {
            guard let low = u32(), let high = u32() else { return nil }
            return Int64(bitPattern: UInt64(low) | UInt64(high) << 32)
        }
        /// A thumbnail's alpha field: its flag, then `count` bytes if it has a plane; nil when malformed.
        mutating func alpha(count: Int) -> AlphaField? {
            guard let flag = u8() else { return nil }
            if flag == 0 { return AlphaField(plane: nil) }
            guard flag == 1, bytes.count - at >= count else { return nil }
            defer { at += count }
            return AlphaField(plane: Array(bytes[at..<(at + count)]))
        }
        mutating func rest() -> [UInt8] { defer { at = bytes.count }; return Array(bytes[at...]) }
        var isAtEnd: Bool { at == bytes.count }
    }

    /// The request in a message body, or nil when it is malformed.
    public static func request(from body: [UInt8]) -> Request? {
        if body == [4] { return .finish }
        var r = Reader(bytes: body)
        guard let kind = r.u8(), let a = r.u32(), let b = r.u32(), let size = r.i64(), let modified = r.i64(),
            let format = r.u8(), Int(format) < ImageFormat.allCases.count
        else { return nil }
        // Decisions carry the state folder's root before the path.
        var keptRoot: ImagePath?
        if kind == 5 || kind == 6 {
            guard let length = r.u32(), let root = r.bytes(length), !root.contains(0) else { return nil }
            keptRoot = root.isEmpty ? nil : ImagePath(bytes: root)
        }
        // A region carries its four fractions before the path.
        var region: PhotoRegion?
        if kind == 7 {
            guard let x = r.u32(), let y = r.u32(), let w = r.u32(), let h = r.u32(), x < PhotoRegion.one, y < PhotoRegion.one,
                (1...PhotoRegion.one - x).contains(w), (1...PhotoRegion.one - y).contains(h)
            else { return nil }
            region = PhotoRegion(x: x, y: y, width: w, height: h)
        }
        // A clip carries where it starts before the path.
        var start: Int?
        if kind == 8 {
            guard let at = r.u32() else { return nil }
            start = at
        }
        // Bytes read ahead come before the path, their length first.
        var contents: [UInt8]?
        if kind == 9 {
            guard let count = r.u32(), count > 0, let bytes = r.bytes(count) else { return nil }
            contents = bytes
        }
        let path = r.rest()
        guard !path.isEmpty, !path.contains(0) else { return nil }
        let file = ImageFile(path: ImagePath(bytes: path), byteCount: size, modified: modified, format: ImageFormat.allCases[Int(format)])
        switch kind {
        case 1, 10:
            guard (1...PixelSize.maxSide).contains(a), (1...PixelSize.maxSide).contains(b) else { return nil }
            return .decode(file, PixelSize(width: a, height: b), smallerSuffices: kind == 10)
        case 9:
            guard (1...PixelSize.maxSide).contains(a), (1...PixelSize.maxSide).contains(b), let contents else { return nil }
            return .decodeRead(file, PixelSize(width: a, height: b), contents: contents)
        case 2:
            guard let cacheSize = FreedesktopCache.Size(rawValue: a) else { return nil }
            return .warm(file, cacheSize)
        case 3:
            guard (1...PixelSize.maxSide).contains(a), (1...PixelSize.maxSide).contains(b) else { return nil }
            return .decodeFrames(file, PixelSize(width: a, height: b))
        case 7:
            guard (1...PixelSize.maxSide).contains(a), (1...PixelSize.maxSide).contains(b), let region else { return nil }
            return .decodeRegion(file, PixelSize(width: a, height: b), region)
        case 8:
            guard (1...PixelSize.maxSide).contains(a), (1...PixelSize.maxSide).contains(b), let start else { return nil }
            return .decodeClip(file, PixelSize(width: a, height: b), start: start)
        case 5: return .readDecision(file, keptIn: keptRoot, unless: Int64(bitPattern: UInt64(a) << 32 | UInt64(b)))
        case 6:
            let fields = DecisionFields(rawValue: UInt8(b >> 16 & 0xFF))
            guard (0...6).contains(a), b & 0xE0 == 0, b >> 8 & 0xFF < SidecarMode.allCases.count, !fields.isEmpty, DecisionFields.all.isSuperset(of: fields),
                b >> 25 == 0
            else { return nil }
            var decision = Decision(rating: a - 1)
            decision.labelBits = UInt8(b & 0x1F)
            var policy = SidecarPolicy(mode: SidecarMode.allCases[b >> 8 & 0xFF], keptRoot: keptRoot)
            policy.besidePhoto = b >> 24 & 1 == 0
            return .writeDecision(file, decision, fields, policy)
        default: return nil
        }
    }

    /// The response in a message body, or nil when it is malformed. A thumbnail's pixels are
    /// the body's own buffer, its fields cut off the end.
    public static func response(from body: consuming [UInt8]) -> Response? {
        guard body.count >= 4 else { return nil }
        let n = body.count
        let fieldCount = Int(body[n - 4]) | Int(body[n - 3]) << 8 | Int(body[n - 2]) << 16 | Int(body[n - 1]) << 24
        guard fieldCount <= n - 4 else { return nil }
        var r = Reader(bytes: Array(body[(n - 4 - fieldCount)..<(n - 4)]))
        body.removeLast(fieldCount + 4)  // in place: what is left is the pixels
        let pixels = body
        var counts = DecodeStatistics.Counts()
        for source in DecodeStatistics.Source.allCases {
            guard let n = r.u32(), n <= 1 << 20 else { return nil }
            counts.bySource[source] = n
        }
        guard let writes = r.u32(), writes <= 1 << 20, let status = r.u8() else { return nil }
        counts.writes = writes
        switch status {
        case 0:
            guard let w = r.u32(), let h = r.u32(), (1...PixelSize.maxSide).contains(w), (1...PixelSize.maxSide).contains(h),
                let alpha = r.alpha(count: w * h), r.isAtEnd, pixels.count == w * h * 3
            else { return nil }
            var thumbnail = Thumbnail(width: w, height: h, pixels: pixels)
            thumbnail.alpha = alpha.plane
            return Response(body: .decoded(.decoded(thumbnail)), counts: counts)
        case 1:
            guard let kind = r.u8().flatMap(DecodeFailure.Kind.init(rawValue:)), pixels.isEmpty else { return nil }
            return Response(body: .decoded(.failed(DecodeFailure(kind, String(decoding: r.rest(), as: UTF8.self)))), counts: counts)
        case 5:
            // An animation's frames are taller than one picture together, within the body's bound.
            guard let w = r.u32(), let h = r.u32(), let count = r.u32(), (1...PixelSize.maxSide).contains(w), h >= count, count >= 1,
                count <= 100_000, w * h * 3 <= maxBody, h % count == 0
            else { return nil }
            var delays: [Int] = []
            for _ in 0..<count {
                guard let delay = r.u32() else { return nil }
                delays.append(delay)
            }
            guard let alpha = r.alpha(count: w * h), r.isAtEnd, pixels.count == w * h * 3 else { return nil }
            var thumbnail = Thumbnail(width: w, height: h, pixels: pixels)
            thumbnail.alpha = alpha.plane
            thumbnail.delays = delays
            return Response(body: .decoded(.decoded(thumbnail)), counts: counts)
        case 2 where r.isAtEnd && pixels.isEmpty: return Response(body: .warmed(.written), counts: counts)
        case 3 where r.isAtEnd && pixels.isEmpty: return Response(body: .warmed(.alreadyCached), counts: counts)
        case 6 where r.isAtEnd && pixels.isEmpty: return Response(body: .warmed(.needsCodecs), counts: counts)
        case 7 where r.isAtEnd && pixels.isEmpty: return Response(body: .finished, counts: counts)
        case 4 where pixels.isEmpty: return Response(body: .warmed(.failed(String(decoding: r.rest(), as: UTF8.self))), counts: counts)
        case 8 where pixels.isEmpty: return Response(body: .warmed(.cacheUnwritable(String(decoding: r.rest(), as: UTF8.self))), counts: counts)
        case 9 where pixels.isEmpty:
            guard let found = r.u8(), found <= 3, let rating = r.u32(), (0...6).contains(rating), let labels = r.u8(), labels & 0xE0 == 0,
                let stamp = r.i64()
            else { return nil }
            var decision = Decision(rating: rating - 1)
            decision.labelBits = labels
            let problem = String(decoding: r.rest(), as: UTF8.self)
            var read = DecisionRead(decision: found == 1 || found == 2 ? decision : nil, problem: problem.isEmpty ? nil : problem, isKept: found == 2)
            read.stamp = stamp
            read.isUnchanged = found == 3
            return Response(body: .decisionRead(read), counts: counts)
        case 10 where pixels.isEmpty:
            switch r.u8() {
            case 0 where r.isAtEnd: return Response(body: .decisionWritten(.written), counts: counts)
            case 1 where r.isAtEnd: return Response(body: .decisionWritten(.unchanged), counts: counts)
            case 2: return Response(body: .decisionWritten(.failed(String(decoding: r.rest(), as: UTF8.self))), counts: counts)
            case 3: return Response(body: .decisionWritten(.kept(String(decoding: r.rest(), as: UTF8.self))), counts: counts)
            default: return nil
            }
        default: return nil
        }
    }
}
