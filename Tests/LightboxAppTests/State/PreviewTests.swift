import LightboxTerminal
import LightboxThumbnails
import Testing

@testable import LightboxApp

@Test func zoomingKeepsTheMiddleOfTheViewAndStaysWithinOneToEight() {
    let view = PixelSize(width: 80, height: 46)
    var preview = Preview()
    preview.zoom(in: true, view: view)
    // The middle (40, 23) of the fitted picture is at (80, 46) of the doubled one: the view starts 40, 23 before it.
    #expect(preview == Preview(zoom: 2, panX: 40, panY: 23))
    for _ in 0..<5 { preview.zoom(in: true, view: view) }
    #expect(preview.zoom == 8)
    for _ in 0..<5 { preview.zoom(in: false, view: view) }
    #expect(preview.zoom == 1)
}

@Test func panningMovesByPartsOfTheViewAndKeepingItOnThePictureClamps() {
    let view = PixelSize(width: 80, height: 46)
    var preview = Preview(zoom: 2)
    preview.pan(dx: 1, dy: 1, view: view)
    #expect(preview.panX == 20 && preview.panY == 11)
    preview.pan(dx: 10, dy: -3, view: view)
    preview.keepView(on: PixelSize(width: 160, height: 92), view: view)
    #expect(preview.panX == 80 && preview.panY == 0, "the view stays on the picture")
    preview.keepView(on: PixelSize(width: 50, height: 20), view: view)
    #expect(preview.panX == 0 && preview.panY == 0, "a picture smaller than the view is not panned")
}

/// `s` in the preview: a photo every few seconds from the one shown, from the start again after
/// the last; + and - change the pace while it runs; any other key pauses it and does its own;
/// `s` goes on; Esc ends it.
/// Dragged, the zoomed photo follows the pointer: the view moves the other way, a column (half
/// a row) a unit, and stays on the picture; not zoomed, a drag does nothing.
@Test func draggingTheZoomedPhotoMovesTheView() {
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 21)
    _ = state.initialEffects()
    _ = state.apply(.openPreview)
    _ = state.apply(.drag(dx: -5, dy: 0))
    #expect(state.preview == Preview())
    state.apply([.zoomIn, .zoomIn])
    let before = state.preview!
    _ = state.apply(.drag(dx: -3, dy: -2))
    #expect(state.preview!.panX == before.panX + 3 && state.preview!.panY == before.panY + 4)
    _ = state.apply(.drag(dx: 1000, dy: 1000))
    #expect(state.preview!.panX == 0 && state.preview!.panY == 0, "held to the picture's corner")
}

@Test func aSlideshowGoesThroughThePhotosPausesOnAKeyAndGoesOn() {
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 80, height: 25)
    state.apply([.openPreview, .slideshow])
    #expect(state.slideshow?.delay == 4 && state.message?.hasPrefix("slideshow of every photo: every 4 s") == true)
    #expect(state.nextFrameTime == 0, "the clock is looked at at once")
    _ = state.apply(.tick(100))
    #expect(state.nextFrameTime == 104)
    _ = state.apply(.tick(103.9))
    #expect(state.viewport.cursor == 0)
    _ = state.apply(.tick(104))
    #expect(state.viewport.cursor == 1 && state.preview == Preview())
    _ = state.apply(.zoomIn)
    #expect(state.slideshow?.delay == 3 && state.preview?.zoom == 1, "+ while it runs: a quicker pace, no zoom")
    for now in [107.0, 110, 113] { _ = state.apply(.tick(now)) }
    #expect(state.viewport.cursor == 0, "from the start again after the last")
    _ = state.apply(.toggleMark)
    #expect(state.slideshow?.isPaused == true && state.selection.marks.contains(0) && state.message == "slideshow paused: s goes on")
    _ = state.apply(.tick(200))
    #expect(state.viewport.cursor == 0 && state.nextFrameTime == nil)
    _ = state.apply(.slideshow)
    _ = state.apply(.tick(300))
    _ = state.apply(.tick(303))
    #expect(state.viewport.cursor == 1)
    _ = state.apply(.closePreview)
    #expect(state.slideshow == nil && state.preview == nil)
}

/// With photos marked, the slideshow shows those only, from the first; an animation stays
/// until it has played through.
@Test func aSlideshowOfTheMarkedPhotosAndAnAnimationPlayedThrough() {
    var state = GalleryState(library: library([6]), spec: threeColumns, width: 80, height: 25)
    state.apply([.move(.right), .toggleMark, .move(.right), .move(.right), .toggleMark, .move(.right)])
    _ = state.apply(.slideshow)
    #expect(state.preview != nil && state.viewport.cursor == 1 && state.message?.hasPrefix("slideshow of 2 photos") == true)
    _ = state.apply(.tick(0))
    _ = state.apply(.tick(4))
    #expect(state.viewport.cursor == 3)
    _ = state.apply(.tick(8))
    #expect(state.viewport.cursor == 1)
    // An animation of 10 frames of 0.6 s: six seconds, more than the four a photo stays.
    var frames = Thumbnail(width: 2, height: 20, pixels: [UInt8](repeating: 0, count: 2 * 20 * 3))
    frames.delays = Array(repeating: 600, count: 10)
    _ = state.apply(.decoded(DecodeRequest(id: ItemID(1), file: state.library[1], box: state.previewBox, wantsFrames: true), .decoded(frames)))
    #expect(state.animation?.delays.count == 10)
    _ = state.apply(.tick(12))
    #expect(state.viewport.cursor == 1, "still playing")
    _ = state.apply(.tick(14.1))
    #expect(state.viewport.cursor == 3)
}

