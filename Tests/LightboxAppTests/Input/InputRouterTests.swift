import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import Testing

func press(_ x: Int, _ y: Int, shift: Bool = false, control: Bool = false) -> InputEvent {
    .mouse(MouseEvent(kind: .press, x: x, y: y, isShift: shift, isControl: control))
}

@Test func keysMeanWhatTheModeTheyArriveInSays() {
    var router = InputRouter()
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    #expect(router.command(for: .key(.character("j")), in: state, at: 0) == .move(.down))
    #expect(router.command(for: .key(.character("5")), in: state, at: 0) == .countDigit(5))
    #expect(router.command(for: .resize(width: 80, height: 24), in: state, at: 0) == nil, "a resize is an event, not a command")
    // The filter line takes characters, Backspace, Enter and Esc; other keys keep their meaning.
    _ = state.apply(.startFilter)
    #expect(router.command(for: .key(.character("j")), in: state, at: 0) == .filterInput("j"))
    #expect(router.command(for: .key(.backspace), in: state, at: 0) == .filterBackspace)
    #expect(router.command(for: .key(.enter), in: state, at: 0) == .acceptFilter)
    #expect(router.command(for: .key(.escape), in: state, at: 0) == .cancelFilter)
    #expect(router.command(for: .key(.down), in: state, at: 0) == .move(.down))
    _ = state.apply(.cancelFilter)
    // After Ctrl-x the next key is the key handler's, by name.
    _ = state.apply(.keyHandlerPrefix)
    #expect(router.command(for: .key(.control("k")), in: state, at: 0) == .keyHandler("Ctrl-k"))
    _ = state.apply(.keyHandler("Ctrl-k"))
    // The preview has keys of its own.
    _ = state.apply(.openPreview)
    #expect(router.command(for: .key(.character("q")), in: state, at: 0) == KeyTable.preview.command(for: .character("q")))
    #expect(router.command(for: .key(.character("q")), in: state, at: 0) != state.keyTable.command(for: .character("q")))
}

@Test func pressesClicksAndTheWheelFollowTheMouseTable() {
    var router = InputRouter()
    let state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    #expect(router.command(for: press(5, 6), in: state, at: 10) == .click(x: 5, y: 6))
    // A second press on the same cell soon after is a double click; a third starts anew.
    #expect(router.command(for: press(5, 6), in: state, at: 10.3) == .doubleClick(x: 5, y: 6))
    #expect(router.command(for: press(5, 6), in: state, at: 10.5) == .click(x: 5, y: 6))
    // Too late, or elsewhere: two clicks.
    #expect(router.command(for: press(5, 6), in: state, at: 11) == .click(x: 5, y: 6))
    #expect(router.command(for: press(7, 6), in: state, at: 11.1) == .click(x: 7, y: 6))
    #expect(router.command(for: press(7, 6, shift: true), in: state, at: 11.2) == .shiftClick(x: 7, y: 6))
    #expect(router.command(for: press(7, 6, control: true), in: state, at: 11.3) == .controlClick(x: 7, y: 6))
    #expect(router.command(for: .mouse(MouseEvent(kind: .wheelDown, x: 1, y: 1)), in: state, at: 12) == .scroll(lines: MouseTable.wheelLines))
    #expect(router.command(for: .mouse(MouseEvent(kind: .wheelUp, x: 1, y: 1)), in: state, at: 12) == .scroll(lines: -MouseTable.wheelLines))
}

@Test func thePreviewTakesTheWheelAndNeitherPressesNorPastes() {
    var router = InputRouter()
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    #expect(router.command(for: .paste("x"), in: state, at: 0) == .pasted("x"))
    _ = state.apply(.openPreview)
    #expect(router.command(for: press(5, 6), in: state, at: 1) == nil)
    #expect(router.command(for: .paste("x"), in: state, at: 1) == nil)
    #expect(router.command(for: .mouse(MouseEvent(kind: .wheelDown, x: 1, y: 1)), in: state, at: 1) == .pan(dx: 1, dy: 0))
    _ = state.apply(.closePreview)
    // A press in the preview started no double click.
    #expect(router.command(for: press(5, 6), in: state, at: 1.1) == .click(x: 5, y: 6))
}

/// A press then moves with the button held drag the zoomed photo by the cells moved since the
/// last; a release ends it. The grid takes no drags.
@Test func aDragInThePreviewAndCompareMovesByTheCellsMoved() {
    var router = InputRouter()
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    func drag(_ x: Int, _ y: Int) -> InputEvent { .mouse(MouseEvent(kind: .drag, x: x, y: y)) }
    #expect(router.command(for: drag(3, 3), in: state, at: 0) == nil, "the grid")
    _ = state.apply(.openPreview)
    #expect(router.command(for: drag(3, 3), in: state, at: 1) == nil, "no press first")
    _ = router.command(for: press(10, 5), in: state, at: 1)
    #expect(router.command(for: drag(13, 6), in: state, at: 1.1) == .drag(dx: 3, dy: 1))
    #expect(router.command(for: drag(13, 6), in: state, at: 1.2) == nil, "no move, no command")
    #expect(router.command(for: drag(12, 6), in: state, at: 1.3) == .drag(dx: -1, dy: 0))
    #expect(router.command(for: .mouse(MouseEvent(kind: .release, x: 12, y: 6)), in: state, at: 1.4) == nil)
    #expect(router.command(for: drag(15, 6), in: state, at: 1.5) == nil, "released")
    state.apply([.closePreview, .toggleMarkAndAdvance, .toggleMarkAndAdvance, .compare])
    #expect(state.compare != nil)
    #expect(router.command(for: press(2, 2), in: state, at: 2) == .click(x: 2, y: 2))
    #expect(router.command(for: drag(4, 2), in: state, at: 2.1) == .drag(dx: 2, dy: 0))
}

/// Ctrl-L paints the whole screen again wherever the user is (the grid, the help, the preview,
/// an empty library) and changes nothing else.
@Test func ctrlLRedrawsInEveryPlaceAndChangesNothing() {
    var router = InputRouter()
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    _ = state.initialEffects()
    let cursor = state.viewport.cursor
    #expect(router.command(for: .key(.control("l")), in: state, at: 0) == .redraw)
    #expect(state.apply(.redraw) == [.redraw] && state.viewport.cursor == cursor)
    _ = state.apply(.toggleHelp)
    #expect(state.apply(.redraw) == [.redraw] && state.isShowingHelp, "the help stays open")
    _ = state.apply(.toggleHelp)
    _ = state.apply(.openPreview)
    #expect(router.command(for: .key(.control("l")), in: state, at: 0) == .redraw)
    #expect(state.apply(.redraw) == [.redraw] && state.preview != nil, "the preview stays open")
    var empty = GalleryState(library: library([]), spec: threeColumns, width: 40, height: 30)
    #expect(empty.apply(.redraw) == [.redraw])
}
