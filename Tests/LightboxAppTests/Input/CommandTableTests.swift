import LightboxApp
import LightboxLayout
import LightboxTerminal
import Testing

/// A state to try a command in: three sections, the cursor in the middle of the second, one mark.
private func middle(_ settings: GalleryState.Settings = .init()) -> GalleryState {
    var state = GalleryState(library: library([9, 9, 9]), spec: threeColumns, width: 40, height: 60, settings: settings)
    _ = state.initialEffects()
    state.apply([.move(.nextSection), .move(.down), .move(.right)])
    return state
}

/// The row's command with values that act: a press on a tile, a scroll, a typed character.
private func example(_ row: CommandRow, in state: GalleryState) -> Command {
    let tile = state.layout.frame(ofItem: state.viewport.cursor + 1)
    let x = tile.x + GalleryState.gridInset, y = tile.y - state.viewport.offset
    switch row.command {
    case .click: return .click(x: x, y: y)
    case .doubleClick: return .doubleClick(x: x, y: y)
    case .shiftClick: return .shiftClick(x: x, y: y)
    case .controlClick: return .controlClick(x: x, y: y)
    case .scroll: return .scroll(lines: 3)
    case .filterInput: return .filterInput("1")
    case .pasted: return .pasted("1")
    case .countDigit: return .countDigit(3)
    default: return row.command
    }
}

@Test func everyCommandHasOneRowAndEveryBindingFindsIt() {
    #expect(Set(CommandTable.rows.map(\.name)).count == CommandTable.rows.count, "names are unique")
    for row in CommandTable.rows { #expect(CommandTable.row(of: row.command).name == row.name) }
    for table in [KeyTable.standard, KeyTable.preview] {
        for binding in table.bindings { #expect(!CommandTable.row(of: binding.command).name.isEmpty) }
    }
    for row in CommandTable.rows where row.traits.contains(.bindable) { #expect(CommandTable.bindable[row.name] == row.command) }
}

/// What the preview's keys and wheel give, it does: none is dropped by a `default:`.
@Test func thePreviewsBindingsAreCommandsThatWorkInThePreview() {
    let inPreview: CommandTraits = [.inPreview, .inEveryMode]
    for binding in KeyTable.preview.bindings {
        #expect(!binding.command.traits.isDisjoint(with: inPreview), "\(binding.help): its row does not say it works in the preview")
    }
    for binding in MouseTable.preview.bindings { #expect(!binding.command(0, 0).traits.isDisjoint(with: inPreview)) }
    // One that comes all the same is said, not dropped.
    var state = middle()
    _ = state.apply(.openPreview)
    _ = state.apply(.cycleSort)
    #expect(state.preview != nil && state.message?.contains("not in the preview") == true)
}

/// Each trait, checked on every row that has it and every row that has not.
@Test func everyRowsTraitsAreWhatTheStateDoes() {
    for row in CommandTable.rows {
        let name = row.name
        let traits = row.traits
        // Marks: refused when marking is off, exactly for the rows that change them.
        var off = middle(settings { $0.allowsMarks = false })
        _ = off.apply(example(row, in: off))
        #expect((off.message == "marking is off (--no-multi): Enter picks the photo under the cursor") == traits.contains(.changesMarks), "\(name)")
        var on = middle()
        let marked = on.markedCount
        _ = on.apply(example(row, in: on))
        if !traits.contains(.changesMarks) { #expect(on.markedCount == marked, "\(name) changed marks") }

        // A jump: ' comes back to where it started.
        var jump = middle()
        let origin = jump.viewport.cursor
        _ = jump.apply(example(row, in: jump))
        if jump.viewport.cursor != origin && !jump.isShowingHelp && row.command != .jumpBack {  // ' itself swaps
            _ = jump.apply(.jumpBack)
            #expect((jump.viewport.cursor == origin) == traits.contains(.jumps), "\(name): ' comes back after jumps only")
        }

        // A count: repeats it, or names the item to go to; others ignore it.
        if traits.contains(.repeatsWithCount) {
            var counted = middle(), repeated = middle()
            counted.apply([.countDigit(2), example(row, in: counted)])
            repeated.apply([example(row, in: repeated), example(row, in: repeated)])
            #expect(counted.viewport.cursor == repeated.viewport.cursor && counted.selection.marks == repeated.selection.marks, "\(name) repeats with a count")
        }
        if traits.contains(.goesToCount) {
            var counted = middle()
            counted.apply([.countDigit(5), example(row, in: counted)])
            #expect(counted.viewport.cursor == 4, "\(name) goes to the item counted")
        } else if !traits.contains(.repeatsWithCount), row.command != .countDigit(0) {
            var counted = middle(), once = middle()
            counted.apply([.countDigit(2), example(row, in: counted)])
            _ = once.apply(example(row, in: once))
            #expect(counted.viewport.cursor == once.viewport.cursor && counted.markedCount == once.markedCount, "\(name) ignores a count")
        }

        // The help: the rows that turn its pages keep it; any other command closes it.
        var help = middle()
        _ = help.apply(.toggleHelp)
        _ = help.apply(example(row, in: help))
        let keepsHelp = traits.contains(.turnsHelpPages) || traits.contains(.inEveryMode) || row.command == .pasted("")
        #expect(help.isShowingHelp == keepsHelp, "\(name) in the help")

        // Every mode: done the same in the preview and the help, which stay.
        if traits.contains(.inEveryMode) {
            var preview = middle()
            _ = preview.apply(.openPreview)
            _ = preview.apply(example(row, in: preview))
            #expect(preview.preview != nil, "\(name) keeps the preview")
        }

        // The message: cleared by every command but those whose row keeps it.
        var said = middle()
        _ = said.apply(.notice("something happened"))
        _ = said.apply(example(row, in: said))
        if traits.contains(.keepsMessage) { #expect(said.message != nil, "\(name) keeps the message") }
    }
}