/// `>` and `<` turn the view of the cursor's photo (the marked ones, when some are) until
/// Lightbox quits: its pictures are asked for again turned; four turns are none.
@Test func turningTheViewAsksForThePicturesTurned() {
    var state = GalleryState(library: library([6]), spec: threeColumns, width: 80, height: 25)
    _ = state.initialEffects()
    _ = state.apply(.rotate(clockwise: true))
    #expect(state.viewTurns == [ItemID(0): 1] && state.message?.hasPrefix("turned 90°") == true)
    #expect(state.thumbnailKey(ofItem: 0).turns == 1 && state.store.demand.first { $0.id == ItemID(0) }?.turns == 1)
    state.apply([.rotate(clockwise: false), .rotate(clockwise: false)])
    #expect(state.viewTurns == [ItemID(0): 3])
    _ = state.apply(.rotate(clockwise: true))
    #expect(state.viewTurns.isEmpty && state.message?.hasPrefix("as the file shows it") == true)
    state.apply([.move(.right), .toggleMark, .move(.right), .toggleMark, .openPreview, .rotate(clockwise: true)])
    #expect(state.viewTurns == [ItemID(1): 1, ItemID(2): 1] && state.previewKey.turns == 1 && state.preview == Preview())
}

/// Settings of a kitty terminal with 10x20-pixel cells.
private var kittyTenByTwenty: GalleryState.Settings {
    var settings = GalleryState.Settings()
    settings.graphics = .kitty
    settings.availableGraphics = [.kitty]
    settings.cellPixels = CellPixelSize(width: 10, height: 20)
    return settings
}

