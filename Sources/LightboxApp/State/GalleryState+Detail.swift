import LightboxThumbnails

/// The zoomed preview of a photo larger than a whole decode can be (`previewPixelLimit` a side):
/// the part in view (and some around it, for the next pans) is decoded at full resolution, drawn
/// over the fitted picture, which shows until it comes.
extension GalleryState {
    /// The cursor photo's size as shown (turned), from its metadata; nil until it is read.
    func shownSize(at position: Int) -> PixelSize? { shownSize(of: library.id(at: position)) }

    /// A photo's size as shown (turned), from its metadata; nil until it is read.
    func shownSize(of id: ItemID) -> PixelSize? {
        guard var size = metadataState.results[id]?.size, size.width > 0, size.height > 0 else { return nil }
        if (viewTurns[id] ?? 0) % 2 == 1 { size = PixelSize(width: size.height, height: size.width) }
        return size
    }

    /// Where the camera focused on photo `id`, as fractions of it as shown (its orientation and
    /// the view's turns applied), when its maker note says; and which tag said it.
    func focusCentre(of id: ItemID) -> (x: Double, y: Double, source: String)? {
        guard let result = metadataState.results[id], let point = result.metadata?.focusPoint else { return nil }
        let orientation = result.metadata?.orientation ?? 1
        var focus = point
        // Without a frame of its own the point is in the photo's pixels, as stored.
        if focus.width == nil || focus.height == nil, let size = result.size {
            (focus.width, focus.height) = orientation >= 5 ? (size.height, size.width) : (size.width, size.height)
        }
        guard let (fx, fy) = focus.fractions else { return nil }
        // A point of the stored picture, oriented, then turned: each the inverse of what undoes it.
        let inverse = [0, 1, 2, 3, 4, 5, 8, 7, 6]
        let stored = PhotoRegion(x: Int(fx * Double(PhotoRegion.one)), y: Int(fy * Double(PhotoRegion.one)), width: 1, height: 1)
        let upright = stored.source(underOrientation: inverse[min(8, max(1, orientation))])
        let shown = upright.source(underOrientation: inverse[[1, 6, 3, 8][(viewTurns[id] ?? 0) & 3]])
        let one = Double(PhotoRegion.one)
        return ((Double(shown.x) + 0.5) / one, (Double(shown.y) + 0.5) / one, point.source)
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
        return Self.needsDetail(size, drawn: drawn)
    }

    /// The part of the photo the view shows, as fractions of it.
    var previewVisibleRegion: PhotoRegion? {
        guard let preview, let size = shownSize(at: viewport.cursor) else { return nil }
        return Self.visibleRegion(originX: preview.panX, originY: preview.panY, drawn: previewDrawnSize(of: size), view: previewView)
    }

    /// The part of a picture drawn at `drawn` that a view of `view` whose top-left is on its
    /// pixel (`originX`, `originY`) shows, as fractions of it (all of a side smaller than the view).
    static func visibleRegion(originX: Int, originY: Int, drawn: PixelSize, view: PixelSize) -> PhotoRegion {
        func span(_ origin: Int, _ drawn: Int, _ view: Int) -> (Double, Double) {
            guard drawn > view else { return (0, 1) }
            let start = Double(max(0, min(origin, drawn - view)))
            return (start / Double(drawn), (start + Double(view)) / Double(drawn))
        }
        let (x0, x1) = span(originX, drawn.width, view.width), (y0, y1) = span(originY, drawn.height, view.height)
        return PhotoRegion(fromX: x0, y: y0, toX: x1, y: y1)
    }

    /// Keeps the preview's part at full resolution covering the view: the one asked for stays
    /// while the view is inside it at its scale; else a new one, the view and as much again
    /// around it (within a decode's size), is asked for.
    mutating func keepDetailInView() {
        guard var current = preview else { return }
        guard previewUsesDetail, let visible = previewVisibleRegion, let size = shownSize(at: viewport.cursor), let drawn = previewDrawnPixels else {
            if current.detail != nil {
                current.detail = nil
                current.lastDetail = nil
                preview = current
            }
            return
        }
        guard let detail = Self.detail(covering: visible, of: size, drawnWidth: drawn.width, current: current.detail) else { return }
        current.lastDetail = current.detail
        current.detail = detail
        preview = current
    }

    /// The part to decode for a view showing `visible` of a photo of `size` drawn `drawnWidth`
    /// screen pixels wide: nil when `current` still covers it at its scale, else the view and as
    /// much again around it (within a decode's size), at the view's scale (never above the
    /// photo's own).
    static func detail(covering visible: PhotoRegion, of size: PixelSize, drawnWidth: Int, current: Preview.Detail?) -> Preview.Detail? {
        let scale = min(1, Double(drawnWidth) / Double(max(1, size.width)))
        if let current, current.region.contains(visible), abs(current.scale - scale) < 0.001 { return nil }
        let limit = Double(previewPixelLimit)
        func around(_ start: Int, _ length: Int, _ side: Int) -> (Int, Int) {
            let most = Int(limit / (Double(side) * scale) * Double(PhotoRegion.one))
            let wanted = min(PhotoRegion.one, max(length, min(length * 2, most)))
            let begin = max(0, min(PhotoRegion.one - wanted, start + length / 2 - wanted / 2))
            return (begin, wanted)
        }
        let (x, width) = around(visible.x, visible.width, size.width), (y, height) = around(visible.y, visible.height, size.height)
        let region = PhotoRegion(x: x, y: y, width: width, height: height)
        func side(_ part: Int, _ whole: Int) -> Int {
            max(1, min(previewPixelLimit, Int((Double(part * whole) / Double(PhotoRegion.one) * scale).rounded())))
        }
        return Preview.Detail(region: region, box: PixelSize(width: side(region.width, size.width), height: side(region.height, size.height)), scale: scale)
    }

