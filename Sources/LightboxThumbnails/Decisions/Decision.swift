/// A colour label, as Lightroom and darktable have them (digiKam and Bridge name the same five).
public enum ColorLabel: Int, Hashable, Sendable, CaseIterable {
    case red, yellow, green, blue, purple

    /// Its name, as `xmp:Label` and the filter write it.
    public var name: String {
        switch self {
        case .red: "Red"
        case .yellow: "Yellow"
        case .green: "Green"
        case .blue: "Blue"
        case .purple: "Purple"
        }
    }

    /// Its colour on screen, as 0xRRGGBB.
    public var rgb: UInt32 {
        switch self {
        case .red: 0xE0_4040
        case .yellow: 0xE0_C030
        case .green: 0x40_B050
        case .blue: 0x40_80E0
        case .purple: 0xA0_60D0
        }
    }

    /// The label named `text` (any case), if any.
    public init?(named text: String) {
        guard let label = Self.allCases.first(where: { $0.name.lowercased() == text.lowercased() }) else { return nil }
        self = label
    }
}

/// What the photographer decided of a photo: a rating of 1 to 5 stars (0: not rated), or
/// rejected, and any of the five colour labels. Kept as XMP keeps it: a rejected photo's
/// `xmp:Rating` is −1.
public struct Decision: Hashable, Sendable {
    /// Two bytes, so a library keeps every item's decision in a dense array.
    private var storedRating: Int8
    /// −1: rejected; 0: not rated; 1 to 5: stars.
    public var rating: Int {
        get { Int(storedRating) }
        set { storedRating = Int8(max(-1, min(5, newValue))) }
    }
    /// The labels, by `ColorLabel.rawValue` bits.
    public var labelBits: UInt8 {
        didSet { labelBits &= 0x1F }
    }

    public init(rating: Int = 0, labels: Set<ColorLabel> = []) {
        storedRating = Int8(max(-1, min(5, rating)))
        labelBits = labels.reduce(0) { $0 | 1 << UInt8($1.rawValue) }
    }

    /// No decision at all.
    public static let none = Decision()

    public var isRejected: Bool { rating < 0 }
    public var stars: Int { max(0, rating) }
    public var isEmpty: Bool { rating == 0 && labelBits == 0 }

    /// The labels, in the table's order.
    public var labels: [ColorLabel] { ColorLabel.allCases.filter { has($0) } }

    public func has(_ label: ColorLabel) -> Bool { labelBits & 1 << UInt8(label.rawValue) != 0 }

    public mutating func toggle(_ label: ColorLabel) { labelBits ^= 1 << UInt8(label.rawValue) }

    /// What differs between this decision and `other`.
    public func fields(differingFrom other: Decision) -> DecisionFields {
        var fields: DecisionFields = []
        if rating != other.rating { fields.insert(.rating) }
        if labelBits != other.labelBits { fields.insert(.labels) }
        return fields
    }

    /// This decision with `other`'s `fields`.
    public func merging(_ other: Decision, fields: DecisionFields) -> Decision {
        var merged = self
        if fields.contains(.rating) { merged.rating = other.rating }
        if fields.contains(.labels) { merged.labelBits = other.labelBits }
        return merged
    }
}

/// The parts of a decision a change touched: a write sets only those, so two Lightboxes (or
/// another program) deciding other parts of one photo at once keep theirs.
public struct DecisionFields: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The rating (and rejecting, a rating of −1).
    public static let rating = DecisionFields(rawValue: 1)
    public static let labels = DecisionFields(rawValue: 2)
    public static let all: DecisionFields = [.rating, .labels]
}

/// A decision to keep beside a photo: in the sidecar of each of its files (a pair's members
/// all get it), for the item `id`.
public struct DecisionWrite: Hashable, Sendable {
    public var id: ItemID
    public var paths: [ImagePath]
    public var decision: Decision
    /// What of it changed: only that is written.
    public var fields: DecisionFields

    public init(id: ItemID, paths: [ImagePath], decision: Decision, fields: DecisionFields = .all) {
        self.id = id
        self.paths = paths
        self.decision = decision
        self.fields = fields
    }
}

