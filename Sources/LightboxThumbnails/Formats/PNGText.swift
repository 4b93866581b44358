/// The text chunks of a PNG file (tEXt, zTXt and uncompressed iTXt), as the thumbnail cache stores
/// `Thumb::URI`, `Thumb::MTime` and `Thumb::Size` in them. Reads no pixels; bounds-checked.
public enum PNGText {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Keyword to text for each text chunk before the image data; nil when `data` is not a PNG.
    /// At most 64 chunks of 64 KiB are read.
    /// - Complexity: O(*n*).
    public static func entries(in data: [UInt8]) -> [String: String]? {
        guard data.count >= 8, Array(data[0..<8]) == signature else { return nil }
        var result: [String: String] = [:]
        var i = 8
        var chunks = 0
        while i + 8 <= data.count, chunks < 64 {
            let length = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
            let type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            let start = i + 8
            guard length >= 0, length <= data.count - start else { break }
            let body = Array(data[start..<(start + length)])
            if type == "IDAT" || type == "IEND" { break }
            if length <= 65536, let nul = body.firstIndex(of: 0) {
                let key = String(decoding: body[..<nul], as: UTF8.self)
                if type == "tEXt" {
                    // Latin-1 text.
                    result[key] = String(String.UnicodeScalarView(body[(nul + 1)...].map { Unicode.Scalar($0) }))
                } else if type == "zTXt", nul + 2 <= body.count, body[nul + 1] == 0,
                    let text = PNGWriter.inflate(body[(nul + 2)...], limit: 65536)
                {
                    result[key] = String(String.UnicodeScalarView(text.map { Unicode.Scalar($0) }))
                } else if type == "iTXt", nul + 2 < body.count, body[nul + 1] == 0 {
                    // Uncompressed: flag, method, language tag NUL, translated keyword NUL, text.
                    var j = nul + 3
                    for _ in 0..<2 { while j < body.count && body[j] != 0 { j += 1 }; j += 1 }
                    if j <= body.count { result[key] = String(decoding: body[j...], as: UTF8.self) }
                }
            }
            i = start + length + 4  // skip the CRC
            chunks += 1
        }
        return result
    }
}
