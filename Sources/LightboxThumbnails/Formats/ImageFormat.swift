/// Kinds of file Lightbox shows, recognised by their first bytes, never by their names.
///
/// What each kind is lives in one table, `ImageFormat.table`: its name, its signature, the names
/// files of it usually have, the parser of its header's dimensions, how it is decoded, its metadata
/// reader, the libvips loader it needs, and its part in the pairs cameras write. Adding a kind is adding a case and its row, plus
/// its own parsers.
public enum ImageFormat: String, CaseIterable, Sendable {
    case jpeg, png, gif, webp, cameraRaw, tiff, heif, jpegXL, jpeg2000
    case quickTime, matroska, avi

    /// What one kind of file is.
    public struct Traits: Sendable {
        /// What the info panel calls it.
        public let title: String
        /// Whether a file's first bytes (at least `sniffLength` of them when it has that many) are of this kind.
        public let matches: @Sendable (_ header: [UInt8]) -> Bool
        /// Names files of this kind are given (lowercase, without the dot): a file so named that
        /// is not of any kind is reported rather than passed over.
        public let extensions: [String]
        /// The largest width and height its header declares (our own bounds-checked parser).
        public let dimensions: @Sendable (_ prefix: [UInt8]) -> (width: Int, height: Int)?
        /// How its pictures are decoded.
        public let decoding: Decoding
        /// Its metadata reader: the date taken, camera and exposure, or what a video is, from a
        /// file's bytes (its first ones at hand, more on demand); nil where it keeps none we read.
        public let metadata: @Sendable (_ file: FileBytes) -> ImageMetadata?
        /// The libvips loader it needs, when libvips may be built without it; nil: always there.
        public let vipsLoader: String?
        /// What it is in a pair a camera or phone writes (see `Pairing`): the picture shown, a
        /// companion of it, or nil: never paired.
        public var pairRole: Pairing.Role? = nil
        /// Bytes a pixel its decoder holds at once, for kinds decoded whole at full size (no
        /// shrinking while decoding): what a picture of N pixels needs is about N times this,
        /// refused early when over `DecodeLimits.memoryLimit`. Nil: decoded at a reduced size.
        public var decodeBytesPerPixel: Int? = nil
        /// How its frames are decoded when a file of it may be an animation; nil: stills only.
        public var animation: Animation? = nil
    }

    /// How an animation's frames are decoded: by the image libraries, or by our own decoder
    /// (in the app's forks) with the libraries' still when ours gives nil.
    public enum Animation: Sendable {
        case libraries
        /// Every frame of `data` fitted to the box, within the limits; nil: not one ours reads.
        case own(@Sendable (_ data: [UInt8], _ box: PixelSize, _ limits: DecodeLimits) -> Thumbnail?)

        /// Which decoders make its frames.
        public var route: Route {
            switch self {
            case .libraries: .libraries
            case .own: .ownThenLibraries
            }
        }
    }

    /// Which decoders make a kind's pictures (`RoutedDecoder`): our own code and libjpeg-turbo
    /// (in the app's forks, no image library), the image libraries' processes, or ours first and
    /// the libraries when ours answers `.needsCodecs`.
    public enum Route: Hashable, Sendable {
        case libraries, ownThenLibraries
    }

    /// How a kind of file is decoded (in the decoder processes).
    public enum Decoding: Hashable, Sendable {
        /// Its EXIF thumbnail when large enough, else libjpeg-turbo at the smallest DCT scale that covers the box.
        case dctScaled
        /// libvips' thumbnail operation (shrink-on-load).
        case vips
        /// A camera RAW's embedded JPEG preview, at the smallest DCT scale that covers the box.
        case embeddedPreview
        /// One frame, by FFmpeg's libraries, read with the demuxer named.
        case video(demuxer: String)

        /// Which decoders make its stills.
        public var route: Route {
            switch self {
            case .dctScaled, .embeddedPreview: .ownThenLibraries
            case .vips, .video: .libraries
            }
        }

        /// Whether its pictures may keep transparency (libvips' kinds), so cache entries keep alpha.
        public var mayBeTransparent: Bool { self == .vips }

        /// Whether an EXIF thumbnail large enough is taken before the file is decoded.
        public var takesExifThumbnail: Bool { self == .dctScaled }

        /// Whether its decoder reads the file whole (on a network mount the stage reads it ahead,
        /// `FileReadStage`): a RAW's reads only its preview, a video's only what FFmpeg asks for.
        public var readsWhole: Bool { self == .dctScaled || self == .vips }
    }

