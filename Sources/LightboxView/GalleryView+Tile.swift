import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

extension GalleryView {
    /// One tile: picture box (thumbnail, placeholder or broken), side bars for cursor and marks, label.
    static func drawTile(_ item: Int, state: GalleryState, into frame: inout Frame) {
        let palette = state.palette
        let layout = state.layout
        let tile = screenFrame(layout.frame(ofItem: item), state: state)
        let top = tile.y
        let boxHeight = layout.boxFrame(ofItem: item).height
        let isCursor = item == state.viewport.cursor
        let isMarked = state.selection.marks.contains(item)
        let alignment = layout.columns[layout.column(ofItem: item)].alignment

        let key = state.thumbnailKey(ofItem: item)
        let isRejected = state.decisions[state.library.id(at: item)].isRejected
        if let reason = state.failure(at: item) {
            drawBroken(reason, x: tile.x, y: top, width: tile.width, height: boxHeight, palette: palette, into: &frame, clipHeight: state.screen.gridHeight)
        } else if state.pictures.graphics.isPixels, let thumbnail = state.store.cache.peek(key), let serial = state.store.cache.serial(of: key),
            drawImage(
                isRejected ? thumbnail.dimmed : thumbnail, id: state.imageID(serial: isRejected ? serial | Self.dimmedSerialBit : serial), state: state,
                x: tile.x, y: top, width: tile.width, height: boxHeight, alignment: alignment, into: &frame, clipHeight: state.screen.gridHeight)
        {
            // Drawn in pixels.
        } else if let thumbnail = state.store.cache.closest(to: key) {
            if !state.pictures.graphics.isPixels, let cells = thumbnail.cells, cells.matches(state.symbols, state.pictures.colorDepth),
                cells.columns <= tile.width, cells.rows <= boxHeight
            {
                drawCells(
                    cells, x: tile.x, y: top, width: tile.width, height: boxHeight, alignment: alignment,
                    palette: palette, into: &frame, clipHeight: state.screen.gridHeight)
            } else {
                drawPicture(
                    thumbnail, x: tile.x, y: top, width: tile.width, height: boxHeight, alignment: alignment,
                    palette: palette, into: &frame, clipHeight: state.screen.gridHeight)
            }
        } else {
            drawPlaceholder(
                x: tile.x, y: top, width: tile.width, height: boxHeight, palette: palette, into: &frame, clipHeight: state.screen.gridHeight,
                offline: state.isOffline(at: item))
        }
        // A rejected photo's picture is dimmed: in pixels above, in cells here (a pixel mode's
        // cells carry the picture's id).
        if isRejected && !state.pictures.graphics.isPixels {
            dim(x: tile.x, y: top, width: tile.width, height: boxHeight, in: &frame, clipHeight: state.screen.gridHeight)
        }

        // Bars in the column gaps beside the box: the cursor, marks, a pending range.
        var bar: CellStyle? = nil
        if isCursor {
            bar = palette.cursorBar
        } else if isMarked {
            bar = palette.markBar
        } else if let anchor = state.selection.anchor, (min(anchor, state.viewport.cursor)...max(anchor, state.viewport.cursor)).contains(item) {
            bar = palette.rangeBar
        }
        if let bar {
            for row in 0..<boxHeight where top + row >= 0 && top + row < state.screen.gridHeight {
                if tile.x > 0 { frame[tile.x - 1, top + row] = Cell(isCursor ? "▐" : "▕", style: bar) }
                if tile.maxX < frame.width { frame[tile.maxX, top + row] = Cell(isCursor ? "▌" : "▏", style: bar) }
            }
        }

        let labelY = top + boxHeight
        guard labelY >= 0 && labelY < state.screen.gridHeight else { return }
        let decision = state.decisions[state.library.id(at: item)]
        var style =
            isCursor
            ? (isMarked ? palette.cursorMarkedLabel : palette.cursorLabel)
            : (isMarked ? palette.markedLabel : palette.label)
        if decision.isRejected { style.attributes.insert(.dim) }
        let prefix = (isMarked ? "✓ " : "") + decisionBadge(decision) + labelBadge(item, state: state)
        let text = prefix + DisplayText.shortened(bytes: state.library[item].path.lastComponent, toWidth: tile.width - DisplayWidth.of(prefix))
        if isCursor || isMarked { frame.fill(x: tile.x, y: labelY, width: tile.width, height: 1, with: Cell(" ", style: style)) }
        let used = DisplayWidth.of(text)
        let labelX = tile.x + alignment.offset(of: used, in: tile.width)
        frame.write(text, x: labelX, y: labelY, style: style, maxWidth: tile.width)
        // The colour labels' dots in their colours, where the badge put them.
        if !decision.labels.isEmpty {
            let dotsX = labelX + DisplayWidth.of((isMarked ? "✓ " : "") + decisionBadge(decision, withDots: false))
            for (i, label) in decision.labels.enumerated() where dotsX + i < tile.maxX {
                var dot = style
                if state.theme.colorsText { dot.foreground = .rgb(UInt8(label.rgb >> 16), UInt8(label.rgb >> 8 & 0xFF), UInt8(label.rgb & 0xFF)) }
                frame[dotsX + i, labelY] = Cell(String(Self.labelGlyphs[label.rawValue]), style: dot)
            }
        }
        // The characters the filter matched, underlined and bold.
        if !state.filter.text.isEmpty, let matched = FuzzyMatch.matchedCharacters(state.filter.text, in: text) {
            var x = labelX
            for (i, character) in text.enumerated() {
                let width = DisplayWidth.of(character)
                if matched.contains(i), x + width <= tile.x + tile.width {
                    var highlighted = style
                    highlighted.attributes.formUnion([.underline, .bold])
                    frame.write(String(character), x: x, y: labelY, style: highlighted)
                }
                x += width
            }
        }
    }

