import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

extension GalleryState {
    /// Opens compare on the marked photos the filter shows (four in panes, the rest waiting for
    /// one), else on the cursor's photo and the next, the photos after them coming in as one is
    /// dropped.
    mutating func openCompare() -> [Effect] {
        guard !library.isEmpty else { return [] }
        let marked = selection.count > 0 ? markedIDs.filter { library.position(of: $0) >= 0 } : []
        let keys = " · Tab: focus · z: 100% · d: drop · Esc: back"
        if marked.count >= 2 {
            let focused = marked.firstIndex(of: library.id(at: viewport.cursor)).flatMap { $0 < CompareLayout.maxPanes ? $0 : nil } ?? 0
            var opened = Compare(shown: marked)
            opened.focus = focused
            compare = opened
            let waiting = marked.count - opened.shown.count
            message = "comparing \(opened.shown.count) marked photos" + (waiting > 0 ? ", \(waiting) waiting" : "") + keys
        } else if let frames = cursorStackFrames() {
            // The cursor's burst: opened in place, its frames compared.
            let id = library.id(at: viewport.cursor)
            var opened = Compare(shown: frames)
            opened.focus = frames.firstIndex(of: id).flatMap { $0 < CompareLayout.maxPanes ? $0 : nil } ?? 0
            compare = opened
            let waiting = frames.count - opened.shown.count
            message = "comparing the burst's \(frames.count) frames" + (waiting > 0 ? " (\(opened.shown.count) at a time)" : "") + keys
        } else {
            guard library.count >= 2 else {
                message = "compare: one photo, nothing to compare it with"
                return []
            }
            let first = min(viewport.cursor, library.count - 2)
            var opened = Compare(shown: [library.id(at: first), library.id(at: first + 1)], followsOrder: true)
            opened.focus = viewport.cursor - first
            compare = opened
            message = "comparing this photo and the next (mark 2 to 4 to choose)" + keys
        }
        return loadEffects() + metadataEffects()
    }

    /// Applies a command in compare: those whose row says `inCompare` (its keys and mouse give no
    /// others; one that came all the same is said, not dropped).
    mutating func applyCompare(_ action: Command) -> [Effect] {
        guard var current = compare else { return [] }
        guard action.traits.contains(.inCompare) else {
            message = "\(CommandTable.row(of: action).name): not in compare (Esc goes back to the grid)"
            return []
        }
        let zoomed = current.zoom > 1 || current.isActualSize
        switch action {
        case .focusPane(let step):
            current.moveFocus(by: step)
            compare = current
        case .pan(let dx, let dy):
            guard zoomed else {
                // Not zoomed: left and right go through the panes.
                if dx != 0 {
                    current.moveFocus(by: dx)
                    compare = current
                }
                break
            }
            current.pan(dx: dx, dy: dy, alone: false, viewFraction: viewFraction(ofPane: current.focus))
            compare = current
        case .drag(let dx, let dy):
            // Every photo follows the pointer by as much of it as the focused pane's cells show.
            guard zoomed, comparePanes.indices.contains(current.focus) else { break }
            let fraction = viewFraction(ofPane: current.focus), cells = CompareLayout.picture(of: comparePanes[current.focus])
            current.move(
                by: PhotoPoint(x: -Double(dx) * fraction.x / Double(max(1, cells.width)), y: -Double(dy) * fraction.y / Double(max(1, cells.height))),
                alone: false, viewFraction: fraction)
            compare = current
        case .panAlone(let dx, let dy):
            guard zoomed else {
                message = "H J K L pan the focused photo alone once zoomed (+ or z)"
                break
            }
            current.pan(dx: dx, dy: dy, alone: true, viewFraction: viewFraction(ofPane: current.focus))
            compare = current
            message = "the focused photo moved alone (arrows move them all)"
        case .zoomIn, .zoomOut:
            let from = current.isActualSize ? compareZoom(ofPane: current.focus) : current.zoom
            current.setZoom(action == .zoomIn ? from * 2 : from / 2)
            compare = current
            message = current.zoom == 1 ? "fit" : "zoom \(Self.zoomText(current.zoom)) on each: arrows pan them together, H J K L one alone"
        case .actualSize:
            if zoomed {
                current.setZoom(1)
                message = "fit"
            } else {
                current.isActualSize = true
                let unknown = current.shown.filter { metadataState.results[$0]?.size == nil }.count
                message =
                    unknown > 0
                    ? "100%: reading the photos' sizes…" : "each at 100%: arrows pan them together, H J K L one alone (z: fit)"
            }
            compare = current
        case .dropFromCompare:
            let dropped = name(of: current.focused)
            let before = Set(current.shown)
            if current.dropFocused(next: nextCandidate(after: current)) {
                let came = current.shown.first { !before.contains($0) }
                compare = current
                message = "dropped \(dropped)" + (came.map { ", " + name(of: $0) + " came in" } ?? "")
            } else {
                // One left: it is the one kept, shown full-screen.
                let kept = library.position(of: current.shown[0])
                compare = nil
                if kept >= 0 { viewport.cursor = kept }
                preview = Preview()
                message = "dropped \(dropped): one left, shown full-screen (C compares again)"
            }
        case .toggleMark, .toggleMarkAndAdvance:
            // By the grid's rules (--multi, --no-multi), on the focused photo; compare stays.
            compare = nil
            let effects = apply(.toggleMark)
            compare = current
            return effects + loadEffects()
        case .rotate(let clockwise):
            turn(clockwise: clockwise)
            compare = current  // its crops come again, turned
        case .openPreview:
            compare = nil
            preview = Preview()
        case .closePreview, .compare:
            compare = nil
            scrollCursorIntoView()
        case .click(let x, let y):
            if let pane = comparePanes.firstIndex(where: { $0.contains(x: x, y: y) }) {
                current.focus = pane
                compare = current
            }
        case .toggleInfo, .toggleHistogram, .toggleClipping: toggleExposure(action)
        case .accept: return [.accept(acceptedPaths)]
        case .cancel: return [.cancel]
        default: break
        }
        return loadEffects() + metadataEffects()
    }

