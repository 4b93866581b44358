import CZlib

/// Our own decoder of animated PNGs (APNG: `acTL`, `fcTL`, `fdAT`), which libvips shows as
/// stills: each frame inflated and unfiltered as a PNG is, composed onto the canvas (its blend
/// and dispose operations) and fitted to the box, its transparency kept. 8-bit grey, RGB, palette, grey with
/// alpha and RGBA, not interlaced; anything else gives nil. Every read is bounds-checked.
public enum APNGDecoder {
    /// One frame's control chunk.
    struct Control {
        var width = 0, height = 0, x = 0, y = 0
        var delay = 100
        var dispose: UInt8 = 0, blend: UInt8 = 0
    }

    /// The frames of `data`, fitted to `box`, one above the other with their delays: as many of
    /// the first as `Thumbnail.animationBudget` holds; nil when `data` is no APNG this decoder reads,
    /// or when playing it would need more than `memoryLimit` bytes (see `memoryNeeded`).
    /// - Complexity: O(*f* × *w* × *h*) for *f* frames of a *w* × *h* canvas.
    public static func decode(_ data: [UInt8], fitting box: PixelSize, pixelLimit: Int, memoryLimit: Int = .max) -> Thumbnail? {
        guard data.count > 33, Array(data[0..<8]) == PNGText.signature else { return nil }
        var width = 0, height = 0, colourType: UInt8 = 0
        var palette: [UInt8] = [], transparency: [UInt8] = []
        var frames: [(control: Control, data: [UInt8])] = []
        var pending: Control?
        var i = 8
        while i + 12 <= data.count, frames.count < 10_000 {
            guard let length = data.bigEndian(at: i, width: 4).map(Int.init), length <= data.count - i - 12,
                let type = data.fourCC(at: i + 4)
            else { return nil }
            let body = Array(data[(i + 8)..<(i + 8 + length)])
            switch type {
            case "IHDR":
                guard length == 13, body[8] == 8, body[12] == 0 else { return nil }
                width = Int(body.bigEndian(at: 0, width: 4)!)
                height = Int(body.bigEndian(at: 4, width: 4)!)
                colourType = body[9]
                guard [0, 2, 3, 4, 6].contains(colourType), width > 0, height > 0,
                    ImageHeader.pixelCount(width, height) <= pixelLimit
                else { return nil }
            case "PLTE": palette = body
            case "tRNS": transparency = body
            case "fcTL":
                guard length == 26 else { return nil }
                var control = Control()
                control.width = Int(body.bigEndian(at: 4, width: 4)!)
                control.height = Int(body.bigEndian(at: 8, width: 4)!)
                control.x = Int(body.bigEndian(at: 12, width: 4)!)
                control.y = Int(body.bigEndian(at: 16, width: 4)!)
                let numerator = Int(body.bigEndian(at: 20, width: 2)!), denominator = Int(body.bigEndian(at: 22, width: 2)!)
                control.delay = numerator * 1000 / (denominator == 0 ? 100 : denominator)
                control.dispose = body[24]
                control.blend = body[25]
                guard control.width > 0, control.height > 0, control.x + control.width <= width, control.y + control.height <= height else { return nil }
                frames.append((control, []))
                pending = control
            case "IDAT":
                // The default image is the first frame when an fcTL came before it.
                if pending != nil, !frames.isEmpty { frames[frames.count - 1].data += body }
            case "fdAT":
                guard length > 4, !frames.isEmpty else { return nil }
                frames[frames.count - 1].data += body[4...]
            case "IEND": i = data.count; continue
            default: break
            }
            i += 12 + length
        }
        let playable = frames.filter { !$0.data.isEmpty }
        guard playable.count > 1 else { return nil }
        let channels: Int
        switch colourType {
        case 0, 3: channels = 1;
        case 4: channels = 2;
        case 2: channels = 3;
        default: channels = 4
        }
        guard memoryNeeded(width: width, height: height, channels: channels, frames: playable.map(\.control)) <= memoryLimit else { return nil }
        let fitted = Thumbnail.fittedSize(width: width, height: height, in: box)
        let kept = min(playable.count, max(1, Thumbnail.animationBudget / max(1, fitted.width * fitted.height * 3)))
        var canvas = [UInt8](repeating: 0, count: width * height * 4)  // RGBA, transparent
        var strip: [UInt8] = [], alphaStrip: [UInt8] = []
        var delays: [Int] = []
        var frameWidth = 0, frameHeight = 0
        for (control, compressed) in playable.prefix(kept) {
            let stride = control.width * channels
            var raw = [UInt8](repeating: 0, count: (stride + 1) * control.height)
            var rawLength = uLong(raw.count)
            guard uncompress(&raw, &rawLength, compressed, uLong(compressed.count)) == Z_OK, Int(rawLength) == raw.count,
                PNGDecoder.unfilter(&raw, stride: stride, height: control.height, bpp: channels)
            else { return nil }
            let saved = control.dispose == 2 ? canvas : []
            for y in 0..<control.height {
                for x in 0..<control.width {
                    let s = y * (stride + 1) + 1 + x * channels
                    var r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255
                    switch colourType {
                    case 0: (r, g, b) = (raw[s], raw[s], raw[s])
                    case 3:
                        let index = Int(raw[s])
                        guard index * 3 + 2 < palette.count else { return nil }
                        (r, g, b) = (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2])
                        if index < transparency.count { a = transparency[index] }
                    case 4: (r, g, b, a) = (raw[s], raw[s], raw[s], raw[s + 1])
                    case 2: (r, g, b) = (raw[s], raw[s + 1], raw[s + 2])
                    default: (r, g, b, a) = (raw[s], raw[s + 1], raw[s + 2], raw[s + 3])
                    }
                    let o = ((control.y + y) * width + control.x + x) * 4
                    if control.blend == 1 && a < 255 {
                        // Over: the frame on what is there.
                        let under = Int(canvas[o + 3]) * (255 - Int(a)) / 255
                        let alpha = Int(a) + under
                        if alpha > 0 {
                            canvas[o] = UInt8((Int(r) * Int(a) + Int(canvas[o]) * under) / alpha)
                            canvas[o + 1] = UInt8((Int(g) * Int(a) + Int(canvas[o + 1]) * under) / alpha)
                            canvas[o + 2] = UInt8((Int(b) * Int(a) + Int(canvas[o + 2]) * under) / alpha)
                        }
                        canvas[o + 3] = UInt8(alpha)
                    } else {
                        (canvas[o], canvas[o + 1], canvas[o + 2], canvas[o + 3]) = (r, g, b, a)
                    }
                }
            }
            // The frame as shown, fitted to the box.
            let shown = canvas.withUnsafeBufferPointer { Thumbnail(width: width, height: height, rgba: $0) }.downscaled(toFit: box)
            (frameWidth, frameHeight) = (shown.width, shown.height)
            strip += shown.pixels
            alphaStrip += shown.alpha ?? [UInt8](repeating: 255, count: shown.width * shown.height)
            delays.append(control.delay > 10 ? control.delay : 100)
            // Then what the frame leaves for the next: itself, a cleared region, or what was before.
            switch control.dispose {
            case 1:
                for y in control.y..<(control.y + control.height) {
                    let start = (y * width + control.x) * 4
                    for k in start..<(start + control.width * 4) { canvas[k] = 0 }
                }
            case 2: canvas = saved
            default: break
            }
        }
        var thumbnail = Thumbnail(width: frameWidth, height: frameHeight * delays.count, pixels: strip)
        thumbnail.alpha = alphaStrip.allSatisfy { $0 == 255 } ? nil : alphaStrip
        thumbnail.delays = delays
        return thumbnail
    }

    /// Bytes held at once while a *w* × *h* canvas plays: the RGBA canvas, its copy as a picture
    /// (RGB and alpha), a saved canvas when a frame disposes to what was before, and the largest
    /// frame inflated. The file's own bytes are not counted.
    static func memoryNeeded(width: Int, height: Int, channels: Int, frames: [Control]) -> Int {
        let perPixel = 4 + 4 + (frames.contains { $0.dispose == 2 } ? 4 : 0)
        let largestFrame = frames.map { ($0.width * channels + 1) * $0.height }.max() ?? 0
        let (canvas, overflow) = ImageHeader.pixelCount(width, height).multipliedReportingOverflow(by: perPixel)
        return overflow ? .max : canvas + largestFrame
    }
}
