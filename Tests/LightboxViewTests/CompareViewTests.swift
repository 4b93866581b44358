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

private func comparedState(_ graphics: Graphics, count: Int = 3, width: Int = 120, height: Int = 30) -> GalleryState {
    var state = GalleryState(
        library: library([count]), spec: spec, width: width, height: height,
        settings: settings {
            $0.graphics = graphics
            $0.cellPixels = CellPixelSize(width: 4, height: 8)
        })
    _ = state.initialEffects()
    _ = state.apply(.metadataRead((0..<count).map { MetadataResult(id: ItemID($0), metadata: nil, size: PixelSize(width: 1200, height: 900)) }))
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
