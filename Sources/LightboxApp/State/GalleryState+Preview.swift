import LightboxLayout
import LightboxThumbnails

extension GalleryState {
    /// The most pixels a preview decode asks for on a side.
    static let previewPixelLimit = PixelSize.maxSide

    /// The pixel box the photo is fitted to in the preview: the screen above the status line, in
    /// the terminal's pixels in a pixel mode, in chafa's pixels a cell for cells, else two pixels a
    /// cell vertically, times the zoom (capped). Zoomed, symbol modes show half blocks.
    public var previewBox: PixelSize {
        // A photo larger than a decode shows its fitted picture under parts at full resolution.
        if previewUsesDetail { return previewBox(cell: pixelsPerCell, zoom: 1) }
        // Zoomed, a pixel mode crops the picture decoded at the zoom; symbols give way to half blocks.
        return pictures.graphics.isPixels || (preview?.zoom ?? 1) == 1 ? previewBox(cell: pixelsPerCell) : previewBox(cell: PixelSize(width: 1, height: 2))
    }

    /// The preview in half-block pixels (two a cell vertically) times the zoom: where pictures
    /// are fitted and panned (not a decode's box: never capped).
    var previewViewBox: PixelSize { previewBox(cell: PixelSize(width: 1, height: 2), capped: false) }

    /// The screen above the status line at `cell` pixels a cell, times the zoom, capped at what
    /// a decode can be unless told not to.
    func previewBox(cell: PixelSize, zoom: Double? = nil, capped: Bool = true) -> PixelSize {
        let zoom = zoom ?? preview?.zoom ?? 1
        let limit = capped ? Self.previewPixelLimit : Int.max
        return PixelSize(
            width: min(limit, Int((Double(max(1, pictureAreaWidth) * cell.width) * zoom).rounded())),
            height: min(limit, Int((Double(max(1, screen.height - 1) * cell.height) * zoom).rounded())))
    }

    /// Where a picture of `size` pixels sits in the zoomed preview box: its drawn size, fitted.
    public func previewDrawnSize(of size: PixelSize) -> PixelSize { ZoomedView.fitted(size, in: previewViewBox) }

