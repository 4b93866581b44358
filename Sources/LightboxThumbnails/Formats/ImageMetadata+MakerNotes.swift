/// What cameras' maker notes say that Lightbox uses, as exiftool documents them: where the
/// camera focused (Sony's `FocusLocation`, 0x2027; Fujifilm's `FocusPixel`, 0x1031; Canon's and
/// Nikon's AF areas, `AFInfo2`, whose layout changes with the camera, are not read) and which
/// burst a frame is of (Apple's `BurstUUID`, 0x000b).
extension ImageMetadata {
    /// A point of the stored (not yet oriented) picture, in the pixels of a frame of `width` x
    /// `height`: the camera's own frame when the note says it, else the photo's pixels
    /// (`PixelXDimension`, `PixelYDimension`; nil when neither is known).
    public struct FocusPoint: Hashable, Sendable {
        public var x: Int
        public var y: Int
        public var width: Int?
        public var height: Int?
        /// Which tag it came from, as the status line names it.
        public var source: String

        public init(x: Int, y: Int, width: Int?, height: Int?, source: String) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.source = source
        }

        /// The point as fractions of the stored picture, when its frame is known and it lies inside.
        public var fractions: (x: Double, y: Double)? {
            guard let width, let height, width > 0, height > 0, (0..<width).contains(x), (0..<height).contains(y) else { return nil }
            return ((Double(x) + 0.5) / Double(width), (Double(y) + 0.5) / Double(height))
        }
    }

    /// Reads the maker note `note` (an Exif entry 0x927C of `tiff`): Sony's and Fujifilm's focus
    /// point, Apple's burst; `frame` is the photo's pixel size from its Exif, when given.
    mutating func readMakerNote(_ tiff: TIFFStructure, note: TIFFStructure.Entry, frame: (width: Int, height: Int)?) {
        guard note.count > 16, note.count < 1 << 20, let start = tiff.u32(note.field), start >= 0, tiff.base + start + note.count <= tiff.end else {
            return
        }
        let at = tiff.base + start
        if ImageFormat.starts(Array(tiff.data[at..<(at + 14)]), Array("Apple iOS\0\0\u{1}MM".utf8)) {
            // Big-endian, a directory after the 14-byte name, offsets from the note's start.
            guard let notes = TIFFStructure(tiff.data, base: at, end: at + note.count, isLittleEndian: false),
                let (entries, _) = notes.directory(at: 14), let entry = entries.first(where: { $0.tag == 0x000B }),
                let id = notes.text(entry, limit: 64)
            else { return }
            burstID = id
            return
        }
        focusPoint = Self.focusPoint(tiff, at: at, count: note.count, frame: frame)
    }

    /// Sony's or Fujifilm's focus point in the maker note of `count` bytes at `at`.
    static func focusPoint(_ tiff: TIFFStructure, at: Int, count: Int, frame: (width: Int, height: Int)?) -> FocusPoint? {
        let start = at - tiff.base
        let header = Array(tiff.data[at..<(at + 12)])
        if ImageFormat.starts(header, Array("FUJIFILM".utf8)) {
            // Little-endian whatever the file; offsets from the note's start, its directory's at 8.
            guard let notes = TIFFStructure(tiff.data, base: at, end: at + count, isLittleEndian: true), let first = notes.u32(8),
                let (entries, _) = notes.directory(at: first), let entry = entries.first(where: { $0.tag == 0x1031 }), entry.type == 3,
                entry.count == 2, let x = notes.u16(entry.field), let y = notes.u16(entry.field + 2)
            else { return nil }
            return FocusPoint(x: x, y: y, width: frame?.width, height: frame?.height, source: "Fujifilm FocusPixel")
        }
        if ImageFormat.starts(header, Array("SONY DSC ".utf8)) || ImageFormat.starts(header, Array("SONY CAM ".utf8)) {
            // A directory after the 12-byte name; offsets from the TIFF's start, in its order.
            guard let (entries, _) = tiff.directory(at: start + 12), let entry = entries.first(where: { $0.tag == 0x2027 }), entry.type == 3,
                entry.count == 4, let values = tiff.u32(entry.field), let width = tiff.u16(values), let height = tiff.u16(values + 2),
                let x = tiff.u16(values + 4), let y = tiff.u16(values + 6), width > 0, height > 0
            else { return nil }
            return FocusPoint(x: x, y: y, width: width, height: height, source: "Sony FocusLocation")
        }
        return nil
    }
}
