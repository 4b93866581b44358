/// The kitty graphics protocol with Unicode placeholders: pictures are sent to the terminal once,
/// then shown by ordinary cells, so scrolling, clipping and overdrawing work as for text.
///
/// See https://sw.kovidgoyal.net/kitty/graphics-protocol/#unicode-placeholders.
public enum KittyGraphics {
    /// The placeholder character; its foreground colour names the image.
    public static let placeholder: Unicode.Scalar = "\u{10EEEE}"

    /// The most rows or columns a placement can have: one diacritic each.
    public static var maxCells: Int { diacritics.count }

    /// Combining marks that number a placeholder's row and column (index *i* means *i*), from
    /// kitty's `rowcolumn-diacritics.txt`.
    static let diacritics: [UInt32] = {
        let ranges: [ClosedRange<UInt32>] = [
            0x0305...0x0305, 0x030D...0x030E, 0x0310...0x0310, 0x0312...0x0312, 0x033D...0x033F, 0x0346...0x0346,
            0x034A...0x034C, 0x0350...0x0352, 0x0357...0x0357, 0x035B...0x035B, 0x0363...0x036F, 0x0483...0x0487,
            0x0592...0x0595, 0x0597...0x0599, 0x059C...0x05A1, 0x05A8...0x05A9, 0x05AB...0x05AC, 0x05AF...0x05AF,
            0x05C4...0x05C4, 0x0610...0x0617, 0x0657...0x065B, 0x065D...0x065E, 0x06D6...0x06DC, 0x06DF...0x06E2,
            0x06E4...0x06E4, 0x06E7...0x06E8, 0x06EB...0x06EC, 0x0730...0x0730, 0x0732...0x0733, 0x0735...0x0736,
            0x073A...0x073A, 0x073D...0x073D, 0x073F...0x0741, 0x0743...0x0743, 0x0745...0x0745, 0x0747...0x0747,
            0x0749...0x074A, 0x07EB...0x07F1, 0x07F3...0x07F3, 0x0816...0x0819, 0x081B...0x0823, 0x0825...0x0827,
            0x0829...0x082D, 0x0951...0x0951, 0x0953...0x0954, 0x0F82...0x0F83, 0x0F86...0x0F87, 0x135D...0x135F,
            0x17DD...0x17DD, 0x193A...0x193A, 0x1A17...0x1A17, 0x1A75...0x1A7C, 0x1B6B...0x1B6B, 0x1B6D...0x1B73,
            0x1CD0...0x1CD2, 0x1CDA...0x1CDB, 0x1CE0...0x1CE0, 0x1DC0...0x1DC1, 0x1DC3...0x1DC9, 0x1DCB...0x1DCC,
            0x1DD1...0x1DE6, 0x1DFE...0x1DFE, 0x20D0...0x20D1, 0x20D4...0x20D7, 0x20DB...0x20DC, 0x20E1...0x20E1,
            0x20E7...0x20E7, 0x20E9...0x20E9, 0x20F0...0x20F0, 0x2CEF...0x2CF1, 0x2DE0...0x2DFF, 0xA66F...0xA66F,
            0xA67C...0xA67D, 0xA6F0...0xA6F1, 0xA8E0...0xA8E5,
        ]
        return ranges.flatMap { Array($0) }
    }()

    /// The image id for the `serial`th picture, and the colour and extra diacritic that name it in
    /// a placeholder: 24 bits of foreground in direct colour, 8 bits of palette colour otherwise,
    /// the id's top byte as a third diacritic. Serials that would need colours 0–7 (which a
    /// direct-colour terminfo takes as ANSI colours) or a zero byte are skipped. The top byte 255
    /// is left for `transientID`.
    public static func imageID(serial: UInt32, directColor: Bool) -> UInt32 {
        if directColor {
            let low = serial % usableDirect + 8, high = serial / usableDirect % 255
            return high << 24 | low
        }
        let low = serial % 255 + 1, high = serial / 255 % 255
        return high << 24 | low
    }

    /// Low parts of direct-colour ids: 8...0xFFFFFF.
    static let usableDirect = UInt32(1 << 24) - 8

    /// The id of a picture made for one frame (a zoomed crop), numbered by `revision`: top byte
    /// 255, so it never names a cached picture; deleted once a frame no longer shows it.
    public static func transientID(revision: UInt32, directColor: Bool) -> UInt32 {
        0xFF00_0000 | (directColor ? revision % usableDirect + 8 : revision % 255 + 1)
    }

