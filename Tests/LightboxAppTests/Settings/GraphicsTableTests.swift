import LightboxApp
import LightboxTerminal
import LightboxThumbnails
import Testing

@Test func everyPictureModeIsOneRowOfTheTable() {
    let modes = Graphics.table.map(\.mode)
    #expect(Set(modes) == Set(Graphics.allCases) && modes.count == Graphics.allCases.count)
    // Each symbol set and each protocol is drawn by exactly one mode.
    let sets = Graphics.allCases.compactMap(\.symbols)
    #expect(Set(sets) == Set(SymbolSet.allCases) && sets.count == SymbolSet.allCases.count)
    let protocols = Graphics.allCases.compactMap(\.pixelProtocol)
    #expect(Set(protocols).count == protocols.count)
    // `t` steps through the symbol modes in the table's order, after the pixel modes.
    #expect(Graphics.symbolModes == [.half, .quadrant, .sextant, .braille, .ascii])
    #expect(Graphics.table.prefix { $0.mode.isPixels }.count == protocols.count)
    // A choice is `auto` or a mode, spelled as the mode is.
    #expect(GraphicsChoice.allCases.map(\.rawValue) == ["auto"] + Graphics.allCases.map(\.rawValue))
    for choice in GraphicsChoice.allCases { #expect(GraphicsChoice(rawValue: choice.rawValue) == choice) }
    #expect(GraphicsChoice(rawValue: "iterm2") == nil && GraphicsChoice(rawValue: "iterm") == .mode(.iterm))
}

@Test func thePicturePartStepsThroughItsModesAndTakesCellSizes() {
    var state = GalleryState(
        library: library([3]), spec: threeColumns, width: 40, height: 20,
        settings: settings {
            $0.graphics = .sixel; $0.availableGraphics = [.sixel] + Graphics.symbolModes
        })
    var seen: [Graphics] = []
    for _ in 0..<6 { _ = state.apply(.cycleGraphics); seen.append(state.pictures.graphics) }
    #expect(seen == [.half, .quadrant, .sextant, .braille, .ascii, .sixel])
    #expect(state.message == "pictures in sixel")
    #expect(!state.apply(.cellSizeChanged(CellPixelSize(width: 8, height: 16))).isEmpty && state.pictures.cellPixels == CellPixelSize(width: 8, height: 16))
}

/// Every picture mode is in `--graphics`' choices, help and README row, from its row of the table.
@Test func everyPictureModeIsInTheOptionsHelp() {
    let option = OptionTable.all.first { $0.long == "graphics" }!
    for (mode, traits) in Graphics.table {
        #expect(option.choices.contains(mode.rawValue) && option.help.contains(mode.rawValue))
        #expect(option.details?.contains("`\(mode.rawValue)` (\(traits.details))") == true)
    }
}
