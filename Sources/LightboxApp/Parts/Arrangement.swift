/// How the library is grouped into sections and ordered within them.
public struct Arrangement: Hashable, Sendable {
    /// What a section holds. Adding one is a case with its description here, its key and title
    /// in `Library.arrange()`; the option, the settings file and the README follow from `allCases`.
    public enum Sections: String, Hashable, Sendable, CaseIterable {
        case folder, date, month, year, rating, none

        /// What one section holds, as the help and the README say it.
        public var description: String {
            switch self {
            case .folder: "a folder's images"
            case .date: "a day's (taken, else modified)"
            case .month: "a month's"
            case .year: "a year's"
            case .rating: "a rating's, five stars first, then unrated, then rejected"
            case .none: "one section of everything"
            }
        }
    }

    /// The order of items within a section (and of date sections among themselves). Adding one
    /// is a case with its description here and its key in `Library.sortKey`; the option, `s`, the
    /// settings file and the README follow from `allCases`.
    public enum Sort: String, Hashable, Sendable, CaseIterable {
        case name, date, mtime, size, kind, rating

        /// What it orders by, as the help and the README say it.
        public var description: String {
            switch self {
            case .name: "by path, naturally (folders as scanned, IMG_2 before IMG_10)"
            case .date: "by date taken (EXIF), else modified"
            case .mtime: "by the file's modification time"
            case .size: "by the file's size"
            case .kind: "by kind of file (its format's name: RAWs, JPEGs and videos together), then by path"
            case .rating: "by rating, the highest first (rejected last), then by path"
            }
        }
    }

    /// Which photos are one stack, shown as one tile. Adding one is a case with its description
    /// here and its rule in `Library.isBurst`; the option and the settings file follow.
    public enum Stacks: String, Hashable, Sendable, CaseIterable {
        case burst, off

        public var description: String {
            switch self {
            case .burst:
                "a camera's burst: frames next to each other of one camera a second apart or less (EXIF time with its sub-seconds), or named as one burst (Android's …BURST… names, Apple's BurstUUID)"
            case .off: "every photo its own tile"
            }
        }
    }

    public var sections: Sections
    public var sort: Sort
    public var isReversed: Bool
    public var stacks: Stacks

    public init(sections: Sections = .folder, sort: Sort = .name, isReversed: Bool = false, stacks: Stacks = .off) {
        self.sections = sections
        self.sort = sort
        self.isReversed = isReversed
        self.stacks = stacks
    }

    /// Whether dates taken decide the order or the sections (and so must all be read).
    public var datesDecideOrder: Bool { sort == .date || [.date, .month, .year].contains(sections) }

    /// Whether the scan's order is the display order, so new items only ever append.
    public var keepsScanOrder: Bool { sections == .folder && sort == .name && !isReversed }
}
