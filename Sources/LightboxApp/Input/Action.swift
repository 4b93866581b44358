import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

/// Everything that can change the state; keys, mouse, resizes and decode results all become actions.
public enum Action: Hashable, Sendable {
    case move(Movement)
    case pageDown, pageUp, halfPageDown, halfPageUp
    /// Toggle the cursor item's mark and move to the next item.
    case toggleMarkAndAdvance
    case toggleMark
    /// Start a range at the cursor, or mark from the anchor to the cursor.
    case toggleRange
    case markAll
    case markSection
    case clearMarks
    case zoomIn, zoomOut
    /// Sort by the next of name, date, modification time and size.
    case cycleSort
    case toggleReverse
    /// Show or hide the cursor item's metadata beside the grid.
    case toggleInfo
    /// Switch to the next layout: grid, masonry, strip.
    case cycleLayout
    /// Draw pictures with the next symbol set: half blocks, quadrants, sextants, braille, ASCII.
    case cycleGraphics
    /// `o`: show the cursor photo full-screen.
    case openPreview
    /// Back from the preview to the grid, at the photo shown.
    case closePreview
    /// Arrows in the preview: pan when zoomed, else the previous or next photo.
    case pan(dx: Int, dy: Int)
    /// `p` in the preview: pause or play an animation.
    case togglePlayback
    /// The clock, in seconds of uptime, when an animation's next frame is due.
    case tick(Double)
    /// A digit of a count: `5j` moves five rows, `12G` goes to the twelfth item.
    case countDigit(Int)
    /// `n` / `N`: to the next or previous marked item.
    case nextMark, previousMark
    /// `'`: back to where the last jump started.
    case jumpBack
    /// `/`: type a filter; the grid narrows to the names that match as it is typed.
    case startFilter
    case filterInput(String)
    case filterBackspace
    /// Text the user pasted: the filter's while it is typed (newlines and controls left out),
    /// else nothing but a hint: a paste is never keys.
    case pasted(String)
    /// Enter: keep the filter and go back to the grid.
    case acceptFilter
    /// Esc: clear the filter.
    case cancelFilter
    /// Run a shell command on the selection (see `ShellCommand`).
    case exec(String)
    /// Ctrl-x: the next key goes to the key handler.
    case keyHandlerPrefix
    /// Run the key handler with this key's name and the selection on its standard input.
    case keyHandler(String)
    /// Collapse or expand the cursor's section.
    case toggleSection
    /// Collapse every section, or expand them all when all are collapsed.
    case toggleAllSections
    case toggleHelp
    case accept
    case cancel
    case suspend
    /// Ctrl-L: paint the whole screen again (another program, or tmux, drew over it).
    case redraw
    case resize(width: Int, height: Int)
    /// The terminal's cells changed size in pixels (a font change): the pixel modes' boxes follow.
    case cellSizeChanged(CellPixelSize)
    /// No key came for a moment and the screen's thumbnails are done: time to read ahead.
    case idle
    /// What the read-ahead did with items it was given.
    case readAheadDone([ReadAheadOutcome])
    /// Items given to the read-ahead that it dropped (a key came): they may be given again.
    case readAheadDropped([ItemID])
    /// How the terminal takes pictures: how many wait to be written, and the link's speed in
    /// kbit/s when the writer measured it.
    case picturesWaiting(Int, measuredLinkSpeed: Int?)
    /// Something the outside world has to say (a command failed, the marks file cannot be written),
    /// shown in the status line until the next key.
    case notice(String)
    /// A click at a screen cell: on a tile it moves the cursor there, on a header to its section.
    case click(x: Int, y: Int)
    /// A double click: a tile opens in the preview, a header collapses or expands.
    case doubleClick(x: Int, y: Int)
    /// Shift-click marks from the cursor to the tile; Ctrl-click marks or unmarks the tile.
    case shiftClick(x: Int, y: Int)
    case controlClick(x: Int, y: Int)
    /// Wheel scrolling, in lines (negative is up).
    case scroll(lines: Int)
    case decoded(DecodeRequest, DecodeResult)
    /// The scan found more (always after what it found before), and perhaps ended.
    case scanned([Scanner.Batch], isFinished: Bool)
    /// Metadata read in the background.
    case metadataRead([MetadataResult])
}

/// What the state asks the outside world to do.
public enum Effect: Hashable, Sendable {
    /// Decode these, most wanted first (replaces earlier wishes).
    case load([DecodeRequest])
    /// Read these files' metadata: after what was asked before, or before it when urgent.
    case readMetadata([MetadataRequest], isUrgent: Bool)
    /// Quit and print these paths.
    case accept([ImagePath])
    /// Quit without output.
    case cancel
    /// Stop the process (Ctrl-Z) and redraw when it continues.
    case suspend
    /// Forget what the terminal shows and paint every cell and picture again.
    case redraw
    /// Leave the screen, run this `/bin/sh -c` command on the terminal, then come back.
    case run([UInt8])
    /// Leave the screen, run the key handler with this key name and these paths on its input, come back.
    case runKeyHandler(key: String, paths: [ImagePath])
    /// The terminal may drop these pictures (kitty graphics ids): they left the cache.
    case forgetImages([UInt32])
    /// Put these files' thumbnails in the disk cache, at idle priority, nearest first.
    case readAhead([ReadAheadRequest])
}

extension Array where Element == Effect {
    /// The effects with every `.load` but the last removed: each load replaces the one before,
    /// so a batch of actions asks the provider once.
    public var coalesced: [Effect] {
        guard let last = lastIndex(where: { if case .load = $0 { return true } else { return false } }) else { return self }
        return enumerated().filter { index, effect in
            if case .load = effect { return index == last }
            return true
        }.map(\.element)
    }
}