/// Where a decision goes when a photo has no sidecar yet (the setting `sidecar`).
public enum SidecarMode: String, Hashable, Sendable, CaseIterable {
    /// `IMG_0001.CR2.xmp`, as darktable and digiKam name them: a RAW and its JPEG stay apart.
    case appended
    /// `IMG_0001.xmp`, as Lightroom, Capture One and Bridge name them.
    case replaced
    /// None is made (an existing sidecar is still updated).
    case off
}

/// What became of a decision written to a sidecar.
public enum SidecarWrite: Hashable, Sendable {
    case written
    /// The sidecar already said so (or there is none to make): nothing was written.
    case unchanged
    /// Not beside the photo (a read-only folder, `sidecar = off`, a sidecar Lightbox cannot
    /// write into: the reason), so kept in Lightbox's state folder until `--write-sidecars`.
    case kept(String)
    case failed(String)
}

/// What a photo's XMP says was decided of it: nil when it says nothing; the reason when an
/// XMP could not be read; whether it came from Lightbox's state folder, not beside the photo.
public struct DecisionRead: Hashable, Sendable {
    public var decision: Decision?
    public var problem: String?
    public var isKept = false
    /// The decoder gave no answer in time (a share busy with other reads, or stalled), so
    /// nothing is known of the sidecar: worth asking again.
    public var isUnanswered = false
    /// The stamp of the files it was read from (`DecisionStamp`; 0: none taken).
    public var stamp: Int64 = 0
    /// The files had the stamp asked about: nothing was read, the copy that has it stands.
    public var isUnchanged = false

    public init(decision: Decision?, problem: String? = nil, isKept: Bool = false) {
        self.decision = decision
        self.problem = problem
        self.isKept = isKept
    }
}

/// Where decisions go: sidecars named as `mode` says, and the folder that keeps them when they
/// cannot go beside the photo (nil: nowhere else, the write fails).
public struct SidecarPolicy: Hashable, Sendable {
    public var mode: SidecarMode
    public var keptRoot: ImagePath?
    /// Whether the photo's own folder is tried first (false: straight to the state folder, as
    /// the end does for writes its folder did not take in time).
    public var besidePhoto = true

    public init(mode: SidecarMode, keptRoot: ImagePath? = nil) {
        self.mode = mode
        self.keptRoot = keptRoot
    }

    /// `$XDG_STATE_HOME/lightbox/sidecars`, or `$HOME/.local/state/lightbox/sidecars`.
    public static func defaultKeptRoot(folder: (String) -> ImagePath? = EnvironmentVariable.folder) -> ImagePath? {
        let state = folder("XDG_STATE_HOME") ?? folder("HOME")?.appending(Array(".local/state".utf8))
        return state?.appending(Array("lightbox/sidecars".utf8))
    }
}

extension ImagePath {
    /// Where this photo's decision is kept in Lightbox's state folder (`root`): its absolute
    /// path under it, with `.xmp` appended (made lexically: a stalled mount is not asked).
    public func keptSidecar(in root: ImagePath) -> ImagePath {
        ImagePath(bytes: root.bytes + FreedesktopCache.absolute(self).bytes + Array(".xmp".utf8))
    }

    /// The photo a sidecar kept under `root` is for, nil for any other path.
    public func photoOfKeptSidecar(in root: ImagePath) -> ImagePath? {
        let suffix = Array(".xmp".utf8)
        guard bytes.count > root.bytes.count + suffix.count, bytes.starts(with: root.bytes), bytes[root.bytes.count] == UInt8(ascii: "/"),
            bytes.suffix(suffix.count).elementsEqual(suffix)
        else { return nil }
        return ImagePath(bytes: Array(bytes[root.bytes.count..<(bytes.count - suffix.count)]))
    }

    /// The two names a photo's sidecar may have: darktable's and digiKam's (`IMG_0001.CR2.xmp`),
    /// and Lightroom's (`IMG_0001.xmp`, the extension replaced).
    public var sidecarNames: (appended: ImagePath, replaced: ImagePath) {
        let name = Array(lastComponent)
        let stem = name.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 > 0 ? Array(name[..<$0]) : nil } ?? name
        let folder = bytes.count > name.count ? Array(bytes[..<(bytes.count - name.count)]) : []
        return (ImagePath(bytes: bytes + Array(".xmp".utf8)), ImagePath(bytes: folder + stem + Array(".xmp".utf8)))
    }
}