    /// Applies a command while the preview shows: those whose row says `inPreview` (its keys and
    /// wheel give no others; one that came all the same is said, not dropped).
    mutating func applyPreview(_ action: Command) -> [Effect] {
        guard var current = preview else { return [] }
        guard action.traits.contains(.inPreview) else {
            message = "\(CommandTable.row(of: action).name): not in the preview (Esc goes back to the grid)"
            return []
        }
        // A slideshow running: + and - change its pace; any other key pauses it, then does its own.
        var pausedNow = false
        if var show = slideshow, !show.isPaused {
            switch action {
            case .zoomIn, .zoomOut:
                show.change(by: action == .zoomIn ? -1 : 1)
                slideshow = show
                message = "slideshow: every \(Self.seconds(show.delay))"
                return []
            case .slideshow, .closePreview: break
            default:
                show.isPaused = true
                slideshow = show
                pausedNow = true
            }
        }
        // Said after the key's own message, whatever it was.
        defer { if pausedNow { message = "slideshow paused: s goes on" } }
        switch action {
        case .slideshow:
            if var show = slideshow {
                show.isPaused.toggle()
                show.shownAt = nil
                slideshow = show
                message = show.isPaused ? "slideshow paused: s goes on" : "slideshow: every \(Self.seconds(show.delay))"
            } else {
                startSlideshow()
            }
            return loadEffects()
        case .closePreview:
            preview = nil
            scrollCursorIntoView()
        case .zoomIn, .zoomOut:
            current.zoom(in: action == .zoomIn, view: previewView)
            preview = current
            clampPan()
            message = current.zoom == 1 ? "fit to the screen" : "zoom \(Self.zoomText(current.zoom)): arrows pan"
            rememberCentre()
        case .pan(let dx, let dy):
            guard current.zoom > 1 else {
                // Not zoomed: the arrows go through the photos.
                if dx != 0 {
                    flipDirection = dx > 0 ? 1 : -1
                    viewport.cursor = max(0, min(library.count - 1, viewport.cursor + dx))
                }
                break
            }
            current.pan(dx: dx, dy: dy, view: previewView)
            preview = current
            clampPan()
            rememberCentre()
        case .drag(let dx, let dy):
            // The photo follows the pointer: the view moves the other way, a column (half a row) a unit.
            guard current.zoom > 1 else { break }
            current.panX -= dx
            current.panY -= dy * 2
            preview = current
            clampPan()
            rememberCentre()
        case .move(.left), .move(.right):
            flipDirection = action == .move(.right) ? 1 : -1
            viewport.cursor = max(0, min(library.count - 1, viewport.cursor + flipDirection))
            preview = Preview()
            // At 100% the next photo comes at 100% too, at the same spot: a burst compared frame by frame.
            if current.isActualSize { zoomToActualSize() }
            return loadEffects() + metadataEffects()
        case .toggleMark, .toggleMarkAndAdvance:
            // Marks go through the usual rules (--multi, --no-multi); the preview stays.
            let show = slideshow
            preview = nil
            let effects = apply(.toggleMark)
            preview = current
            slideshow = show
            return effects + loadEffects()
        case .togglePlayback:
            guard animation != nil || videoPlays else {
                // Its frames came back as one: too large for a decoder to play, or not read.
                let still = cursorIsAnimated && store.cache.peek(animationKey) != nil
                message = still ? "shown as a still: too large to play (or frames Lightbox cannot read)" : "not an animation"
                break
            }
            current.isPaused.toggle()
            current.nextFrameAt = nil
            preview = current
            message = current.isPaused ? "paused: p plays" : nil
            return []
        case .actualSize:
            if current.zoom > 1 {
                // Kept when the user moved the view; a 100% at the focus point left alone is not theirs.
                if hasZoomCentre { rememberCentre() }
                preview = Preview()
                message = "fit to the screen"
            } else {
                zoomToActualSize()
                return loadEffects() + metadataEffects()
            }
        case .fillScreen:
            guard current.zoom == 1 else {
                preview = Preview()
                message = "fit to the screen"
                break
            }
            let fitted = previewDrawnSize(of: previewPictureSize), view = previewView
            let factor = max(Double(view.width) / Double(max(1, fitted.width)), Double(view.height) / Double(max(1, fitted.height)))
            zoom(to: factor)
            message = "filling the screen (f: fit)"
        case .rotate(let clockwise):
            turn(clockwise: clockwise)
            preview = Preview()
        case .compare: return openCompare()
        case .toggleInfo, .toggleHistogram, .toggleClipping:
            toggleExposure(action)
            return loadEffects() + metadataEffects()
        case .accept: return [.accept(acceptedPaths)]
        case .cancel: return [.cancel]
        default: break
        }
        return loadEffects()
    }

    /// The clock moves the preview's animation on, and a slideshow to its next photo.
    mutating func applyTick(_ now: Double) -> [Effect] {
        guard var current = preview else { return [] }
        if var show = slideshow {
            // An animation stays until it has played through once, and so does a video.
            let stay = videoPlays && !current.hasPlayedThrough ? .infinity : animation.map { Double($0.delays.reduce(0, +)) / 1000 } ?? 0
            if show.isDue(at: now, stay: stay) {
                viewport.cursor = show.next(after: viewport.cursor, count: library.count) { library.position(of: $0) }
                flipDirection = 1
                show.shownAt = now
                preview = Preview()
                slideshow = show
                return loadEffects()
            }
            slideshow = show
        }
        if cursorIsVideo { return playVideo(now: now) }
        guard let delays = animation?.delays else { return [] }
        current.play(delays, now: now)
        if current != preview { preview = current }
        return []
    }

    /// Opens the preview on the first marked photo (the cursor's when it is marked, or when none
    /// is) and shows the marked ones, or all, one after another, `slideshowDelay` seconds each.
    mutating func startSlideshow() {
        guard !library.isEmpty else { return }
        let ids = selection.count > 0 ? markedIDs.filter { library.position(of: $0) >= 0 } : []
        if let first = ids.first, !ids.contains(library.id(at: viewport.cursor)) { viewport.cursor = library.position(of: first) }
        if preview == nil { preview = Preview() }
        slideshow = Slideshow(delay: slideshowDelay, ids: ids)
        message =
            "slideshow of \(ids.isEmpty ? "every photo" : Self.photos(ids.count)): every \(Self.seconds(slideshowDelay)) (any key pauses, + - its pace)"
    }

    /// `4 s`, `1.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }

    /// The frames of the animation the preview shows, once decoded.
    public var animation: Thumbnail? {
        if cursorIsVideo { return videoClip }
        guard preview != nil, !library.isEmpty, let frames = store.cache.peek(animationKey), frames.frameCount > 1 else { return nil }
        return frames
    }

