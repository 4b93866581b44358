import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxTestSupport
import LightboxThumbnails
import LightboxView
import Testing

/// A picture whose every pixel says where it is: red its column, green its row (of 256).
private func gradient(width: Int, height: Int) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            pixels[(y * width + x) * 3] = UInt8(x * 255 / max(1, width - 1))
            pixels[(y * width + x) * 3 + 1] = UInt8(y * 255 / max(1, height - 1))
            pixels[(y * width + x) * 3 + 2] = 90
        }
    }
    return pixels
}

/// Every wanted picture decoded: the gradient at the request's box (its shape 4:3).
private func decodeCompare(_ state: inout GalleryState) {
    for _ in 0..<3 {
        for request in state.store.demand {
            let w = min(request.box.width, request.box.height * 4 / 3), h = w * 3 / 4
            var thumbnail = Thumbnail(width: w, height: h, pixels: gradient(width: w, height: h))
            if request.wantsCells {
                let box = SymbolCells.cells(inBox: request.box)
                thumbnail.cells = SymbolCells.render(thumbnail, columns: box.columns, rows: box.rows, symbols: request.symbols, depth: request.depth)
            }
            _ = state.apply(.decoded(request, .decoded(thumbnail)))
        }
    }
}

private func comparedState(
    _ graphics: Graphics, count: Int = 3, width: Int = 120, height: Int = 30, cell: CellPixelSize = CellPixelSize(width: 4, height: 8),
    photo: PixelSize = PixelSize(width: 1200, height: 900)
) -> GalleryState {
    var state = GalleryState(
        library: library([count]), spec: spec, width: width, height: height,
        settings: settings {
            $0.graphics = graphics
            $0.cellPixels = cell
        })
    _ = state.initialEffects()
    _ = state.apply(.metadataRead((0..<count).map { MetadataResult(id: ItemID($0), metadata: nil, size: photo) }))
    _ = state.apply(.markAll)
    _ = state.apply(.compare)
    return state
}

/// Three photos compared at 100% in kitty: three pictures, one a pane, each the same region of
/// its photo (the same pixels, for photos alike); one panned alone shows another.
@Test func threePhotosAt100PercentShowTheSameRegionOfEach() {
    var state = comparedState(.kitty)
    decodeCompare(&state)
    var frame = GalleryView.frame(for: state)
    #expect(frame.images.count == 3 && Set(frame.images.map(\.id)).count == 3)
    _ = state.apply(.actualSize)
    decodeCompare(&state)
    _ = state.apply(.pan(dx: 1, dy: 1))
    frame = GalleryView.frame(for: state)
    let crops = frame.images
    #expect(crops.count == 3 && crops.allSatisfy(\.isTransient))
    guard crops.count == 3 else { return }
    let panes = state.comparePanes.map(CompareLayout.picture(of:))
    for (crop, pane) in zip(crops, panes) { #expect(crop.x == pane.x && crop.y == pane.y && crop.columns == pane.width && crop.rows == pane.height) }
    #expect(crops[0].pixels == crops[1].pixels && crops[1].pixels == crops[2].pixels, "the same region of each")
    // At 100% a pixel of the photo is a pixel of the screen: neighbouring pixels differ by a
    // 1200-pixel gradient's step (0 or 1 of 255), not by a stretched thumbnail's.
    let row = 10, first = crops[0].pixels[(row * crops[0].pixelWidth + 10) * 3], later = crops[0].pixels[(row * crops[0].pixelWidth + 110) * 3]
    #expect(Int(later) - Int(first) >= 20 && Int(later) - Int(first) <= 22, "100 screen pixels are 100 of the photo's 1200: ~21 of 255")
    _ = state.apply(.panAlone(dx: 1, dy: 0))
    let alone = GalleryView.frame(for: state).images
    #expect(alone.count == 3 && alone[0].pixels != alone[1].pixels && alone[1].pixels == alone[2].pixels, "the focused one moved alone")
}

/// Three photos larger than a decode compared at 100%: each pane asks for the part in its view
/// at full resolution and draws it over its fitted picture, at 100% (not held to a decode).
@Test func photosLargerThanADecodeAreComparedAtFullResolution() {
    var state = comparedState(.kitty, cell: CellPixelSize(width: 10, height: 20), photo: PixelSize(width: 6000, height: 4500))
    decodeCompare(&state)
    _ = state.apply(.actualSize)
    let parts = state.store.demand.filter { $0.region != nil }
    #expect(parts.count == 3 && parts.first?.id == state.compare?.focused, "a part each, the focused one's first")
    #expect(parts.allSatisfy { $0.box.width <= PixelSize.maxSide && $0.box.height <= PixelSize.maxSide })
    let before = GalleryView.frame(for: state).images
    for part in parts { decodeSolid(part, (250, 0, 0), in: &state) }
    let after = GalleryView.frame(for: state).images
    #expect(before.count == 3 && after.count == 3)
    #expect(
        before.allSatisfy { $0.pixels.prefix(3) != [250, 0, 0] }
            && after.allSatisfy { $0.pixels.prefix(3) == [250, 0, 0] && $0.pixels.suffix(3) == [250, 0, 0] })
    let saysSmaller = GalleryView.frame(for: state).text.split(separator: "\n").dropLast().contains { $0.contains("%") }
    #expect(!saysSmaller, "no pane's caption says it is shown smaller")
    // Panned within the parts: nothing more to decode.
    _ = state.apply(.pan(dx: 1, dy: 0))
    #expect(!state.store.demand.contains { $0.region != nil })
}

