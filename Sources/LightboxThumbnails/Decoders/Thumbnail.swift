/// Decoded RGB pixels of one thumbnail.
public struct Thumbnail: Hashable, Sendable {
    public var width: Int
    public var height: Int
    /// Row-major RGB, three bytes a pixel; with `alpha`, premultiplied (as if laid on black).
    public var pixels: [UInt8]
    /// How opaque each pixel is (0 to 255), row-major; nil when all are. Kept from the file to the
    /// app, which lays the picture on the terminal's own background (`flattened(onto:)`).
    public var alpha: [UInt8]?
    /// The picture as terminal symbols, rendered off the UI thread for a symbol set other than half blocks.
    public var cells: SymbolCells?
    /// An animation's frames, one above the other: each one's delay in milliseconds. Empty for a still.
    public var delays: [Int] = []
    /// How its pixels spread over the levels, when the request asked (the preview's exposure panel).
    public var histogram: Histogram?
    /// Whether it is a smaller source scaled up to fill its box (a slow link's stand-in,
    /// `upscaled(toFit:)`): the sharp one replaces it once its file has been read whole.
    public var isStandIn = false
    /// The file it was made of, as opened, when the request named the file only as its folder's
    /// listing did (`ImageFile.isListed`): the gallery keeps it for the file the scan then finds
    /// there, when that is the same.
    public var readFile: ImageFile?

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "pixel buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// How many frames the pixels hold: one for a still.
    public var frameCount: Int { max(1, delays.count) }

    /// Frame `index` of an animation (the whole picture for a still).
    /// - Complexity: O(*w* × *h*) of one frame.
    public func frame(_ index: Int) -> Thumbnail {
        guard delays.count > 1 else { return self }
        let frameHeight = height / delays.count
        let start = (index % delays.count) * frameHeight * width * 3
        var frame = Thumbnail(width: width, height: frameHeight, pixels: Array(pixels[start..<(start + frameHeight * width * 3)]))
        frame.alpha = alpha.map { Array($0[(start / 3)..<((start / 3) + frameHeight * width)]) }
        return frame
    }

    /// Memory held by the pixels and the cells.
    public var byteCount: Int { pixels.count + (alpha?.count ?? 0) + (cells.map { $0.glyphs.count * 12 } ?? 0) + (histogram == nil ? 0 : 8192) }

    /// The picture laid on `background` (0xRRGGBB): opaque, where it was transparent the
    /// background shows. Unchanged when it has no `alpha`.
    /// - Complexity: O(*w* × *h*).
    public func flattened(onto background: UInt32) -> Thumbnail {
        guard let alpha else { return self }
        let ground = [Int(background >> 16 & 0xFF), Int(background >> 8 & 0xFF), Int(background & 0xFF)]
        var out = pixels
        for p in 0..<alpha.count where alpha[p] < 255 {
            let uncovered = 255 - Int(alpha[p])
            for c in 0..<3 { out[p * 3 + c] = UInt8(min(255, Int(pixels[p * 3 + c]) + (ground[c] * uncovered + 127) / 255)) }
        }
        var flat = self
        flat.pixels = out
        flat.alpha = nil
        return flat
    }

    /// `rgba` (four bytes a pixel, straight alpha) as premultiplied pixels and an alpha plane;
    /// no plane when every pixel is opaque.
    /// - Complexity: O(*w* × *h*).
    public init(width: Int, height: Int, rgba: UnsafeBufferPointer<UInt8>) {
        precondition(rgba.count == width * height * 4, "pixel buffer does not match \(width)x\(height)")
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        var alpha = [UInt8](repeating: 255, count: width * height)
        var opaque = true
        for p in 0..<(width * height) {
            let a = Int(rgba[p * 4 + 3])
            alpha[p] = UInt8(a)
            if a == 255 {
                rgb[p * 3] = rgba[p * 4]; rgb[p * 3 + 1] = rgba[p * 4 + 1]; rgb[p * 3 + 2] = rgba[p * 4 + 2]
            } else {
                opaque = false
                for c in 0..<3 { rgb[p * 3 + c] = UInt8((Int(rgba[p * 4 + c]) * a + 127) / 255) }
            }
        }
        self.init(width: width, height: height, pixels: rgb)
        self.alpha = opaque ? nil : alpha
    }