    /// When the preview's animation next changes frame, in seconds of uptime; nil when nothing plays.
    /// Before the first tick it is due at once, which starts the clock.
    public var nextFrameTime: Double? {
        guard let preview else { return nil }
        let frame = !preview.isPaused && animation != nil ? preview.nextFrameAt ?? 0 : nil
        let show = slideshow?.nextLook
        return [frame, show].compactMap { $0 }.min()
    }

    /// Whether the cursor item is an animation (its metadata says so), so the preview asks for every frame.
    var cursorIsAnimated: Bool {
        !library.isEmpty && (metadataState.results[library.id(at: viewport.cursor)]?.metadata?.frameCount ?? 0) > 1
    }

    /// The cache key of the cursor animation's frames at the preview's size.
    var animationKey: ThumbnailKey {
        ThumbnailKey(file: library[viewport.cursor], box: previewBox, isAnimated: true, turns: turns(at: viewport.cursor))
    }

    /// The preview's view in half-block pixels: the screen above the status line, two a cell vertically.
    var previewView: PixelSize { PixelSize(width: pictureAreaWidth, height: (screen.height - 1) * 2) }

    /// The panel beside the preview and compare: the photo's details (`i`) and its histogram
    /// (`e`), on a screen wide enough for it; nil when neither is asked for.
    public var exposurePanel: Rect? {
        guard preview != nil || compare != nil, screen.isShowingInfo || exposure.showsHistogram, screen.width >= ExposureView.panelFrom else {
            return nil
        }
        return Rect(x: screen.width - ExposureView.panelWidth, y: 0, width: ExposureView.panelWidth, height: max(0, screen.height - 1))
    }

    /// Columns the preview's picture (or compare's panes) take: the screen's, but for the panel.
    public var pictureAreaWidth: Int { max(1, screen.width - (exposurePanel?.width ?? 0)) }

    /// `i`, `e` and `E` in the preview and compare: the details beside the picture (the grid's
    /// info panel's toggle, kept), its histogram, the clipping marks on it.
    mutating func toggleExposure(_ action: Command) {
        switch action {
        case .toggleInfo:
            screen.toggleInfo()
            relayout()  // the grid's info panel too
        case .toggleHistogram: exposure.showsHistogram.toggle()
        case .toggleClipping:
            exposure.showsClipping.toggle()
            let t = exposure.thresholds
            message =
                exposure.showsClipping
                ? "clipping marked: red at \(t.highlights)+ in a channel, blue at \(t.shadows) or less in all (E: off)" : "clipping marks off"
            previewRevision &+= 1
            return
        default: return
        }
        if (screen.isShowingInfo || exposure.showsHistogram) && screen.width < ExposureView.panelFrom {
            message = "too narrow for the panel beside the picture (\(ExposureView.panelFrom) columns or more)"
        }
        previewRevision &+= 1
        // The panel narrows the view (or gives it back): the zoomed part follows.
        if preview != nil { clampPan() }
    }

    /// The pixel size of the picture the preview shows now (the decoded one, else its box).
    var previewPictureSize: PixelSize {
        store.cache.closest(to: previewKey).map { PixelSize(width: $0.width, height: $0.height) } ?? previewBox
    }

    /// Keeps where the view's middle is on the photo, for the next 100% (on this photo or the next).
    mutating func rememberCentre() {
        guard let preview, preview.zoom > 1 else { return }
        zoomCentre = preview.centre(drawn: previewDrawnSize(of: previewPictureSize), view: previewView)
        hasZoomCentre = true
    }

    /// Zooms the preview to `factor` of the fitted size, its middle on the remembered centre.
    mutating func zoom(to factor: Double) {
        guard var current = preview else { return }
        // The picture as drawn once zoomed: the fitted size times the factor.
        let fitted = previewDrawnSize(of: previewPictureSize)
        current.zoom(
            to: factor, centredOn: zoomCentre, drawn: PixelSize(width: Int(Double(fitted.width) * factor), height: Int(Double(fitted.height) * factor)),
            view: previewView)
        preview = current
        clampPan()
    }

