import LightboxThumbnails

/// The state's part for reading the library ahead while the user looks: which items' thumbnails
/// go to the disk cache next (nearest to the cursor first, outward both ways), which are done,
/// and how far it may reach (`--read-ahead`). Its own reducer hands out batches and takes back
/// what was done; the run loop asks only when no key came for a moment and the screen is done.
public struct ReadAhead: Sendable {
    /// How far read-ahead reaches.
    public enum Extent: Hashable, Sendable {
        /// The whole library.
        case all
        /// This many screens either side of the cursor.
        case screens(Int)
        case off
    }

    public let extent: Extent
    /// Items handed out and not yet done, and those done.
    var asked: Set<ItemID> = []
    var done: Set<ItemID> = []
    /// Where the walk outward started, and how far out it has handed items.
    var center: ItemID?
    var reach = 0
    /// The library's size when the walk last found nothing left to give.
    var exhaustedAt: Int?
    /// Thumbnails written to the disk cache, found there already, or failed.
    public private(set) var written = 0, alreadyCached = 0, failed = 0
    /// Why the disk cache takes nothing (full, read-only), once it said so: the read-ahead has stopped.
    public private(set) var cacheProblem: String?

    public init(extent: Extent = .all) {
        self.extent = extent
    }

    /// Items done (written, found cached, or failed).
    public var doneCount: Int { done.count }

    /// Up to `count` items to read next, nearest to `cursor` first, within the extent (`screen`
    /// items a screen); a new walk begins where the cursor now is when it moved.
    /// - Complexity: O(*k*) in the items looked at, done ones passed over included.
    mutating func next(_ count: Int, library: Library, cursor: Int, screen: Int) -> [Int] {
        guard !library.isEmpty, count > 0, cacheProblem == nil else { return [] }
        let radius: Int
        switch extent {
        case .off: return []
        case .all: radius = library.count
        case .screens(let screens): radius = max(1, screens * max(1, screen))
        }
        let here = library.id(at: cursor)
        if center != here || exhaustedAt.map({ $0 != library.count }) == true {
            center = here
            reach = 0
            exhaustedAt = nil
        }
        var picked: [Int] = []
        // The cursor's own item, then one step further out each way in turn.
        while picked.count < count && reach <= radius {
            for position in reach == 0 ? [cursor] : [cursor + reach, cursor - reach] where position >= 0 && position < library.count {
                if picked.count == count { break }
                let id = library.id(at: position)
                guard !done.contains(id), !asked.contains(id) else { continue }
                asked.insert(id)
                picked.append(position)
            }
            if picked.count < count { reach += 1 }
        }
        if picked.isEmpty && asked.isEmpty { exhaustedAt = library.count }
        return picked
    }

    /// Whether everything within reach of where the cursor was is done (until the cursor moves
    /// or the library grows).
    public var isExhausted: Bool { exhaustedAt != nil || extent == .off || cacheProblem != nil }

    /// Takes back what was done with items handed out.
    mutating func finished(_ outcomes: [(ItemID, ThumbnailPipeline.WarmOutcome)]) {
        for (id, outcome) in outcomes {
            asked.remove(id)
            guard done.insert(id).inserted else { continue }
            switch outcome {
            case .written: written += 1
            case .alreadyCached: alreadyCached += 1
            case .failed, .needsCodecs: failed += 1
            case .cacheUnwritable(let reason):
                failed += 1
                // Every file after would be decoded for nothing: the read-ahead ends here.
                if cacheProblem == nil { cacheProblem = reason }
            }
        }
    }

    /// Items handed out that will not be done (the worker was stopped): they may be asked again.
    mutating func abandoned(_ ids: [ItemID]) {
        asked.subtract(ids)
        reach = 0
    }

    /// How many items the extent covers around `cursor`.
    func total(libraryCount: Int, screen: Int) -> Int {
        switch extent {
        case .off: return 0
        case .all: return libraryCount
        case .screens(let screens): return min(libraryCount, (2 * screens * max(1, screen)) + 1)  // fewer near the ends
        }
    }
}

extension ReadAhead {
    /// What is wrong with a read-ahead setting, said the same on the command line and in the settings file.
    public struct SettingProblem: Error, CustomStringConvertible {
        public var description: String
    }

    /// A `read-ahead` value (`--read-ahead`, `read-ahead =`).
    public static func extent(setting text: String) throws(SettingProblem) -> Extent {
        guard let extent = Extent(parsing: text) else { throw SettingProblem(description: "'\(text)' is not all, off or a number of screens") }
        return extent
    }

    /// A `read-ahead-workers` or `reads` value: a number from 1 to 64, or nil for `auto`.
    public static func count(setting text: String) throws(SettingProblem) -> Int? {
        if text == "auto" { return nil }
        guard let count = Int(text), (1...64).contains(count) else {
            throw SettingProblem(description: "'\(text)' is neither auto nor a number from 1 to 64")
        }
        return count
    }
}

extension ReadAhead.Extent {
    /// `all`, `off`, or a number of screens either side of the cursor.
    public init?(parsing text: String) {
        switch text {
        case "all": self = .all
        case "off": self = .off
        default:
            guard let screens = Int(text), screens >= 1, screens <= 1_000_000 else { return nil }
            self = .screens(screens)
        }
    }
}
