import LightboxThumbnails

/// The images of a gallery in display order, grouped into sections. It only grows at the end,
/// so an item's index is its identity for the whole session.
public struct Library: Sendable {
    /// A section: a folder and the global index range of its images.
    public struct Section: Hashable, Sendable {
        public var path: ImagePath
        public var items: Range<Int>
    }

    public private(set) var files: [ImageFile] = []
    public private(set) var sections: [Section] = []

    /// A library of `folders`, one section each, in the order given.
    public init(folders: [ImageFolder] = []) {
        files.reserveCapacity(folders.reduce(0) { $0 + $1.files.count })
        for folder in folders { append(folder.files, in: folder.path) }
    }

    /// Adds `newFiles` at the end: to the last section when it is `folder`'s, else in a new section.
    /// - Complexity: O(*k*) in the number of new files, amortized.
    public mutating func append(_ newFiles: [ImageFile], in folder: ImagePath) {
        guard !newFiles.isEmpty else { return }
        let range = files.count..<(files.count + newFiles.count)
        files.append(contentsOf: newFiles)
        if let last = sections.last, last.path == folder {
            sections[sections.count - 1].items = last.items.lowerBound..<range.upperBound
        } else {
            sections.append(Section(path: folder, items: range))
        }
    }

    public var count: Int { files.count }
    public var isEmpty: Bool { files.isEmpty }
    public var sectionCounts: [Int] { sections.map(\.items.count) }
}
