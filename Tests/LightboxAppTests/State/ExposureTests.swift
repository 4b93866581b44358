import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import Testing

@testable import LightboxApp

private func previewState(width: Int = 160) -> GalleryState {
    var state = GalleryState(
        library: library([3]), spec: threeColumns, width: width, height: 48,
        settings: settings {
            $0.graphics = .kitty
            $0.availableGraphics = [.kitty]
            $0.cellPixels = CellPixelSize(width: 10, height: 20)
        })
    _ = state.initialEffects()
    _ = state.apply(.openPreview)
    return state
}

/// `e` puts the histogram beside the preview (the picture takes the rest, decoded for it), `i`
/// the details; `E` marks clipping; the preview's and compare's decodes measure the histogram.
@Test func theExposurePanelTakesItsColumnsAndTheDecodesMeasure() {
    var state = previewState()
    #expect(state.exposurePanel == nil && state.previewBox.width == 1600)
    #expect(state.store.demand.allSatisfy { $0.wantsHistogram })
    _ = state.apply(.toggleHistogram)
    #expect(state.exposurePanel == Rect(x: 124, y: 0, width: 36, height: 47) && state.pictureAreaWidth == 124)
    #expect(state.previewBox.width == 1240 && state.store.demand.first?.box.width == 1240)
    _ = state.apply(.toggleInfo)
    #expect(state.screen.isShowingInfo && state.exposurePanel != nil)
    state.apply([.toggleHistogram, .toggleInfo])
    #expect(state.exposurePanel == nil && state.pictureAreaWidth == 160)
    _ = state.apply(.toggleClipping)
    #expect(state.exposure.showsClipping && state.message?.hasPrefix("clipping marked: red at 250+") == true)
    _ = state.apply(.toggleClipping)
    #expect(!state.exposure.showsClipping && state.message == "clipping marks off")
    // Compare: the panes share what the panel leaves; its decodes measure too.
    state.apply([.compare, .toggleHistogram])
    #expect(state.compare != nil && state.comparePanes.allSatisfy { $0.maxX <= 124 } && state.store.demand.allSatisfy { $0.wantsHistogram })
    // Too narrow a screen has no room beside the picture: said.
    var narrow = previewState(width: 60)
    _ = narrow.apply(.toggleHistogram)
    #expect(narrow.exposurePanel == nil && narrow.message?.hasPrefix("too narrow for the panel") == true)
}

/// The thresholds come from the settings (`--clipping`, `clipping =`).
@Test func clippingThresholdsComeFromTheSettings() {
    let state = GalleryState(
        library: library([1]), spec: threeColumns, width: 80, height: 24, settings: settings { $0.clipping = ClippingThresholds(shadows: 2, highlights: 253) })
    #expect(state.exposure.thresholds == ClippingThresholds(shadows: 2, highlights: 253))
    #expect(Configuration(parsing: "clipping = 3,252").clipping == ClippingThresholds(shadows: 3, highlights: 252))
    #expect(Configuration(parsing: "clipping = 252,3").problems.first?.contains("not SHADOWS,HIGHLIGHTS") == true)
}
