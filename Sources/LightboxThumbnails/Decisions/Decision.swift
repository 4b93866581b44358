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
}

/// A decision to keep beside a photo: in the sidecar of each of its files (a pair's members
/// all get it).
public struct DecisionWrite: Hashable, Sendable {
    public var paths: [ImagePath]
    public var decision: Decision

    public init(paths: [ImagePath], decision: Decision) {
        self.paths = paths
        self.decision = decision
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
    case failed(String)
}

extension ImagePath {
    /// The two names a photo's sidecar may have: darktable's and digiKam's (`IMG_0001.CR2.xmp`),
    /// and Lightroom's (`IMG_0001.xmp`, the extension replaced).
    public var sidecarNames: (appended: ImagePath, replaced: ImagePath) {
        let name = Array(lastComponent)
        let stem = name.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 > 0 ? Array(name[..<$0]) : nil } ?? name
        let folder = bytes.count > name.count ? Array(bytes[..<(bytes.count - name.count)]) : []
        return (ImagePath(bytes: bytes + Array(".xmp".utf8)), ImagePath(bytes: folder + stem + Array(".xmp".utf8)))
    }
}
