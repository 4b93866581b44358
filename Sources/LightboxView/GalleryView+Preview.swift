import LightboxApp
import LightboxTerminal
import LightboxThumbnails

extension GalleryView {
    /// The pictures the next frames are likely to show: the preview's, as it will look after a
    /// flip to each neighbour whose picture is decoded, nearest first, for the terminal to make
    /// ready (`CursesTerminal.prepareAhead`).
    /// - Complexity: a frame's drawing for each neighbour (three at most).
    public static func picturesAhead(for state: GalleryState) -> [FrameImage] {
        state.previewsAhead.flatMap { frame(for: $0).images }
    }

    /// The preview: the cursor photo as large as the screen allows (or zoomed and panned), its
    /// name and place in the status line. A smaller thumbnail shows scaled up until the right
    /// size is decoded.
    static func drawPreview(_ state: GalleryState, into frame: inout Frame) {
        let palette = state.palette
        guard let preview = state.preview else { return }
        let height = max(0, frame.height - 1), width = state.pictureAreaWidth
        frame.fill(x: 0, y: 0, width: width, height: height, with: palette.letterboxCell)
        // Clipping marks are drawn on a copy of the picture made for this frame (or on half blocks).
        let clipping = state.exposure.showsClipping ? state.exposure.thresholds : nil
        // An animation shows its current frame, in pixels under an id of this frame's own.
        let animationFrame = preview.zoom == 1 ? state.animation?.frame(preview.frame) : nil
        if let reason = state.failure(at: state.viewport.cursor) {
            drawBroken(reason, x: 0, y: 0, width: width, height: height, palette: palette, into: &frame, clipHeight: height)
        } else if let image = animationFrame, state.pictures.graphics.isPixels, clipping == nil,
            drawImage(
                image, id: state.previewImageID, state: state, x: 0, y: 0, width: width, height: height,
                alignment: .center, into: &frame, clipHeight: height)
        {
            // Drawn in pixels.
        } else if animationFrame == nil, preview.zoom == 1, clipping == nil, state.pictures.graphics.isPixels,
            let image = state.store.cache.peek(state.previewKey), let serial = state.store.cache.serial(of: state.previewKey),
            drawImage(
                image, id: state.imageID(serial: serial), state: state, x: 0, y: 0, width: width, height: height,
                alignment: .center, into: &frame, clipHeight: height)
        {
            // Drawn in pixels.
        } else if preview.zoom > 1 || clipping != nil, state.pictures.graphics.isPixels,
            let image = animationFrame ?? state.store.cache.peek(state.previewKey),
            drawZoomedImage(image, state: state, width: width, height: height, clipping: clipping, into: &frame)
        {
            // Drawn in pixels.
        } else if animationFrame == nil, preview.zoom == 1, clipping == nil, !state.pictures.graphics.isPixels,
            let image = state.store.cache.closest(to: state.previewKey),
            let cells = image.cells, cells.matches(state.symbols, state.pictures.colorDepth), cells.columns <= width, cells.rows <= height
        {
            drawCells(cells, x: 0, y: 0, width: width, height: height, alignment: .center, palette: palette, into: &frame, clipHeight: height)
        } else if let image = animationFrame ?? state.store.cache.closest(to: state.previewKey) {
            let drawn = state.previewDrawnSize(of: PixelSize(width: image.width, height: image.height))
            // The zoomed picture is centred when smaller than the screen, else seen from the pan.
            let viewWidth = width, viewHeight = height * 2
            let originX = drawn.width <= viewWidth ? -(viewWidth - drawn.width) / 2 : preview.panX
            let originY = drawn.height <= viewHeight ? -(viewHeight - drawn.height) / 2 : preview.panY
            drawHalfBlocks(
                image, drawn: drawn, originX: originX, originY: originY, x: 0, y: 0, width: width, height: height,
                palette: palette, into: &frame, clipHeight: height, clipping: clipping, detail: state.previewDetail)
        } else {
            drawPlaceholder(
                x: 0, y: 0, width: width, height: height, palette: palette, into: &frame, clipHeight: height,
                offline: state.isOffline(at: state.viewport.cursor))
        }
        if let panel = state.exposurePanel { drawExposurePanel(state, in: panel, into: &frame) }
        // Status: place, name, zoom, mark.
        let y = frame.height - 1
        frame.fill(x: 0, y: y, width: frame.width, height: 1, with: Cell(" ", style: palette.status))
        var left = " \(state.viewport.cursor + 1)/\(state.library.count)  "
        if state.selection.marks.contains(state.viewport.cursor) { left += "✓ " }
        let zoom = preview.isActualSize ? "  100%" : preview.zoom > 1 ? "  " + GalleryState.zoomText(preview.zoom) : ""
        let played = state.playedText.map { "  " + $0 } ?? state.animation.map { "  frame \(preview.frame % $0.frameCount + 1)/\($0.frameCount)" }
        let playing = played.map { $0 + (preview.isPaused ? " paused" : "") } ?? ""
        let right = playing + zoom + "  Esc grid "
        let x = frame.write(left, x: 0, y: y, style: palette.status)
        let room = max(0, frame.width - x - DisplayWidth.of(right))
        let text =
            state.message.map { DisplayText.truncatedMiddle(DisplayText.sanitized($0), toWidth: room) }
            ?? DisplayText.shortened(bytes: state.library[state.viewport.cursor].path.bytes, toWidth: room)
        frame.write(text, x: x, y: y, style: palette.status)
        frame.write(right, x: max(0, frame.width - DisplayWidth.of(right)), y: y, style: palette.status)
    }