    /// 100%: one of the photo's pixels a pixel of the screen (a half block's in the symbol
    /// modes), centred where the last zoom was; its size comes from its metadata, read first
    /// when it is not yet. A photo larger than a decode can be (`previewPixelLimit` a side)
    /// shows the part in view decoded at full resolution (`keepDetailInView`).
    mutating func zoomToActualSize() {
        guard !library.isEmpty, let current = preview else { return }
        guard let size = shownSize(at: viewport.cursor) else {
            wantsActualSize = true
            message = "100%: reading the photo's size…"
            return
        }
        wantsActualSize = false
        let fit = previewBox(cell: previewCell, zoom: 1)
        let fitScale = min(Double(fit.width) / Double(size.width), Double(fit.height) / Double(size.height))
        guard fitScale < 1 else {
            message = "100%: the photo is no larger than the screen"
            return
        }
        // A photo larger than a decode shows the part in view decoded at full resolution.
        let actual = 1 / fitScale
        let factor = min(actual, Preview.maxZoom)
        _ = current
        // Where the user last looked, else where the camera focused (its maker note), else the middle.
        let focus = hasZoomCentre ? nil : focusCentre(of: library.id(at: viewport.cursor))
        if let focus { zoomCentre = (focus.x, focus.y) }
        zoom(to: factor)
        preview?.isActualSize = true
        message =
            factor < actual * 0.999
            ? "shown at \(Int((factor / actual * 100).rounded()))%: a photo of \(size.width) × \(size.height) is zoomed \(Self.zoomText(Preview.maxZoom)) at most (z: fit)"
            : focus.map { "100% at the focus point (\($0.source); z: fit, arrows pan)" } ?? "100% (z: fit; arrows pan)"
    }

    /// `2x`, `3.2x`.
    public static func zoomText(_ zoom: Double) -> String {
        zoom == zoom.rounded() ? "\(Int(zoom))x" : String(format: "%.1fx", zoom)
    }

    /// Keeps the view on the zoomed picture.
    mutating func clampPan() {
        guard var current = preview else { return }
        let drawn = previewDrawnSize(of: store.cache.closest(to: previewKey).map { PixelSize(width: $0.width, height: $0.height) } ?? previewBox)
        current.keepView(on: drawn, view: previewView)
        preview = current
        keepDetailInView()
    }

    /// The cache key of the cursor photo at the preview's size.
    public var previewKey: ThumbnailKey { ThumbnailKey(file: library[viewport.cursor], box: previewBox, turns: turns(at: viewport.cursor)) }

    /// What the preview wants decoded: the photo on screen (every frame of an animation, after
    /// its still), then its neighbours.
    /// The photos the preview is likely to show next, nearest first: two ahead in the direction
    /// the user flips, one behind (decoded ahead, and their pictures made ready for the terminal).
    var previewNeighbours: [Int] {
        let step = flipDirection
        return [viewport.cursor + step, viewport.cursor - step, viewport.cursor + 2 * step].filter { $0 >= 0 && $0 < library.count }
    }

    /// The preview as it will be after flipping to each of its neighbours whose picture is
    /// decoded, nearest first: what `GalleryView.picturesAhead` draws for the terminal to make ready.
    public var previewsAhead: [GalleryState] {
        guard let preview, preview.zoom == 1, pictures.graphics.isPixels, !library.isEmpty else { return [] }
        return previewNeighbours.compactMap { item in
            var next = self
            next.viewport.cursor = item
            next.preview = Preview()
            return next.store.cache.peek(next.previewKey) == nil ? nil : next
        }
    }

    var previewDemand: [DecodeRequest] {
        guard preview != nil, !library.isEmpty else { return [] }
        var frames: [DecodeRequest] = []
        if cursorIsAnimated, preview?.zoom == 1, store.cache.peek(animationKey) == nil, failure(at: viewport.cursor) == nil {
            var request = decodeRequest(item: viewport.cursor, box: previewBox, symbolsAllowed: false)
            request.wantsFrames = true
            frames = [request]
        }
        return frames + clipDemand + detailDemand
            + ([viewport.cursor] + previewNeighbours).compactMap { item in
                let key = ThumbnailKey(file: library[item], box: previewBox, turns: turns(at: item))
                // Symbols only when not zoomed: a zoomed view is a crop of the pixels.
                let unzoomed = preview?.zoom == 1
                if let cached = store.cache.peek(key), !unzoomed || isReady(cached) { return nil }
                guard failure(at: item) == nil else { return nil }
                var request = decodeRequest(item: item, box: previewBox, symbolsAllowed: unzoomed)
                request.isAhead = item != viewport.cursor  // the neighbours wait for the photo shown
                request.wantsHistogram = true
                return request
            }
    }
}