    /// The frames of the stack at the cursor, its stack opened in place when closed (so each
    /// has its place); nil when the cursor is on no stack.
    mutating func cursorStackFrames() -> [ItemID]? {
        let id = library.id(at: viewport.cursor)
        guard let shown = library.stacks[id] != nil ? id : library.stackOf[id], let frames = library.stacks[shown] else { return nil }
        if !library.isOpen(shown) { rearrange { $0.toggleStack(shown) } }
        return frames
    }

    /// A photo's file name, for messages (the status line makes it safe to show).
    func name(of id: ItemID) -> String { String(decoding: library.file(id).path.lastComponent, as: UTF8.self) }

    /// The photo that comes in when one is dropped, following the order: the first after the
    /// last one shown.
    func nextCandidate(after compare: Compare) -> ItemID? {
        let last = compare.shown.map { library.position(of: $0) }.max() ?? -1
        guard last >= 0, last + 1 < library.count else { return nil }
        return library.id(at: last + 1)
    }

    /// Compare's panes on this screen (above the status line), for its photos' shape.
    public var comparePanes: [Rect] {
        guard let compare else { return [] }
        let cell = pictures.cellPixels
        // The photos' shape in cells: their widths over their heights, as turned, on the terminal's cells.
        let shapes = compare.shown.compactMap { id -> Double? in
            let aspect = library.aspect(of: id)
            guard aspect > 0 else { return nil }
            let wide = 1000 / Double(aspect)
            return (viewTurns[id] ?? 0) % 2 == 1 ? 1 / wide : wide
        }
        let shape = shapes.isEmpty ? 1.5 : shapes.reduce(0, +) / Double(shapes.count)
        return CompareLayout.panes(
            count: compare.shown.count, width: pictureAreaWidth, height: screen.height - 1,
            aspect: shape * Double(cell.height) / Double(max(1, cell.width)))
    }

    /// The pixels a pane's picture is measured in a cell: the terminal's in a pixel mode, half
    /// blocks (one across, two down) in the symbol modes.
    var compareUnit: PixelSize {
        pictures.graphics.isPixels ? PixelSize(width: pictures.cellPixels.width, height: pictures.cellPixels.height) : PixelSize(width: 1, height: 2)
    }

    /// Pane `index`'s picture area in `compareUnit` pixels.
    public func compareView(ofPane index: Int) -> PixelSize {
        let panes = comparePanes
        guard panes.indices.contains(index) else { return PixelSize(width: 1, height: 1) }
        let area = CompareLayout.picture(of: panes[index]), unit = compareUnit
        return PixelSize(width: max(1, area.width * unit.width), height: max(1, area.height * unit.height))
    }

