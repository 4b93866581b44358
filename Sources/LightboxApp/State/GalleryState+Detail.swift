import LightboxThumbnails

/// The zoomed preview of a photo larger than a whole decode can be (`previewPixelLimit` a side):
/// the part in view (and some around it, for the next pans) is decoded at full resolution, drawn
/// over the fitted picture, which shows until it comes.
extension GalleryState {
    /// The cursor photo's size as shown (turned), from its metadata; nil until it is read.
    func shownSize(at position: Int) -> PixelSize? {
        guard var size = metadataState.results[library.id(at: position)]?.size else { return nil }
        if turns(at: position) % 2 == 1 { size = PixelSize(width: size.height, height: size.width) }
        return size
    }

    /// Screen pixels a cell of the preview has: the terminal's in a pixel mode, two half blocks else.
    var previewCell: PixelSize { pictures.graphics.isPixels ? pixelsPerCell : PixelSize(width: 1, height: 2) }

    /// The zoomed photo's size in screen pixels (nil when its size is not known).
    var previewDrawnPixels: PixelSize? {
        guard preview != nil, !library.isEmpty, let size = shownSize(at: viewport.cursor) else { return nil }
        let units = previewDrawnSize(of: size), cell = previewCell
        return PixelSize(width: units.width * cell.width, height: units.height * cell.height / 2)
    }

    /// Whether the zoomed preview needs parts at full resolution: the photo and the zoomed
    /// picture are both larger than a whole decode can be.
    var previewUsesDetail: Bool {
        guard let preview, preview.zoom > 1, let size = shownSize(at: viewport.cursor), let drawn = previewDrawnPixels else { return false }
        let limit = Self.previewPixelLimit
        return max(size.width, size.height) > limit && max(drawn.width, drawn.height) > limit
    }

    /// The part of the photo the view shows, as fractions of it.
    var previewVisibleRegion: PhotoRegion? {
        guard let preview, let size = shownSize(at: viewport.cursor) else { return nil }
        let drawn = previewDrawnSize(of: size), view = previewView
        func span(_ pan: Int, _ drawn: Int, _ view: Int) -> (Double, Double) {
            guard drawn > view else { return (0, 1) }
            let start = Double(max(0, min(pan, drawn - view)))
            return (start / Double(drawn), (start + Double(view)) / Double(drawn))
        }
        let (x0, x1) = span(preview.panX, drawn.width, view.width), (y0, y1) = span(preview.panY, drawn.height, view.height)
        return PhotoRegion(fromX: x0, y: y0, toX: x1, y: y1)
    }

    /// Keeps the preview's part at full resolution covering the view: the one asked for stays
    /// while the view is inside it at its scale; else a new one, the view and as much again
    /// around it (within a decode's size), is asked for.
    mutating func keepDetailInView() {
        guard var current = preview else { return }
        guard previewUsesDetail, let visible = previewVisibleRegion, let size = shownSize(at: viewport.cursor),
            let drawn = previewDrawnPixels
        else {
            if current.detail != nil {
                current.detail = nil
                current.lastDetail = nil
                preview = current
            }
            return
        }
        // Decoded at the view's scale, never above the photo's own.
        let scale = min(1, Double(drawn.width) / Double(size.width))
        if let detail = current.detail, detail.region.contains(visible), abs(detail.scale - scale) < 0.001 { return }
        let limit = Double(Self.previewPixelLimit)
        func around(_ start: Int, _ length: Int, _ side: Int) -> (Int, Int) {
            // Twice the view, no more than a decode holds, held to the photo.
            let most = Int(limit / (Double(side) * scale) * Double(PhotoRegion.one))
            let wanted = min(PhotoRegion.one, max(length, min(length * 2, most)))
            let begin = max(0, min(PhotoRegion.one - wanted, start + length / 2 - wanted / 2))
            return (begin, wanted)
        }
        let (x, width) = around(visible.x, visible.width, size.width), (y, height) = around(visible.y, visible.height, size.height)
        let region = PhotoRegion(x: x, y: y, width: width, height: height)
        let box = PixelSize(
            width: max(1, min(Self.previewPixelLimit, Int((Double(region.width * size.width) / Double(PhotoRegion.one) * scale).rounded()))),
            height: max(1, min(Self.previewPixelLimit, Int((Double(region.height * size.height) / Double(PhotoRegion.one) * scale).rounded()))))
        current.lastDetail = current.detail
        current.detail = Preview.Detail(region: region, box: box, scale: scale)
        preview = current
    }

    /// The cache key of a part of the cursor photo.
    func detailKey(_ detail: Preview.Detail) -> ThumbnailKey {
        ThumbnailKey(file: library[viewport.cursor], box: detail.box, turns: turns(at: viewport.cursor), region: detail.region)
    }

    /// The part of the photo at full resolution the zoomed preview draws over its fitted picture,
    /// when one has come: the one asked for, else the one before it (while the new one decodes).
    public var previewDetail: (picture: Thumbnail, region: PhotoRegion)? {
        guard let preview, previewUsesDetail else { return nil }
        for detail in [preview.detail, preview.lastDetail].compactMap({ $0 }) {
            if let picture = store.cache.peek(detailKey(detail)) { return (picture, detail.region) }
        }
        return nil
    }

    /// The decode the zoomed preview's part needs, when it has not come.
    var detailDemand: [DecodeRequest] {
        guard let detail = preview?.detail, previewUsesDetail, case let key = detailKey(detail), store.cache.peek(key) == nil,
            !store.failedParts.contains(key)
        else { return [] }
        var request = decodeRequest(item: viewport.cursor, box: detail.box, symbolsAllowed: false)
        request.region = detail.region
        return [request]
    }
}