    /// The pixels as RGBA with straight alpha (what a PNG holds): each colour divided by its alpha again.
    /// - Complexity: O(*w* × *h*).
    public var straightRGBA: [UInt8] {
        var out = [UInt8](repeating: 255, count: width * height * 4)
        for p in 0..<(width * height) {
            let a = Int(alpha?[p] ?? 255)
            out[p * 4 + 3] = UInt8(a)
            for c in 0..<3 {
                let v = Int(pixels[p * 3 + c])
                out[p * 4 + c] = a == 255 ? UInt8(v) : a == 0 ? 0 : UInt8(min(255, (v * 255 + a / 2) / a))
            }
        }
        return out
    }

    /// The picture's size in cells when fitted to a box of `columns` by `rows` cells (a cell is
    /// one pixel wide and two tall), and so the cells a symbol rendering has.
    public func fittedCells(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        let fitted = Self.fittedSize(width: width, height: height, in: PixelSize(width: columns, height: rows * 2))
        return (max(1, fitted.width), max(1, (fitted.height + 1) / 2))
    }

    /// The colour at (x, y).
    public func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}

/// A box of pixels a thumbnail must fit inside.
public struct PixelSize: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The largest side a picture is decoded at, in tiles and the preview alike (a terminal
    /// reporting huge cells gets pictures it scales, or shows smaller).
    public static let maxSide = 4096

    /// Half this size (at least a pixel a side): what is enough on a slow link.
    public var halved: PixelSize { PixelSize(width: max(1, width / 2), height: max(1, height / 2)) }

    /// This size shrunk, shape kept, so neither side is over `maxSide`.
    public var limitedToMaxSide: PixelSize {
        let longest = max(width, height)
        guard longest > Self.maxSide else { return self }
        return PixelSize(width: max(1, width * Self.maxSide / longest), height: max(1, height * Self.maxSide / longest))
    }
}

/// What identifies one decoded thumbnail: the file as it was when found, and the box.
public struct ThumbnailKey: Hashable, Sendable {
    public var path: ImagePath
    public var byteCount: Int64
    public var modified: Int64
    public var box: PixelSize
    /// Whether every frame of an animation is wanted, not only the first.
    public var isAnimated: Bool
    /// Quarter turns clockwise the user turned the view by (0 to 3): the picture is turned so,
    /// and fitted to `box` as turned.
    public var turns: Int
    /// The part of the photo (as shown, turned) the picture is of, fitted to `box`; nil: the whole photo.
    public var region: PhotoRegion?
    /// Milliseconds into a video where the clip of frames to play starts; nil: not a clip.
    public var clipStart: Int?

    public init(file: ImageFile, box: PixelSize, isAnimated: Bool = false, turns: Int = 0, region: PhotoRegion? = nil, clipStart: Int? = nil) {
        path = file.path
        byteCount = file.byteCount
        modified = file.modified
        self.box = box
        self.isAnimated = isAnimated
        self.turns = turns & 3
        self.region = region
        self.clipStart = clipStart
    }
}

/// A file as it was when found: a change of size or time makes it another version.
public struct FileVersion: Hashable, Sendable {
    public var path: ImagePath
    public var byteCount: Int64
    public var modified: Int64
}

extension ThumbnailKey {
    public var fileVersion: FileVersion { FileVersion(path: path, byteCount: byteCount, modified: modified) }
}

/// What decoding one file gave.
public enum DecodeResult: Hashable, Sendable {
    case decoded(Thumbnail)
    /// Decoding failed: why, in words for the status line.
    case failed(DecodeFailure)
}

