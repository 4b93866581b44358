import Foundation
import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

extension GalleryView {
    /// Compare: each photo in its pane (`CompareLayout`), zoomed and panned as the state says,
    /// a caption under each (the focused one's highlighted), the set and zoom in the status line.
    static func drawCompare(_ state: GalleryState, into frame: inout Frame) {
        let palette = state.palette
        guard let compare = state.compare else { return }
        let height = max(0, frame.height - 1)
        frame.fill(x: 0, y: 0, width: frame.width, height: height, with: Cell(" ", style: palette.overlay))
        let panes = state.comparePanes
        for (index, pane) in panes.enumerated() where compare.shown.indices.contains(index) {
            let picture = CompareLayout.picture(of: pane)
            drawComparePicture(state, pane: index, in: picture, clipHeight: height, into: &frame)
            drawCaption(state, pane: index, at: Rect(x: pane.x, y: picture.maxY, width: pane.width, height: 1), into: &frame)
        }
        if panes.isEmpty {
            drawCentered(["Terminal too small", "to compare"], in: &frame, height: height, palette: palette)
        }
        if let panel = state.exposurePanel { drawExposurePanel(state, in: panel, into: &frame) }
        let y = frame.height - 1
        frame.fill(x: 0, y: y, width: frame.width, height: 1, with: Cell(" ", style: palette.status))
        let waiting = compare.waitingCount
        let left = " compare \(compare.focus + 1)/\(compare.shown.count)" + (waiting > 0 ? " +\(waiting)" : "") + "  "
        let zoom = compare.isActualSize ? "  100%" : compare.zoom > 1 ? "  " + GalleryState.zoomText(compare.zoom) : ""
        let right = zoom + "  Esc grid "
        let x = frame.write(left, x: 0, y: y, style: palette.status)
        let room = max(0, frame.width - x - DisplayWidth.of(right))
        let text =
            state.message.map { DisplayText.truncatedMiddle(DisplayText.sanitized($0), toWidth: room) }
            ?? DisplayText.shortened(bytes: state.library.file(compare.focused).path.bytes, toWidth: room)
        frame.write(text, x: x, y: y, style: palette.status)
        frame.write(right, x: max(0, frame.width - DisplayWidth.of(right)), y: y, style: palette.status)
    }

    /// Pane `index`'s photo in `area`: its own picture in pixels when it fits unzoomed, else the
    /// part in view cropped from the picture decoded (pixels) or drawn in half blocks; chafa's
    /// cells unzoomed in the symbol modes.
    static func drawComparePicture(_ state: GalleryState, pane index: Int, in area: Rect, clipHeight: Int, into frame: inout Frame) {
        let palette = state.palette
        guard let compare = state.compare, area.width > 0, area.height > 0 else { return }
        let id = compare.shown[index], position = state.library.position(of: id)
        let key = state.compareKey(ofPane: index), zoom = state.compareZoom(ofPane: index)
        let centre = compare.centre(ofPane: index)
        let pixels = state.pictures.graphics.isPixels
        let clipping = state.exposure.showsClipping ? state.exposure.thresholds : nil
        frame.fill(x: area.x, y: area.y, width: area.width, height: area.height, with: palette.letterboxCell)
        if position < 0 {
            let text = DisplayText.truncatedMiddle("hidden by the filter", toWidth: area.width)
            frame.write(text, x: area.x + max(0, (area.width - DisplayWidth.of(text)) / 2), y: area.y + area.height / 2, style: palette.placeholder)
        } else if let reason = state.failure(at: position) {
            drawBroken(reason, x: area.x, y: area.y, width: area.width, height: area.height, palette: palette, into: &frame, clipHeight: clipHeight)
        } else if pixels, zoom == 1, clipping == nil, let image = state.store.cache.peek(key), let serial = state.store.cache.serial(of: key),
            drawImage(
                image, id: state.imageID(serial: serial), state: state, x: area.x, y: area.y, width: area.width, height: area.height,
                alignment: .center, into: &frame, clipHeight: clipHeight)
        {
            // Drawn in pixels.
        } else if pixels, let image = state.store.cache.closest(to: key) {
            drawCrop(
                image, state: state, id: state.compareImageID(ofPane: index), zoom: zoom, centre: centre, clipping: clipping,
                detail: state.compareDetail(ofPane: index), in: area, into: &frame)
        } else if !pixels, zoom == 1, clipping == nil, let image = state.store.cache.closest(to: key), let cells = image.cells,
            cells.matches(state.symbols, state.pictures.colorDepth), cells.columns <= area.width, cells.rows <= area.height
        {
            drawCells(
                cells, x: area.x, y: area.y, width: area.width, height: area.height, alignment: .center, palette: palette, into: &frame,
                clipHeight: clipHeight)
        } else if let image = state.store.cache.closest(to: key) {
            let pane = PixelSize(width: area.width, height: area.height * 2)
            let view = ZoomedView(picture: PixelSize(width: image.width, height: image.height), view: pane, zoom: zoom, centre: centre)
            drawHalfBlocks(
                image, drawn: view.drawn, originX: view.originX, originY: view.originY, x: area.x, y: area.y, width: area.width,
                height: area.height, palette: palette, into: &frame, clipHeight: clipHeight, clipping: clipping, detail: state.compareDetail(ofPane: index))
        } else {
            drawPlaceholder(x: area.x, y: area.y, width: area.width, height: area.height, palette: palette, into: &frame, clipHeight: clipHeight)
        }
    }