    /// Darkens a box's colours to a third, as a rejected photo shows.
    static func dim(x: Int, y: Int, width: Int, height: Int, in frame: inout Frame, clipHeight: Int) {
        func darker(_ color: TerminalColor) -> TerminalColor {
            guard case .rgb(let r, let g, let b) = color else { return color }
            return .rgb(r / 3, g / 3, b / 3)
        }
        for row in 0..<height where y + row >= 0 && y + row < clipHeight {
            for column in 0..<width where frame.contains(x: x + column, y: y + row) {
                var cell = frame[x + column, y + row]
                cell.style.foreground = darker(cell.style.foreground)
                cell.style.background = darker(cell.style.background)
                if case .indexed = cell.style.foreground { cell.style.attributes.insert(.dim) }
                frame[x + column, y + row] = cell
            }
        }
    }

    /// A decision as a label shows it: `✗ ` rejected, `★3 ` rated, then a dot a colour label.
    static func decisionBadge(_ decision: Decision, withDots: Bool = true) -> String {
        var text = decision.isRejected ? "✗ " : decision.stars > 0 ? "★\(decision.stars) " : ""
        if withDots, !decision.labels.isEmpty { text += String(decision.labels.map { labelGlyphs[$0.rawValue] }) + " " }
        return text
    }

    /// A colour label's glyph: distinct shapes, so labels read without colour (`NO_COLOR`) too.
    static let labelGlyphs: [Character] = ["●", "◆", "▲", "■", "◉"]

    /// What a label starts with: a pair's badge (`RAW+JPG `, `LIVE `), an animation's frame count
    /// (`×12 `), or a video's play mark and, once read, its duration (`▶ 1:23 `).
    static func labelBadge(_ item: Int, state: GalleryState) -> String {
        stackBadge(item, state: state) + pairAndKindBadge(item, state: state)
    }

    /// A stack's count on its tile (`▣ 12`), or, open, each frame's place in it (`▣ 3/12`).
    static func stackBadge(_ item: Int, state: GalleryState) -> String {
        let id = state.library.id(at: item)
        guard let shown = state.library.stacks[id] != nil ? id : state.library.stackOf[id], let frames = state.library.stacks[shown] else { return "" }
        guard state.library.isOpen(shown), let place = frames.firstIndex(of: id) else { return "▣ \(frames.count) " }
        return "▣ \(place + 1)/\(frames.count) "
    }

    static func pairAndKindBadge(_ item: Int, state: GalleryState) -> String {
        if let badge = state.library[item].pairBadge { return badge + " " }
        let metadata = state.metadataState.results[state.library.id(at: item)]?.metadata
        if let frames = metadata?.frameCount { return "×\(frames) " }
        guard state.library[item].format.isVideo else { return "" }
        let duration = metadata?.video?.duration
        return "▶ " + (duration.map { durationText($0) + " " } ?? "")
    }

