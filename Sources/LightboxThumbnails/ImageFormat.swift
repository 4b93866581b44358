/// Image formats recognised by their first bytes, never by their names.
public enum ImageFormat: String, CaseIterable, Sendable {
    case jpeg, png, gif, webp, tiff, heif

    /// Bytes needed by `init?(sniffing:)`.
    public static let sniffLength = 16

    /// The format whose signature starts `header`, if any.
    public init?(sniffing header: [UInt8]) {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            header.count >= offset + signature.count && Array(header[offset..<(offset + signature.count)]) == signature
        }
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { self = .gif }
        else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { self = .tiff }
        else if starts(Array("ftyp".utf8), at: 4), header.count >= 12,
                ["heic", "heix", "hevc", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "avif", "avis"]
                    .contains(String(decoding: header[8..<12], as: UTF8.self)) { self = .heif }
        else { return nil }
    }
}
