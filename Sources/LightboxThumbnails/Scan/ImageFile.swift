/// One image found by the scanner (with the files shown as one item with it).
public struct ImageFile: Hashable, Sendable {
    public var path: ImagePath
    public var byteCount: Int64
    /// Modification time in nanoseconds since the epoch.
    public var modified: Int64
    public var format: ImageFormat
    /// Files written with this one and shown as one item with it (a RAW, a Live Photo's video); see `Pairing`.
    public var companions: [ImageFile] = []

    public init(path: ImagePath, byteCount: Int64, modified: Int64, format: ImageFormat, companions: [ImageFile] = []) {
        self.path = path
        self.byteCount = byteCount
        self.modified = modified
        self.format = format
        self.companions = companions
    }

    /// A file as its folder's listing names it, not read yet: its kind guessed from its name,
    /// its size and time unknown (-1) until the scan reads it.
    public init(listed path: ImagePath, format: ImageFormat) {
        self.init(path: path, byteCount: -1, modified: -1, format: format)
    }

    /// Whether the file is only named by its folder's listing, not read yet (`init(listed:format:)`).
    public var isListed: Bool { byteCount < 0 }
}

/// A folder's images, a section of the gallery.
public struct ImageFolder: Hashable, Sendable {
    public var path: ImagePath
    public var files: [ImageFile]

    public init(path: ImagePath, files: [ImageFile]) {
        self.path = path
        self.files = files
    }
}