    /// Every kind, in the order signatures are tried.
    public static let table: [(format: ImageFormat, traits: Traits)] = [
        (
            .jpeg,
            Traits(
                title: "JPEG", matches: { starts($0, [0xFF, 0xD8, 0xFF]) }, extensions: ["jpg", "jpeg", "jpe"],
                dimensions: { JPEGHeader(parsing: $0).flatMap { $0.width > 0 || $0.height > 0 ? ($0.width, $0.height) : nil } },
                decoding: .dctScaled, metadata: exif, vipsLoader: nil, pairRole: .picture)
        ),
        (
            .png,
            Traits(
                title: "PNG", matches: { starts($0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }, extensions: ["png"],
                dimensions: ImageHeader.png, decoding: .vips, metadata: ContainerExif.png, vipsLoader: nil,
                animation: .own { data, box, limits in  // libvips shows an APNG as a still
                    APNGDecoder.decode(data, fitting: box, pixelLimit: limits.pixelLimit, memoryLimit: limits.memoryLimit)
                })
        ),
        (
            .gif,
            Traits(
                title: "GIF", matches: { starts($0, Array("GIF87a".utf8)) || starts($0, Array("GIF89a".utf8)) }, extensions: ["gif"],
                dimensions: ImageHeader.gif, decoding: .vips, metadata: ContainerExif.gif, vipsLoader: nil, decodeBytesPerPixel: 8,
                animation: .libraries)
        ),
        (
            .webp,
            Traits(
                title: "WEBP", matches: { starts($0, Array("RIFF".utf8)) && starts($0, Array("WEBP".utf8), at: 8) }, extensions: ["webp"],
                dimensions: ImageHeader.webp, decoding: .vips, metadata: ContainerExif.webp, vipsLoader: "webpload_buffer",
                animation: .libraries)
        ),
        // Before TIFF and the ISO base media kinds: most RAWs are TIFFs, CR3 is an ISO base media file.
        (
            .cameraRaw,
            Traits(
                title: "camera RAW", matches: CameraRaw.matches,
                extensions: ["dng", "cr2", "cr3", "nef", "nrw", "arw", "sr2", "srf", "raf", "orf", "rw2", "pef", "srw", "raw"],
                dimensions: noSize, decoding: .embeddedPreview, metadata: CameraRaw.metadata, vipsLoader: nil,
                pairRole: .companion)
        ),
        (
            .tiff,
            Traits(
                title: "TIFF", matches: { (starts($0, [0x49, 0x49, 0x2A, 0x00]) || starts($0, [0x4D, 0x4D, 0x00, 0x2A])) && !CameraRaw.matches($0) },
                extensions: ["tif", "tiff"], dimensions: ImageHeader.tiff, decoding: .vips, metadata: exif, vipsLoader: "tiffload_buffer")
        ),
        (
            .heif,
            Traits(
                title: "HEIF/AVIF", matches: { isBMFF($0, brands: heifBrands) },
                extensions: ["heic", "heif", "avif"], dimensions: ImageHeader.heif, decoding: .vips, metadata: ContainerExif.heif,
                vipsLoader: "heifload_buffer",
                pairRole: .picture, decodeBytesPerPixel: 8)
        ),
        (
            .jpegXL,
            Traits(
                title: "JPEG XL", matches: { starts($0, JPEGXLHeader.codestream) || starts($0, JPEGXLHeader.container) },
                extensions: ["jxl"], dimensions: JPEGXLHeader.dimensions, decoding: .vips, metadata: noMetadata, vipsLoader: "jxlload_buffer",
                decodeBytesPerPixel: 16)
        ),
        (
            .jpeg2000,
            Traits(
                title: "JPEG 2000", matches: { starts($0, JPEG2000Header.codestream) || starts($0, JPEG2000Header.container) },
                extensions: ["jp2", "j2k", "j2c", "jpf", "jpx"], dimensions: JPEG2000Header.dimensions, decoding: .vips,
                metadata: noMetadata, vipsLoader: "jp2kload_buffer", decodeBytesPerPixel: 16)
        ),
        // After HEIF: every other ISO base media file but audio is a video (MP4, MOV, M4V, 3GP).
        (
            .quickTime,
            Traits(
                title: "MP4/MOV video", matches: isQuickTime, extensions: ["mp4", "mov", "m4v", "3gp", "3g2", "qt"],
                dimensions: noSize, decoding: .video(demuxer: "mov"),
                metadata: { QuickTimeHeader(reading: $0).map { ImageMetadata(video: $0.video, created: $0.created, local: $0.localCreated) } },
                vipsLoader: nil, pairRole: .companion)
        ),
        (
            .matroska,
            Traits(
                title: "Matroska/WebM video", matches: { starts($0, [0x1A, 0x45, 0xDF, 0xA3]) }, extensions: ["mkv", "webm"],
                dimensions: noSize, decoding: .video(demuxer: "matroska"),
                metadata: { MatroskaHeader(reading: $0).map { ImageMetadata(video: $0.video, created: $0.created) } }, vipsLoader: nil)
        ),
        (
            .avi,
            Traits(
                title: "AVI video", matches: { starts($0, Array("RIFF".utf8)) && starts($0, Array("AVI ".utf8), at: 8) }, extensions: ["avi"],
                dimensions: noSize, decoding: .video(demuxer: "avi"),
                metadata: { AVIHeader(parsing: $0.prefix).map { ImageMetadata(video: $0.video, created: nil, local: $0.dateTaken) } }, vipsLoader: nil)
        ),
    ]

    /// The metadata reader of kinds whose metadata Lightbox does not read.
    static let noMetadata: @Sendable (FileBytes) -> ImageMetadata? = { _ in nil }
    /// The metadata reader of kinds with EXIF in their first bytes (a JPEG's APP1, a TIFF's start).
    static let exif: @Sendable (FileBytes) -> ImageMetadata? = { ImageMetadata(parsing: $0.prefix) }
    /// The header parser of kinds whose size is not in their first bytes.
    static let noSize: @Sendable ([UInt8]) -> (width: Int, height: Int)? = { _ in nil }

    /// Whether a file of this kind may be an animation (its row says how its frames are decoded).
    public var mayAnimate: Bool { Self.animating.contains(self) }

    /// Whether the kind is a video.
    public var isVideo: Bool { Self.videos.contains(self) }

    /// The kinds whose rows say they may animate, and those that are videos: read once, as
    /// sorting and filtering ask them of every file.
    static let animating = table.filter { $0.traits.animation != nil }.map(\.format)
    static let videos = table.filter { if case .video = $0.traits.decoding { true } else { false } }.map(\.format)

    /// Brands of HEIF and AVIF images and sequences.
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "avif", "avis"]
    /// Brands of ISO base media files that hold sound only.
    static let audioBrands: Set<String> = ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]
    /// Boxes that start QuickTime files written without an `ftyp` box.
    static let quickTimeAtoms: Set<String> = ["moov", "mdat", "wide", "free", "skip", "pnot"]

    /// Whether `header` starts a QuickTime or MP4 file that is not sound only.
    static func isQuickTime(_ header: [UInt8]) -> Bool {
        guard header.count >= 12 else { return false }
        let box = String(decoding: header[4..<8], as: UTF8.self)
        if box == "ftyp" {
            let brand = String(decoding: header[8..<12], as: UTF8.self)
            return !audioBrands.contains(brand) && !heifBrands.contains(brand) && brand != "crx "
        }
        return quickTimeAtoms.contains(box)
    }

    /// This kind's row of the table.
    public var traits: Traits { Self.traitsByFormat[self]! }

    /// The table's rows by kind: asked for each file (its pairing, its reads), where a search
    /// copied every row it passed (a row holds closures and texts: a retain each).
    static let traitsByFormat = Dictionary(uniqueKeysWithValues: table.map { ($0.format, $0.traits) })

    /// Bytes needed by `init?(sniffing:)`.
    /// (A TIFF's first directory, which tells a RAW from a TIFF, is usually within them.)
    public static let sniffLength = 4096

    /// The kind whose signature starts `header`, if any.
    public init?(sniffing header: [UInt8]) {
        guard let row = Self.table.first(where: { $0.traits.matches(header) }) else { return nil }
        self = row.format
    }

    /// The names files of some kind are given, for "named like an image" (lowercase, without the dot).
    public static let extensions: Set<String> = Set(table.flatMap(\.traits.extensions))

    /// The kind a file's name says it is (its extension), before its bytes are read: for a
    /// folder's listing shown first on a network mount, and "named like an image"; the sniff of
    /// its first bytes decides what it is.
    public init?(naming path: ImagePath) {
        let name = path.lastComponent
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")),
            let format = Self.byExtension[String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()]
        else { return nil }
        self = format
    }

    /// Each extension's kind (the first row that names it).
    private static let byExtension: [String: ImageFormat] = {
        var kinds: [String: ImageFormat] = [:]
        for row in table { for name in row.traits.extensions where kinds[name] == nil { kinds[name] = row.format } }
        return kinds
    }()

    /// Whether `header` holds `signature` at `offset`.
    static func starts(_ header: [UInt8], _ signature: [UInt8], at offset: Int = 0) -> Bool {
        header.count >= offset + signature.count && Array(header[offset..<(offset + signature.count)]) == signature
    }

    /// Whether `header` starts an ISO base media file (`ftyp` box) of one of `brands`.
    static func isBMFF(_ header: [UInt8], brands: Set<String>) -> Bool {
        starts(header, Array("ftyp".utf8), at: 4) && header.count >= 12 && brands.contains(String(decoding: header[8..<12], as: UTF8.self))
    }
}