/// Compare in half blocks: the panes' pictures, each caption under its pane (the focused one
/// marked ▶), the set in the status line.
@Test func compareInHalfBlocksSnapshot() {
    var state = comparedState(.half, width: 80, height: 20)
    decodeCompare(&state)
    _ = state.apply(.rate(3))
    let frame = GalleryView.frame(for: state)
    expectSnapshot(frame, "compare-half")
    #expect(frame.text.contains("▶ ✓ ★3 IMG_1.jpg") && frame.text.contains(" compare 1/3"))
}

/// The preview's panel: the details a photographer judges a frame by, the histogram of the
/// picture shown (luma, then R, G, B bars) and what is clipped, as lines of text.
@Test func theExposurePanelShowsTheDetailsAndTheHistogram() {
    var state = GalleryState(library: library([2]), spec: spec, width: 100, height: 30, settings: settings { $0.graphics = .half })
    _ = state.initialEffects()
    _ = state.apply(.openPreview)
    _ = state.apply(.toggleHistogram)
    _ = state.apply(.toggleInfo)
    var metadata = ImageMetadata()
    metadata.exposure = ImageMetadata.Fraction(numerator: 1, denominator: 250)
    metadata.fNumber = 2.8
    metadata.iso = 400
    metadata.exposureBias = -0.7
    metadata.make = "FUJIFILM"
    metadata.model = "X100V"
    _ = state.apply(.metadataRead([MetadataResult(id: ItemID(0), metadata: metadata, size: PixelSize(width: 6000, height: 4000))]))
    for request in state.store.demand where request.id == ItemID(0) {
        let (w, h) = (request.box.width, request.box.height)
        var picture = Thumbnail(width: w, height: h, pixels: TestImages.halves(width: w, height: h, left: (0, 0, 0), right: (255, 255, 255)))
        picture.histogram = Histogram(of: picture)
        _ = state.apply(.decoded(request, .decoded(picture)))
    }
    let frame = GalleryView.frame(for: state)
    let text = frame.text
    #expect(text.contains("Shutter     1/250 s") && text.contains("Exp. comp.  -0.7 EV") && text.contains("Camera      FUJIFILM X100V"))
    #expect(text.contains("blown ≥250  R 50% G 50% B 50%") && text.contains("blocked ≤5  50%"))
    expectSnapshot(frame, "exposure-panel")
    // E marks them on the picture: the white half red, the black half blue (half blocks here).
    _ = state.apply(.toggleClipping)
    let marked = GalleryView.frame(for: state)
    let colours = Set((0..<64).map { marked[$0, 10].style.background })
    #expect(colours.contains(.rgb(255, 0, 0)) && colours.contains(.rgb(0, 80, 255)))
}

/// In a pixel mode the marks are on a copy of the picture made for the frame, not the cached one.
@Test func clippingMarksInPixelsAreACopyOfThePicture() {
    var state = GalleryState(
        library: library([1]), spec: spec, width: 40, height: 12,
        settings: settings {
            $0.graphics = .kitty
            $0.cellPixels = CellPixelSize(width: 4, height: 8)
        })
    _ = state.apply(.openPreview)
    // A picture half as wide as the screen: letterbox on either side, which is never marked.
    let request = state.store.demand[0]
    let (w, h) = (request.box.width / 2, request.box.height)
    _ = state.apply(
        .decoded(
            request, .decoded(Thumbnail(width: w, height: h, pixels: TestImages.halves(width: w, height: h, left: (0, 0, 0), right: (255, 255, 255))))))
    let plain = GalleryView.frame(for: state).images
    _ = state.apply(.toggleClipping)
    let marked = GalleryView.frame(for: state).images
    #expect(plain.count == 1 && marked.count == 1 && marked[0].isTransient && marked[0].id != plain[0].id)
    guard let image = marked.first else { return }
    func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[((y * image.pixelWidth + x) * 3)...].prefix(3)) }
    #expect(pixel(50, 40) == [0, 80, 255] && pixel(110, 40) == [255, 0, 0])
    #expect(pixel(2, 40) == pixel(157, 40) && pixel(2, 40) != [0, 80, 255] && pixel(2, 40) != [255, 0, 0], "the letterbox is not marked")
    #expect(state.store.cache.peek(state.previewKey)?.pixels.first == 0, "the cached picture is not changed")
}

/// A burst's stack is one tile with its count; opened, its frames are numbered.
@Test func aStackIsOneTileWithItsCount() {
    var stacked = library([4])
    stacked.arrange(by: Arrangement(stacks: .burst))
    var state = GalleryState(library: stacked, spec: spec, width: 80, height: 20, settings: settings { $0.graphics = .half })
    _ = state.initialEffects()
    let frames = (0..<3).map { i -> MetadataResult in
        var metadata = ImageMetadata()
        metadata.model = "X100V"
        metadata.dateTaken = "2024:05:01 10:00:00"
        metadata.subsecond = Double(i) / 10
        return MetadataResult(id: ItemID(i), metadata: metadata, size: PixelSize(width: 600, height: 400))
    }
    _ = state.apply(.metadataRead(frames))
    #expect(GalleryView.frame(for: state).text.contains("▣ 3 IMG_1.jpg") && state.library.count == 2)
    _ = state.apply(.toggleStack)
    let text = GalleryView.frame(for: state).text
    #expect(text.contains("▣ 1/3") && text.contains("▣ 3/3") && state.library.count == 4)
}