    /// The zoom pane `index` shows its photo at, over its fit: the locked zoom, or at 100% its
    /// own (from its size; 1 until that is read), up to `Compare.maxActualZoom`.
    public func compareZoom(ofPane index: Int) -> Double {
        guard let compare, compare.shown.indices.contains(index) else { return 1 }
        guard compare.isActualSize else { return compare.zoom }
        guard let size = shownSize(of: compare.shown[index]) else { return 1 }
        let view = compareView(ofPane: index)
        let fitScale = min(Double(view.width) / Double(size.width), Double(view.height) / Double(size.height))
        guard fitScale < 1 else { return 1 }
        // A photo larger than a decode shows its part in view at full resolution (GalleryState+Detail).
        return max(1, min(1 / fitScale, Compare.maxActualZoom))
    }

    /// How much of its photo's width and height pane `index` shows (1 when it shows it all).
    func viewFraction(ofPane index: Int) -> (x: Double, y: Double) {
        let view = compareView(ofPane: index)
        let shown = ZoomedView(picture: comparePictureSize(ofPane: index), view: view, zoom: compareZoom(ofPane: index), centre: .middle)
        return (min(1, Double(view.width) / Double(shown.drawn.width)), min(1, Double(view.height) / Double(shown.drawn.height)))
    }

    /// The photo's shape for pane `index`: the picture decoded, else its size read, else its pane.
    func comparePictureSize(ofPane index: Int) -> PixelSize {
        if let picture = store.cache.closest(to: compareKey(ofPane: index)) { return PixelSize(width: picture.width, height: picture.height) }
        guard let compare, compare.shown.indices.contains(index), let size = shownSize(of: compare.shown[index]) else { return compareView(ofPane: index) }
        return size
    }

    /// The box pane `index`'s picture is decoded for: its area at the terminal's pixels (chafa's
    /// for symbols, not zoomed; half blocks zoomed), times its zoom, held to a decode's limit.
    func compareBox(ofPane index: Int) -> PixelSize {
        let panes = comparePanes
        guard panes.indices.contains(index) else { return PixelSize(width: 1, height: 1) }
        // Under parts at full resolution, the fitted picture.
        let area = CompareLayout.picture(of: panes[index]), zoom = compareUsesDetail(ofPane: index) ? 1 : compareZoom(ofPane: index)
        let cell = zoom == 1 ? pixelsPerCell : compareUnit
        return PixelSize(
            width: min(Self.previewPixelLimit, Int((Double(max(1, area.width) * cell.width) * zoom).rounded())),
            height: min(Self.previewPixelLimit, Int((Double(max(1, area.height) * cell.height) * zoom).rounded())))
    }

    /// The cache key of pane `index`'s picture.
    public func compareKey(ofPane index: Int) -> ThumbnailKey {
        guard let compare, compare.shown.indices.contains(index) else { return ThumbnailKey(file: library[viewport.cursor], box: previewBox) }
        let id = compare.shown[index]
        return ThumbnailKey(file: library.file(id), box: compareBox(ofPane: index), turns: viewTurns[id] ?? 0)
    }

    /// The kitty image id of pane `index`'s crop in this frame.
    public func compareImageID(ofPane index: Int) -> UInt32 {
        KittyGraphics.transientID(revision: previewRevision &* 4 &+ UInt32(index), directColor: pictures.colorDepth == .trueColor)
    }

    /// What compare wants decoded: each pane's photo at its box, the focused one first.
    var compareDemand: [DecodeRequest] {
        guard let compare else { return [] }
        let order = [compare.focus] + compare.shown.indices.filter { $0 != compare.focus }
        return order.compactMap { compareDetailDemand(ofPane: $0) }
            + order.compactMap { index in
                let id = compare.shown[index], position = library.position(of: id)
                guard position >= 0, failure(at: position) == nil else { return nil }
                let key = compareKey(ofPane: index), unzoomed = compareZoom(ofPane: index) == 1
                if let cached = store.cache.peek(key), !unzoomed || isReady(cached) { return nil }
                var request = decodeRequest(item: position, box: key.box, symbolsAllowed: unzoomed)
                request.wantsHistogram = true
                return request
            }
    }

    /// Metadata compare wants at once: its photos' (their sizes for 100%, their captions).
    mutating func compareMetadataRequests() -> [MetadataRequest] {
        guard let compare else { return [] }
        return compare.shown.compactMap { id in metadataState.urgentRequest(for: id, file: library.file(id)) }
    }
}
