/// Kinds of file Lightbox shows, recognised by their first bytes, never by their names.
///
/// What each kind is lives in one table, `ImageFormat.table`: its name, its signature, the names
/// files of it usually have, the parser of its header's dimensions, how it is decoded, its metadata
/// reader, and the libvips loader it needs. Adding a kind is adding a case and its row, plus
/// its own parsers.
public enum ImageFormat: String, CaseIterable, Sendable {
    case jpeg, png, gif, webp, tiff, heif

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
        /// Its metadata reader: the date taken, camera and exposure from a file's first bytes
        /// (`MetadataReader.prefixLength` of them), nil where it keeps none we read.
        public let metadata: @Sendable (_ prefix: [UInt8]) -> ImageMetadata?
        /// The libvips loader it needs, when libvips may be built without it; nil: always there.
        public let vipsLoader: String?
    }

    /// How a kind of file is decoded (in the decoder processes).
    public enum Decoding: Sendable {
        /// Its EXIF thumbnail when large enough, else libjpeg-turbo at the smallest DCT scale that covers the box.
        case dctScaled
        /// libvips' thumbnail operation (shrink-on-load).
        case vips
    }

    /// Every kind, in the order signatures are tried.
    public static let table: [(format: ImageFormat, traits: Traits)] = [
        (.jpeg, Traits(title: "JPEG", matches: { starts($0, [0xFF, 0xD8, 0xFF]) }, extensions: ["jpg", "jpeg", "jpe"],
                       dimensions: { JPEGHeader(parsing: $0).flatMap { $0.width > 0 || $0.height > 0 ? ($0.width, $0.height) : nil } },
                       decoding: .dctScaled, metadata: ImageMetadata.init(parsing:), vipsLoader: nil)),
        (.png, Traits(title: "PNG", matches: { starts($0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }, extensions: ["png"],
                      dimensions: ImageHeader.png, decoding: .vips, metadata: none, vipsLoader: nil)),
        (.gif, Traits(title: "GIF", matches: { starts($0, Array("GIF87a".utf8)) || starts($0, Array("GIF89a".utf8)) }, extensions: ["gif"],
                      dimensions: ImageHeader.gif, decoding: .vips, metadata: none, vipsLoader: nil)),
        (.webp, Traits(title: "WEBP", matches: { starts($0, Array("RIFF".utf8)) && starts($0, Array("WEBP".utf8), at: 8) }, extensions: ["webp"],
                       dimensions: ImageHeader.webp, decoding: .vips, metadata: none, vipsLoader: "webpload_buffer")),
        (.tiff, Traits(title: "TIFF", matches: { starts($0, [0x49, 0x49, 0x2A, 0x00]) || starts($0, [0x4D, 0x4D, 0x00, 0x2A]) },
                       extensions: ["tif", "tiff"], dimensions: ImageHeader.tiff, decoding: .vips, metadata: ImageMetadata.init(parsing:), vipsLoader: "tiffload_buffer")),
        (.heif, Traits(title: "HEIF/AVIF", matches: { isBMFF($0, brands: ["heic", "heix", "hevc", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "avif", "avis"]) },
                       extensions: ["heic", "heif", "avif"], dimensions: ImageHeader.heif, decoding: .vips, metadata: none, vipsLoader: "heifload_buffer")),
    ]

    /// The metadata reader of kinds whose metadata Lightbox does not read.
    static let none: @Sendable ([UInt8]) -> ImageMetadata? = { _ in nil }

    /// This kind's row of the table.
    public var traits: Traits { Self.table.first { $0.format == self }!.traits }

    /// Bytes needed by `init?(sniffing:)`.
    public static let sniffLength = 16

    /// The kind whose signature starts `header`, if any.
    public init?(sniffing header: [UInt8]) {
        guard let row = Self.table.first(where: { $0.traits.matches(header) }) else { return nil }
        self = row.format
    }

    /// The names files of some kind are given, for "named like an image" (lowercase, without the dot).
    public static let extensions: Set<String> = Set(table.flatMap(\.traits.extensions))

    /// Whether `header` holds `signature` at `offset`.
    static func starts(_ header: [UInt8], _ signature: [UInt8], at offset: Int = 0) -> Bool {
        header.count >= offset + signature.count && Array(header[offset..<(offset + signature.count)]) == signature
    }

    /// Whether `header` starts an ISO base media file (`ftyp` box) of one of `brands`.
    static func isBMFF(_ header: [UInt8], brands: Set<String>) -> Bool {
        starts(header, Array("ftyp".utf8), at: 4) && header.count >= 12 && brands.contains(String(decoding: header[8..<12], as: UTF8.self))
    }
}