    /// The part of `image` a pane shows at `zoom` about `centre` (`detail`, a part of the photo at
    /// full resolution, over it), as one picture of the pane's pixels made for this frame
    /// (letterbox where the photo is not).
    /// - Complexity: O(*w* × *h*) in the pane's pixels.
    static func drawCrop(
        _ image: Thumbnail, state: GalleryState, id: UInt32, zoom: Double, centre: PhotoPoint, clipping: ClippingThresholds? = nil,
        detail: (picture: Thumbnail, region: PhotoRegion)? = nil, in area: Rect, into frame: inout Frame
    ) {
        guard area.width <= KittyGraphics.maxCells, area.height <= KittyGraphics.maxCells else { return }
        let cell = state.pictures.cellPixels
        let viewWidth = area.width * cell.width, viewHeight = area.height * cell.height
        let view = ZoomedView(
            picture: PixelSize(width: image.width, height: image.height), view: PixelSize(width: viewWidth, height: viewHeight), zoom: zoom, centre: centre)
        let pixels = viewPixels(
            image, drawn: view.drawn, originX: view.originX, originY: view.originY, view: PixelSize(width: viewWidth, height: viewHeight),
            letterbox: state.palette.letterbox, clipping: clipping, detail: detail)
        place(
            FrameImage(
                id: id, pixelWidth: viewWidth, pixelHeight: viewHeight, pixels: pixels, x: area.x, y: area.y,
                columns: area.width, rows: area.height, visibleRows: 0..<area.height, isTransient: true), state: state, into: &frame)
    }

    /// A pane's caption: its mark, decision, name and exposure, and its zoom when it is its own;
    /// the focused pane's in the cursor's colours.
    static func drawCaption(_ state: GalleryState, pane index: Int, at rect: Rect, into frame: inout Frame) {
        let palette = state.palette
        guard let compare = state.compare, rect.width > 0 else { return }
        let id = compare.shown[index], position = state.library.position(of: id)
        let isFocused = index == compare.focus, isMarked = position >= 0 && state.selection.marks.contains(position)
        let decision = state.decisions[id]
        let style = isFocused ? (isMarked ? palette.cursorMarkedLabel : palette.cursorLabel) : (isMarked ? palette.markedLabel : palette.overlay)
        frame.fill(x: rect.x, y: rect.y, width: rect.width, height: 1, with: Cell(" ", style: style))
        var details: [String] = []
        if let exif = state.metadataState.results[id]?.metadata {
            if let exposure = exif.exposure { details.append(exposureText(exposure)) }
            if let f = exif.fNumber { details.append(String(format: "f/%.1f", f)) }
            if let iso = exif.iso { details.append("ISO \(iso)") }
        }
        if compare.isActualSize, let size = state.metadataState.results[id]?.size {
            // At 100% a pane says when its photo is shown smaller than that (the zoom's limit).
            let fit = ZoomedView.fitted(size, in: state.compareView(ofPane: index))
            let percent = Int((Double(fit.width) * state.compareZoom(ofPane: index) / Double(size.width) * 100).rounded())
            if percent < 99 { details.append("\(percent)%") }
        }
        let prefix = (isFocused ? "▶ " : "  ") + (isMarked ? "✓ " : "") + decisionBadge(decision)
        // The name first: the exposure only where it fits beside the whole name.
        let name = state.library.file(id).path.lastComponent
        let whole = DisplayText.shortened(bytes: name, toWidth: rect.width + 1)
        var suffix = details.isEmpty ? "" : "  " + details.joined(separator: " ")
        if DisplayWidth.of(prefix + whole + suffix) > rect.width { suffix = "" }
        let room = max(1, rect.width - DisplayWidth.of(prefix) - DisplayWidth.of(suffix))
        let text = prefix + DisplayText.shortened(bytes: name, toWidth: room) + suffix
        frame.write(text, x: rect.x, y: rect.y, style: style, maxWidth: rect.width)
    }
}
