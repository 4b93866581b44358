import LightboxThumbnails

/// The images of a gallery in display order, grouped into sections.
public struct Library: Sendable {
    /// A section: a folder and the global index range of its images.
    public struct Section: Hashable, Sendable {
        public var path: ImagePath
        public var items: Range<Int>
    }

    public private(set) var files: [ImageFile] = []
    public private(set) var sections: [Section] = []

    /// A library of `folders`, one section each, in the order given.
    public init(folders: [ImageFolder]) {
        files.reserveCapacity(folders.reduce(0) { $0 + $1.files.count })
        for folder in folders where !folder.files.isEmpty {
            sections.append(Section(path: folder.path, items: files.count..<(files.count + folder.files.count)))
            files.append(contentsOf: folder.files)
        }
    }

    public var count: Int { files.count }
    public var isEmpty: Bool { files.isEmpty }
    public var sectionCounts: [Int] { sections.map(\.items.count) }
}
