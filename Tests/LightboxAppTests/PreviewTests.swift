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