/// Why a picture could not be made: the kind of trouble, which decides what is done about it,
/// and the words the status line shows.
public struct DecodeFailure: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: UInt8, Hashable, Sendable {
        /// The file's own bytes are bad (corrupt, truncated, not what they claim): remembered in
        /// the disk cache, as the thumbnail spec asks, so it is not tried again.
        case badFile
        /// Over a limit, or no pixels to show: limits change, so it is not remembered.
        case refused
        /// The file could not be read (gone, no permission, an I/O error).
        case unreadable
        /// The decoder process crashed, hung or answered nonsense; the file may be fine.
        case decoder
        /// This process has no image library for it (`DecodeFailure.needsCodecs`).
        case needsCodecs
        /// The file's mount is not answering: not tried now (a read there would hold a thread
        /// until it answers), asked again once it does; never remembered.
        case offline
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    public static func badFile(_ message: String) -> DecodeFailure { DecodeFailure(.badFile, message) }
    /// A picture of `width` x `height` refused for having more than `limit` pixels.
    public static func tooLarge(_ width: Int, _ height: Int, limit: Int) -> DecodeFailure {
        refused("too large: \(width)x\(height) (\(ImageHeader.pixelCount(width, height) / 1_000_000) MP, limit \(limit / 1_000_000) MP)")
    }
    /// A picture whose decoder would need more memory than a decoder has, said the same for
    /// every decoder (`work`: decode, develop).
    public static func needsMemory(_ width: Int, _ height: Int, megabytes: Int, to work: String, limit: Int) -> DecodeFailure {
        refused("\(width)x\(height) would need about \(megabytes) MB to \(work) (a decoder has \(limit >> 20) MB)")
    }
    public static func refused(_ message: String) -> DecodeFailure { DecodeFailure(.refused, message) }
    public static func unreadable(_ message: String) -> DecodeFailure { DecodeFailure(.unreadable, message) }
    public static func decoder(_ message: String) -> DecodeFailure { DecodeFailure(.decoder, message) }
    public static func offline(_ mount: String) -> DecodeFailure {
        DecodeFailure(.offline, "offline: \(mount) is " + (ReadWatch.shared.unmountedFolders.contains(mount) ? "not mounted" : "not answering"))
    }
}

/// Something that turns a file into a thumbnail; a later step may move it out of process.
public protocol ThumbnailDecoding: Sendable {
    func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult
    /// Every frame of an animation (at most what `Thumbnail.animationBudget` holds), fitted to `box`.
    func decodeFrames(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult
    /// The part `region` of the photo (upright, as its orientation shows it) at full resolution,
    /// fitted to `box`: what a zoomed view shows of a photo larger than a whole decode can be.
    func decodeRegion(_ file: ImageFile, region: PhotoRegion, fitting box: PixelSize) -> DecodeResult
    /// A video's frames to play from `start` milliseconds into it, fitted to `box`, one above the
    /// other with how long each shows (a bounded number): the next
    /// clip starts where their delays' sum ends; past the end, a refusal.
    func decodeClip(_ file: ImageFile, from start: Int, fitting box: PixelSize) -> DecodeResult
}

extension ThumbnailDecoding {
    /// Decoders that know no animation give the still.
    public func decodeFrames(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult { decode(file, fitting: box) }
    /// Decoders that cannot decode a part say so (the view keeps the whole picture).
    public func decodeRegion(_ file: ImageFile, region: PhotoRegion, fitting box: PixelSize) -> DecodeResult {
        .failed(.refused("no decoding of a part of this kind of file"))
    }
    /// Decoders that cannot play a video say so (the view keeps its still).
    public func decodeClip(_ file: ImageFile, from start: Int, fitting box: PixelSize) -> DecodeResult {
        .failed(.refused("no video playback here"))
    }
}

extension Thumbnail {
    /// The most bytes an animation's frames take (then fewer frames are kept).
    public static let animationBudget = 48 << 20
}

extension ThumbnailKey {
    /// The key the same picture had while its file was only listed (`ImageFile.isListed`: its
    /// size and time unknown).
    public var asListed: ThumbnailKey {
        var key = self
        key.byteCount = -1
        key.modified = -1
        return key
    }
}