    /// A duration as a clock shows it: `0:07`, `1:23`, `1:02:03`.
    static func durationText(_ seconds: Double) -> String {
        let total = seconds.isFinite ? Int(min(max(0, seconds), 359_999_999)) : 0
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    /// A rectangle in content coordinates, on the screen: scrolled along the layout's axis, and
    /// moved right by the grid's inset.
    static func screenFrame(_ rect: Rect, state: GalleryState) -> Rect {
        state.layout.axis == .vertical
            ? Rect(x: rect.x + GalleryState.gridInset, y: rect.y - state.viewport.offset, width: rect.width, height: rect.height)
            : Rect(x: rect.x - state.viewport.offset + GalleryState.gridInset, y: rect.y, width: rect.width, height: rect.height)
    }

    /// The thumbnail fitted and letterboxed in the box, two pixels a cell with upper half blocks.
    /// A thumbnail of another size (while the right one decodes) is scaled, nearest pixel.
    static func drawPicture(
        _ image: Thumbnail, x: Int, y: Int, width: Int, height: Int, alignment: GridItem.Alignment = .center,
        palette: Palette, into frame: inout Frame, clipHeight: Int
    ) {
        let boxWidth = width, boxHeight = height * 2
        let (drawnWidth, drawnHeight) =
            image.width * boxHeight >= image.height * boxWidth
            ? (boxWidth, max(1, image.height * boxWidth / image.width))
            : (max(1, image.width * boxHeight / image.height), boxHeight)
        let left = alignment.offset(of: drawnWidth, in: boxWidth)
        let top = (boxHeight - drawnHeight) / 2
        drawHalfBlocks(
            image, drawn: PixelSize(width: drawnWidth, height: drawnHeight), originX: -left, originY: -top,
            x: x, y: y, width: width, height: height, palette: palette, into: &frame, clipHeight: clipHeight)
    }

    /// `image` scaled (nearest pixel) to `drawn`, in upper half blocks (two pixels a cell) over
    /// the box of `width` x `height` cells at (x, y), the drawn picture's pixel (originX, originY)
    /// at the box's top-left: where the box shows no picture, letterbox; `detail` (a part of the
    /// photo at full resolution) over `image` where it covers.
    static func drawHalfBlocks(
        _ image: Thumbnail, drawn: PixelSize, originX: Int, originY: Int, x: Int, y: Int, width: Int, height: Int,
        palette: Palette, into frame: inout Frame, clipHeight: Int, clipping: ClippingThresholds? = nil,
        detail: (picture: Thumbnail, region: PhotoRegion)? = nil
    ) {
        if let detail {
            // The part over the picture, made into the box's own pixels first.
            let view = PixelSize(width: width, height: height * 2)
            let pixels = viewPixels(
                image, drawn: drawn, originX: originX, originY: originY, view: view, letterbox: palette.letterbox, clipping: clipping, detail: detail)
            return drawHalfBlocks(
                Thumbnail(width: view.width, height: view.height, pixels: pixels), drawn: view, originX: 0, originY: 0, x: x, y: y, width: width,
                height: height, palette: palette, into: &frame, clipHeight: clipHeight)
        }
        func color(_ px: Int, _ py: Int) -> TerminalColor {
            let dx = originX + px, dy = originY + py
            guard dx >= 0, dx < drawn.width, dy >= 0, dy < drawn.height else { return palette.letterboxColor }
            let (r, g, b) = image.pixel(x: dx * image.width / drawn.width, y: dy * image.height / drawn.height)
            if let clipping {
                let (mr, mg, mb) = clipping.mark(r, g, b)
                return .rgb(mr, mg, mb)
            }
            return .rgb(r, g, b)
        }
        for row in 0..<height where y + row >= 0 && y + row < clipHeight {
            for column in 0..<width where frame.contains(x: x + column, y: y + row) {
                let upper = color(column, row * 2), lower = color(column, row * 2 + 1)
                frame[x + column, y + row] =
                    upper == lower
                    ? Cell(" ", style: CellStyle(background: lower))
                    : Cell("▀", style: CellStyle(foreground: upper, background: lower))
            }
        }
    }

    /// A picture rendered as symbols by libchafa, placed in its box like `drawPicture` places pixels.
    static func drawCells(
        _ cells: SymbolCells, x: Int, y: Int, width: Int, height: Int, alignment: GridItem.Alignment,
        palette: Palette, into frame: inout Frame, clipHeight: Int
    ) {
        fillBox(x: x, y: y, width: width, height: height, style: palette.letterboxCell.style, into: &frame, clipHeight: clipHeight)
        let left = x + alignment.offset(of: cells.columns, in: width), top = y + (height - cells.rows) / 2
        for row in 0..<cells.rows where top + row >= 0 && top + row < clipHeight {
            for column in 0..<cells.columns where frame.contains(x: left + column, y: top + row) {
                let cell = cells.cell(x: column, y: row)
                func color(_ value: UInt32) -> TerminalColor {
                    cells.depth == .trueColor
                        ? .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
                        : .indexed(UInt8(value & 0xFF))
                }
                frame[left + column, top + row] = Cell(
                    String(cell.glyph),
                    style: CellStyle(
                        foreground: color(cell.foreground),
                        background: color(cell.background)))
            }
        }
    }

    /// A picture the terminal shows in pixels, placed in its box: kitty placeholders, or cells
    /// for sixel to paint over (see `Frame.clipImages()`). False when it does not fit the box
    /// (a stand-in of another size), for the caller to draw it otherwise.
    /// Set in a picture's serial for its dimmed copy (a rejected photo's), so the terminal holds
    /// the two as different pictures; serials never reach it.
    static let dimmedSerialBit: UInt32 = 1 << 31

    static func drawImage(
        _ image: Thumbnail, id: UInt32, state: GalleryState, x: Int, y: Int, width: Int, height: Int,
        alignment: GridItem.Alignment, into frame: inout Frame, clipHeight: Int
    ) -> Bool {
        let palette = state.palette
        let cell = state.pictures.cellPixels
        let columns = (image.width + cell.width - 1) / cell.width, rows = (image.height + cell.height - 1) / cell.height
        guard columns <= width, rows <= height, columns <= KittyGraphics.maxCells, rows <= KittyGraphics.maxCells else { return false }
        fillBox(x: x, y: y, width: width, height: height, style: palette.letterboxCell.style, into: &frame, clipHeight: clipHeight)
        let left = x + alignment.offset(of: columns, in: width), top = y + (height - rows) / 2
        // Scrolled so far that only the label shows, none of the picture does (an empty range).
        let firstShown = min(rows, max(0, -top))
        let shown = firstShown..<max(firstShown, min(rows, clipHeight - top))
        place(
            FrameImage(
                id: id, pixelWidth: image.width, pixelHeight: image.height, pixels: image.pixels,
                x: left, y: top, columns: columns, rows: rows, visibleRows: shown), state: state, into: &frame)
        return true
    }

    /// Puts a picture shown in pixels into the frame: in kitty mode its placeholder cells over the
    /// rows it shows, and the picture itself for the backend (when any of it shows).
    static func place(_ image: FrameImage, state: GalleryState, into frame: inout Frame) {
        if state.pictures.graphics.pixelProtocol?.showsThroughCells == true {
            let direct = state.pictures.colorDepth == .trueColor
            for row in image.visibleRows {
                for column in 0..<image.columns where frame.contains(x: image.x + column, y: image.y + row) {
                    frame[image.x + column, image.y + row] = KittyGraphics.placeholderCell(id: image.id, row: row, column: column, directColor: direct)
                }
            }
        }
        if !image.visibleRows.isEmpty { frame.images.append(image) }
    }

    /// A box still loading: `⋯`, or `offline` when its mount is not answering.
    static func drawPlaceholder(
        x: Int, y: Int, width: Int, height: Int, palette: Palette, into frame: inout Frame, clipHeight: Int, offline: Bool = false
    ) {
        fillBox(x: x, y: y, width: width, height: height, style: palette.placeholder, into: &frame, clipHeight: clipHeight)
        let mid = y + height / 2
        guard mid >= 0 && mid < clipHeight else { return }
        if offline && width >= 9 {
            frame.write("offline", x: x + (width - 7) / 2, y: mid, style: palette.placeholder)
        } else {
            frame.write(offline ? "▲" : "⋯", x: x + width / 2, y: mid, style: palette.placeholder)
        }
    }

    static func drawBroken(_ reason: String, x: Int, y: Int, width: Int, height: Int, palette: Palette, into frame: inout Frame, clipHeight: Int) {
        fillBox(x: x, y: y, width: width, height: height, style: palette.broken, into: &frame, clipHeight: clipHeight)
        let mid = y + height / 2
        if mid >= 0 && mid < clipHeight {
            let text = width >= 10 ? "✗ broken" : "✗"
            frame.write(text, x: x + max(0, (width - DisplayWidth.of(text)) / 2), y: mid, style: palette.broken, maxWidth: width)
        }
    }

    static func fillBox(x: Int, y: Int, width: Int, height: Int, style: CellStyle, into frame: inout Frame, clipHeight: Int) {
        let top = max(0, y), bottom = min(clipHeight, y + height)
        guard top < bottom else { return }
        frame.fill(x: x, y: top, width: width, height: bottom - top, with: Cell(" ", style: style))
    }
}