    /// Whether a photo of `size` drawn at `drawn` screen pixels needs parts at full resolution:
    /// both are larger than a whole decode can be.
    static func needsDetail(_ size: PixelSize, drawn: PixelSize) -> Bool {
        max(size.width, size.height) > previewPixelLimit && max(drawn.width, drawn.height) > previewPixelLimit
    }

    /// The cache key of a part of the cursor photo.
    func detailKey(_ detail: Preview.Detail) -> ThumbnailKey {
        ThumbnailKey(file: library[viewport.cursor], box: detail.box, turns: turns(at: viewport.cursor), region: detail.region)
    }

    /// The part of the photo at full resolution the zoomed preview draws over its fitted picture,
    /// when one has come: the one asked for, else the one before it (while the new one decodes).
    public var previewDetail: (picture: Thumbnail, region: PhotoRegion)? {
        guard let preview, previewUsesDetail else { return nil }
        return cachedPart([preview.detail, preview.lastDetail], key: detailKey)
    }

    /// The decode the zoomed preview's part needs, when it has not come.
    var detailDemand: [DecodeRequest] {
        guard let detail = preview?.detail, previewUsesDetail else { return [] }
        return partRequest(item: viewport.cursor, detail: detail, key: detailKey(detail)).map { [$0] } ?? []
    }

    /// The first of `details` (the part asked for, the one before) whose picture has come.
    func cachedPart(_ details: [Preview.Detail?], key: (Preview.Detail) -> ThumbnailKey) -> (picture: Thumbnail, region: PhotoRegion)? {
        for detail in details.compactMap({ $0 }) {
            if let picture = store.cache.peek(key(detail)) { return (picture, detail.region) }
        }
        return nil
    }

    /// The decode of `detail` of the photo at `item`, cached under `key`: nil when it has come or could not be decoded.
    func partRequest(item: Int, detail: Preview.Detail, key: ThumbnailKey) -> DecodeRequest? {
        guard store.isWanted(key) else { return nil }
        var request = decodeRequest(item: item, box: detail.box, symbolsAllowed: false)
        request.region = detail.region
        return request
    }

    // MARK: Compare

    /// How pane `index` shows its photo (in `compareUnit` pixels), when its size is read.
    func compareZoomedView(ofPane index: Int) -> (size: PixelSize, view: ZoomedView)? {
        guard let compare, compare.shown.indices.contains(index), let size = shownSize(of: compare.shown[index]) else { return nil }
        let view = ZoomedView(picture: size, view: compareView(ofPane: index), zoom: compareZoom(ofPane: index), centre: compare.centre(ofPane: index))
        return (size, view)
    }

    /// Whether pane `index` shows parts of its photo at full resolution over its fitted picture.
    func compareUsesDetail(ofPane index: Int) -> Bool {
        guard let compare, compare.zoom > 1 || compare.isActualSize, let shown = compareZoomedView(ofPane: index) else { return false }
        return Self.needsDetail(shown.size, drawn: shown.view.drawn)
    }

    /// Keeps each pane's part at full resolution covering its view, as the preview does its own.
    mutating func keepCompareDetailsInView() {
        guard var current = compare else { return }
        for (index, id) in current.shown.enumerated() {
            guard compareUsesDetail(ofPane: index), let shown = compareZoomedView(ofPane: index) else {
                current.details[id] = nil
                current.lastDetails[id] = nil
                continue
            }
            let view = shown.view
            let visible = Self.visibleRegion(originX: view.originX, originY: view.originY, drawn: view.drawn, view: compareView(ofPane: index))
            guard let detail = Self.detail(covering: visible, of: shown.size, drawnWidth: view.drawn.width, current: current.details[id]) else { continue }
            current.lastDetails[id] = current.details[id]
            current.details[id] = detail
        }
        if current != compare { compare = current }
    }

    /// The cache key of a part of pane `index`'s photo.
    func compareDetailKey(ofPane index: Int, _ detail: Preview.Detail) -> ThumbnailKey {
        let id = compare!.shown[index]
        return ThumbnailKey(file: library.file(id), box: detail.box, turns: viewTurns[id] ?? 0, region: detail.region)
    }

    /// The part of pane `index`'s photo at full resolution drawn over its fitted picture, when one
    /// has come: the one asked for, else the one before it.
    public func compareDetail(ofPane index: Int) -> (picture: Thumbnail, region: PhotoRegion)? {
        guard let compare, compare.shown.indices.contains(index), compareUsesDetail(ofPane: index) else { return nil }
        let id = compare.shown[index]
        return cachedPart([compare.details[id], compare.lastDetails[id]]) { compareDetailKey(ofPane: index, $0) }
    }

    /// The decode a pane's part needs, when it has not come.
    func compareDetailDemand(ofPane index: Int) -> DecodeRequest? {
        guard let compare, compare.shown.indices.contains(index), compareUsesDetail(ofPane: index), let detail = compare.details[compare.shown[index]]
        else { return nil }
        let position = library.position(of: compare.shown[index])
        guard position >= 0 else { return nil }
        return partRequest(item: position, detail: detail, key: compareDetailKey(ofPane: index, detail))
    }
}
