/// How the library is grouped into sections and ordered within them.
public struct Arrangement: Hashable, Sendable {
    /// What a section holds.
    public enum Sections: String, Hashable, Sendable, CaseIterable {
        case folder, date, month, year, none
    }

    /// The order of items within a section (and of date sections among themselves).
    public enum Sort: String, Hashable, Sendable, CaseIterable {
        /// By path in natural order: folders as scanned, names as `IMG_2` before `IMG_10`.
        case name
        /// By date taken (EXIF `DateTimeOriginal`), or the file's modification time without one.
        case date
        case mtime
        case size
    }

    public var sections: Sections
    public var sort: Sort
    public var isReversed: Bool

    public init(sections: Sections = .folder, sort: Sort = .name, isReversed: Bool = false) {
        self.sections = sections
        self.sort = sort
        self.isReversed = isReversed
    }

    /// Whether dates taken decide the order or the sections (and so must all be read).
    public var datesDecideOrder: Bool { sort == .date || [.date, .month, .year].contains(sections) }

    /// Whether the scan's order is the display order, so new items only ever append.
    public var keepsScanOrder: Bool { sections == .folder && sort == .name && !isReversed }
}