    /// The zoomed photo in pixels: the part in view, cropped from the picture decoded at the zoom
    /// and placed where the half-block preview would show it, as one picture made for this frame.
    /// False when the screen is too large for a placement.
    /// - Complexity: O(*w* × *h*) in the screen's pixels.
    static func drawZoomedImage(
        _ image: Thumbnail, state: GalleryState, width columns: Int, height rows: Int, clipping: ClippingThresholds?, into frame: inout Frame
    ) -> Bool {
        let palette = state.palette
        guard let preview = state.preview, rows > 0, columns > 0,
            columns <= KittyGraphics.maxCells, rows <= KittyGraphics.maxCells
        else { return false }
        let cell = state.pictures.cellPixels
        let viewWidth = columns * cell.width, viewHeight = rows * cell.height
        // The pan is kept in half-block units (a column, half a row): the same place in pixels.
        let drawnUnits = state.previewDrawnSize(of: PixelSize(width: image.width, height: image.height))
        let drawnWidth = max(1, drawnUnits.width * cell.width), drawnHeight = max(1, drawnUnits.height * cell.height / 2)
        let originX = drawnWidth <= viewWidth ? -(viewWidth - drawnWidth) / 2 : preview.panX * cell.width
        let originY = drawnHeight <= viewHeight ? -(viewHeight - drawnHeight) / 2 : preview.panY * cell.height / 2
        let pixels = viewPixels(
            image, drawn: PixelSize(width: drawnWidth, height: drawnHeight), originX: originX, originY: originY,
            view: PixelSize(width: viewWidth, height: viewHeight), letterbox: palette.letterbox, clipping: clipping,
            detail: state.previewDetail)
        place(
            FrameImage(
                id: state.previewImageID, pixelWidth: viewWidth, pixelHeight: viewHeight, pixels: pixels, x: 0, y: 0,
                columns: columns, rows: rows, visibleRows: 0..<rows, isTransient: true), state: state, into: &frame)
        return true
    }

    /// A view of `view` pixels onto `image` scaled (nearest pixel) to `drawn`, the drawn
    /// picture's pixel (`originX`, `originY`) at its top-left, as RGB: letterbox where the
    /// picture is not, `detail` (a part of the photo at full resolution) over `image` where it
    /// covers, and clipping marked on the picture's pixels only.
    /// - Complexity: O(*w* × *h*) in the view's pixels.
    static func viewPixels(
        _ image: Thumbnail, drawn: PixelSize, originX: Int, originY: Int, view: PixelSize, letterbox: (UInt8, UInt8, UInt8),
        clipping: ClippingThresholds?, detail: (picture: Thumbnail, region: PhotoRegion)? = nil
    ) -> [UInt8] {
        let (lr, lg, lb) = letterbox
        var pixels = [UInt8](repeating: 0, count: view.width * view.height * 3)
        // The part's place on the drawn picture.
        let one = PhotoRegion.one
        let part = detail.map { d in
            (
                picture: d.picture, x0: d.region.x * drawn.width / one, y0: d.region.y * drawn.height / one,
                x1: d.region.maxX * drawn.width / one, y1: d.region.maxY * drawn.height / one
            )
        }
        for y in 0..<view.height {
            let zy = originY + y
            let inside = zy >= 0 && zy < drawn.height
            let sourceRow = inside ? zy * image.height / drawn.height : 0
            let partRow = part.flatMap { p in zy >= p.y0 && zy < p.y1 ? (zy - p.y0) * p.picture.height / max(1, p.y1 - p.y0) : nil }
            for x in 0..<view.width {
                let zx = originX + x, i = (y * view.width + x) * 3
                if let p = part, let row = partRow, zx >= p.x0, zx < p.x1 {
                    let s = (row * p.picture.width + (zx - p.x0) * p.picture.width / max(1, p.x1 - p.x0)) * 3
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = (p.picture.pixels[s], p.picture.pixels[s + 1], p.picture.pixels[s + 2])
                    if let clipping { (pixels[i], pixels[i + 1], pixels[i + 2]) = clipping.mark(pixels[i], pixels[i + 1], pixels[i + 2]) }
                } else if inside && zx >= 0 && zx < drawn.width {
                    let s = (sourceRow * image.width + zx * image.width / drawn.width) * 3
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = (image.pixels[s], image.pixels[s + 1], image.pixels[s + 2])
                    if let clipping { (pixels[i], pixels[i + 1], pixels[i + 2]) = clipping.mark(pixels[i], pixels[i + 1], pixels[i + 2]) }
                } else {
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = (lr, lg, lb)
                }
            }
        }
        return pixels
    }
}