    /// The glyph and colour of the placeholder for cell (`row`, `column`) of image `id`.
    public static func placeholderCell(id: UInt32, row: Int, column: Int, directColor: Bool) -> Cell {
        var glyph = String(Character(placeholder))
        glyph.unicodeScalars.append(Unicode.Scalar(diacritics[row])!)
        glyph.unicodeScalars.append(Unicode.Scalar(diacritics[column])!)
        let high = Int(id >> 24)
        if high != 0 { glyph.unicodeScalars.append(Unicode.Scalar(diacritics[high])!) }
        let color: TerminalColor =
            directColor
            ? .rgb(UInt8(id >> 16 & 0xFF), UInt8(id >> 8 & 0xFF), UInt8(id & 0xFF))
            : .indexed(UInt8(id & 0xFF))
        return Cell(glyph, style: CellStyle(foreground: color))
    }

    /// Sends `image`'s pixels under its id and makes a virtual placement of its columns and rows
    /// for placeholders to show; quiet (the terminal answers nothing). Chunked, as the protocol asks.
    /// - Complexity: O(*w* × *h*).
    public static func transmit(_ image: FrameImage, inTmux: Bool) -> [UInt8] {
        Array(transmissionChunks(image, inTmux: inTmux).joined())
    }

    /// `transmit(_:inTmux:)` as its chunks: other output may come between them, but no other
    /// graphics command until the last.
    /// - Complexity: O(*w* × *h*).
    public static func transmissionChunks(_ image: FrameImage, inTmux: Bool) -> [[UInt8]] {
        let data = Base64.encode(png(width: image.pixelWidth, height: image.pixelHeight, pixels: image.pixels))
        var chunks: [[UInt8]] = []
        let chunk = 4096
        var start = 0
        repeat {
            let end = min(data.count, start + chunk)
            let more = end < data.count ? 1 : 0
            let control =
                start == 0
                ? "a=T,U=1,q=2,f=100,i=\(image.id),c=\(image.columns),r=\(image.rows),m=\(more)"
                : "m=\(more)"
            chunks.append(command(Array(control.utf8), payload: data[start..<end], inTmux: inTmux))
            start = end
        } while start < data.count
        return chunks
    }

    /// A new virtual placement for an image already sent (after the cell size changed), in place
    /// of the old one, so its placeholders find only the new one.
    public static func place(_ image: FrameImage, inTmux: Bool) -> [UInt8] {
        command(Array("a=d,d=i,q=2,i=\(image.id)".utf8), payload: [], inTmux: inTmux)
            + command(Array("a=p,U=1,q=2,i=\(image.id),c=\(image.columns),r=\(image.rows)".utf8), payload: [], inTmux: inTmux)
    }

    /// Deletes image `id` and frees its data in the terminal.
    public static func delete(id: UInt32, inTmux: Bool) -> [UInt8] {
        command(Array("a=d,d=I,q=2,i=\(id)".utf8), payload: [], inTmux: inTmux)
    }

    /// The query `auto` asks: a terminal with kitty graphics answers `ESC _ G i=31;OK ESC \`.
    public static let query: [UInt8] = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)

    /// An APC graphics command; inside tmux wrapped for passthrough (every ESC doubled).
    static func command(_ control: [UInt8], payload: ArraySlice<UInt8>, inTmux: Bool) -> [UInt8] {
        var body: [UInt8] = [0x1B, 0x5F, 0x47] + control
        if !payload.isEmpty { body += [0x3B] + payload }
        body += [0x1B, 0x5C]
        return inTmux ? tmuxPassthrough(body) : body
    }

    /// `bytes` wrapped so tmux passes them to the outer terminal (`allow-passthrough on`).
    public static func tmuxPassthrough(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = Array("\u{1B}Ptmux;".utf8)
        for byte in bytes {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        return out + [0x1B, 0x5C]
    }
}

/// Standard base64, for the graphics protocol's payloads.
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// - Complexity: O(*n*).
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(v >> 18 & 63)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)], alphabet[Int(v & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let v = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out += [alphabet[Int(v >> 18 & 63)], alphabet[Int(v >> 12 & 63)]]
            out += rest == 2 ? [alphabet[Int(v >> 6 & 63)], 0x3D] : [0x3D, 0x3D]
        }
        return out
    }
}
