import CTurboJPEG

/// iTerm2's inline images (`OSC 1337 ; File=`), which iTerm2, WezTerm, mintty, Konsole, mlterm,
/// Rio and VS Code's terminal show: each picture as a JPEG (quality 85, an order of magnitude fewer
/// bytes than RGB), scaled by the terminal into the cells given. Like sixel they are painted after
/// the cells, so `ImagePainter` repaints them when they move.
public enum ITermImages {
    /// JPEG quality: photos look as they do, at a tenth of their RGB or less.
    static let quality: Int32 = 85

    /// The escape sequence showing `pixels` (RGB, `width` x `height`) over `columns` x `rows` cells
    /// at the cursor, leaving the cursor where it was (where the terminal honours that).
    public static func encode(pixels: [UInt8], width: Int, height: Int, columns: Int, rows: Int, inTmux: Bool) -> [UInt8] {
        guard let jpeg = jpeg(pixels: pixels, width: width, height: height) else { return [] }
        let arguments = "inline=1;size=\(jpeg.count);width=\(columns);height=\(rows);preserveAspectRatio=0;doNotMoveCursor=1"
        let body = Array("\u{1B}]1337;File=\(arguments):".utf8) + Base64.encode(jpeg) + [0x07]
        return inTmux ? KittyGraphics.tmuxPassthrough(body) : body
    }

    /// `pixels` as a baseline JPEG.
    static func jpeg(pixels: [UInt8], width: Int, height: Int) -> [UInt8]? {
        guard width > 0, height > 0, pixels.count == width * height * 3 else { return nil }
        var out: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        guard lb_tj_encode(pixels, Int32(width), Int32(height), quality, &out, &length) == LB_TJ_OK, let out else { return nil }
        defer { lb_tj_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}