/// `z`: 100%, one pixel of the photo a pixel of the screen, its size read from its metadata
/// first when not yet; centred where the last zoom looked, kept on the next photo flipped to;
/// `z` again fits. A photo larger than a decode can be shows the part in view decoded at full
/// resolution. `f` fills the screen.
@Test func oneHundredPercentFitAndFill() throws {
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 80, height: 25, settings: kittyTenByTwenty)
    _ = state.initialEffects()
    _ = state.apply(.openPreview)
    // The screen above the status line: 800 x 480 pixels; a 4000 x 3000 photo fits at 640 x 480.
    let effects = state.apply(.actualSize)
    #expect(state.message == "100%: reading the photo's size…" && state.preview?.zoom == 1)
    #expect(effects.contains { if case .readMetadata(let requests, true) = $0 { requests.first?.id == ItemID(0) } else { false } })
    let photo = { (id: Int, width: Int, height: Int) in MetadataResult(id: ItemID(id), metadata: nil, size: PixelSize(width: width, height: height)) }
    _ = state.apply(.metadataRead([photo(0, 1600, 1200), photo(1, 1600, 1200)]))
    #expect(state.preview?.isActualSize == true && abs((state.preview?.zoom ?? 0) - 2.5) < 0.001 && state.previewBox == PixelSize(width: 2000, height: 1200))
    #expect(state.message == "100% (z: fit; arrows pan)")
    // Looking at the right edge, then on to the next photo: 100% there too, at the same spot.
    state.apply([.pan(dx: 4, dy: 0), .move(.right)])
    #expect(state.viewport.cursor == 1 && state.preview?.isActualSize == true && (state.preview?.panX ?? 0) > 0)
    _ = state.apply(.actualSize)
    #expect(state.preview == Preview() && state.message == "fit to the screen")
    // A photo larger than 4,096 pixels a side at its 100%: its fitted picture, and the part in
    // view (with as much around it) decoded at full resolution.
    _ = state.apply(.metadataRead([photo(2, 9000, 6000)]))
    state.apply([.move(.right), .actualSize])
    #expect(state.message == "100% (z: fit; arrows pan)" && state.previewBox == PixelSize(width: 800, height: 480))
    let part = try #require(state.store.demand.first { $0.region != nil })
    let visible = try #require(state.previewVisibleRegion)
    #expect(part.id == ItemID(2) && part.region!.contains(visible) && !part.wantsCells)
    #expect(abs(part.box.width - 1600) <= 2 && abs(part.box.height - 960) <= 2, "twice the view's 800 x 480, at 1:1")
    #expect(state.store.demand.first == part, "before anything else")
    _ = state.apply(
        .decoded(
            part,
            .decoded(Thumbnail(width: part.box.width, height: part.box.height, pixels: [UInt8](repeating: 9, count: part.box.width * part.box.height * 3)))))
    #expect(state.previewDetail?.region == part.region && !state.store.demand.contains { $0.region != nil })
    // A pan inside the part asks for nothing; out of it, the next part, the last shown meanwhile.
    _ = state.apply(.pan(dx: 1, dy: 0))
    #expect(!state.store.demand.contains { $0.region != nil })
    state.apply([.pan(dx: 4, dy: 0), .pan(dx: 4, dy: 0)])
    let next = try #require(state.store.demand.first { $0.region != nil })
    #expect(next.region != part.region && next.region!.contains(state.previewVisibleRegion!) && state.previewDetail?.region == part.region)
    // A part whose decoder crashed or timed out is asked again, twice; then it is failed.
    for _ in 1..<PictureStore.partAttempts {
        let effects = state.apply(.decoded(next, .failed(.decoder("decoder crashed (signal 9)"))))
        #expect(effects.contains { if case .load(let requests) = $0 { requests.contains(next) } else { false } }, "\(effects)")
    }
    _ = state.apply(.decoded(next, .failed(.decoder("timed out after 5 s"))))
    #expect(!state.store.demand.contains { $0.region != nil } && state.failure(at: state.viewport.cursor) == nil)
    // One that cannot be decoded leaves the fitted picture at once, and is not asked again.
    state.apply([.pan(dx: -4, dy: 0), .pan(dx: -4, dy: 0), .pan(dx: -4, dy: 0), .pan(dx: -4, dy: 0), .pan(dx: -4, dy: 0)])
    let third = try #require(state.store.demand.first { $0.region != nil })
    _ = state.apply(.decoded(third, .failed(.refused("no"))))
    #expect(state.failure(at: state.viewport.cursor) == nil && !state.store.demand.contains { $0.region != nil })
    // Fitted again: no part. Fill: a portrait photo on a wide screen is zoomed until it covers it.
    _ = state.apply(.actualSize)
    #expect(state.previewDetail == nil && !state.store.demand.contains { $0.region != nil })
    let request = state.store.demand.first { $0.id == state.library.id(at: state.viewport.cursor) }!
    _ = state.apply(.decoded(request, .decoded(Thumbnail(width: 320, height: 480, pixels: [UInt8](repeating: 7, count: 320 * 480 * 3)))))
    _ = state.apply(.fillScreen)
    #expect((state.preview?.zoom ?? 1) > 1 && state.message == "filling the screen (f: fit)")
    _ = state.apply(.fillScreen)
    #expect(state.preview == Preview())
}

/// 100% goes to where the camera focused when its maker note says (turned as the photo shows),
/// until the user moves the view themselves: then where they looked, on the next photos too.
@Test func oneHundredPercentGoesToTheFocusPoint() {
    var state = GalleryState(library: library([3]), spec: threeColumns, width: 80, height: 25, settings: kittyTenByTwenty)
    _ = state.initialEffects()
    func photo(_ id: Int, orientation: Int) -> MetadataResult {
        var exif = ImageMetadata()
        exif.orientation = orientation
        exif.focusPoint = ImageMetadata.FocusPoint(x: 3000, y: 750, width: 4000, height: 3000, source: "Sony FocusLocation")
        let upright = orientation >= 5 ? PixelSize(width: 3000, height: 4000) : PixelSize(width: 4000, height: 3000)
        return MetadataResult(id: ItemID(id), metadata: exif, size: upright)
    }
    _ = state.apply(.metadataRead([photo(0, orientation: 1), photo(1, orientation: 6), photo(2, orientation: 1)]))
    state.apply([.openPreview, .actualSize])
    #expect(abs(state.zoomCentre.x - 0.75) < 0.01 && abs(state.zoomCentre.y - 0.25) < 0.01)
    #expect(state.message == "100% at the focus point (Sony FocusLocation; z: fit, arrows pan)")
    // Turned a quarter clockwise by its EXIF, the stored point (3/4, 1/4) shows at (3/4, 3/4).
    _ = state.apply(.move(.right))
    #expect(state.preview?.isActualSize == true && abs(state.zoomCentre.x - 0.75) < 0.01 && abs(state.zoomCentre.y - 0.75) < 0.01)
    // Fitted and back: still the focus point; panned by the user, their spot from then on.
    state.apply([.actualSize, .actualSize])
    #expect(abs(state.zoomCentre.y - 0.75) < 0.01)
    _ = state.apply(.pan(dx: -2, dy: 0))
    let looked = state.zoomCentre
    _ = state.apply(.move(.right))
    #expect(state.viewport.cursor == 2 && abs(state.zoomCentre.x - looked.x) < 0.01 && state.message == "100% (z: fit; arrows pan)")
}
