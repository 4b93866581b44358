import LightboxLayout
import LightboxThumbnails

/// What the user asked for, with a key, the mouse or a paste. Each one has a row in
/// `CommandTable` (its name, help and traits); what the world reports is an `Event`.
public enum Command: Hashable, Sendable {
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
    /// Sort by the next sort key (`Arrangement.Sort`).
    case cycleSort
    case toggleReverse
    /// Show or hide the cursor item's metadata beside the grid.
    case toggleInfo
    /// Switch to the next layout: grid, masonry, strip.
    case cycleLayout
    /// Draw pictures with the next picture mode `t` steps through.
    case cycleGraphics
    /// `o`: show the cursor photo full-screen.
    case openPreview
    /// Back from the preview to the grid, at the photo shown.
    case closePreview
    /// Arrows in the preview: pan when zoomed, else the previous or next photo.
    case pan(dx: Int, dy: Int)
    /// `p` in the preview: pause or play an animation.
    case togglePlayback
    /// `z` in the preview: 100% (a pixel of the photo a pixel of the screen), or back to fit.
    case actualSize
    /// `f` in the preview: fill the screen (cropping the photo's edges), or back to fit.
    case fillScreen
    /// `s` in the preview: start a slideshow (over the marked photos, or all), or go on with one paused.
    case slideshow
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
    /// A click at a screen cell: on a tile it moves the cursor there, on a header to its section.
    case click(x: Int, y: Int)
    /// A double click: a tile opens in the preview, a header collapses or expands.
    case doubleClick(x: Int, y: Int)
    /// Shift-click marks from the cursor to the tile; Ctrl-click marks or unmarks the tile.
    case shiftClick(x: Int, y: Int)
    case controlClick(x: Int, y: Int)
    /// Wheel scrolling, in lines (negative is up).
    case scroll(lines: Int)
    /// Rate the marked photos (or the cursor's) 0 to 5 stars; 0 clears the rating.
    case rate(Int)
    /// Reject them, or take the reject back when they all are.
    case toggleReject
    /// Give them a colour label, or take it away when they all have it.
    case toggleLabel(ColorLabel)
    /// Take back the last decisions, many deep.
    case undo
    /// Digits rate (0 to 5) and label (6 to 9) in the grid too, instead of counting.
    case toggleCullKeys
    /// Turn the view of the marked photos (or the cursor's) a quarter, clockwise or back, until
    /// Lightbox quits; the file is never rewritten.
    case rotate(clockwise: Bool)
    /// `C`: compare the marked photos (2 to 4) side by side, or the cursor's and the next; in
    /// compare, back to the grid.
    case compare
    /// In compare: focus the pane `step` on (Tab, `h`, `l`), round.
    case focusPane(Int)
    /// In compare: pan the focused photo alone (Shift: `H` `J` `K` `L`).
    case panAlone(dx: Int, dy: Int)
    /// The mouse dragged a zoomed photo by (`dx`, `dy`) cells: the view follows it (in compare,
    /// every pane's).
    case drag(dx: Int, dy: Int)
    /// In compare: drop the focused photo; the next candidate takes its pane.
    case dropFromCompare
    /// `b`: open the burst stack at the cursor in place (its frames after it), or close it.
    case toggleStack
    /// `e` in the preview and compare: the picture's histogram beside it, or not.
    case toggleHistogram
    /// `E` in the preview and compare: blown highlights and blocked shadows marked on the picture, or not.
    case toggleClipping

    /// The command with its values set aside: what its row in `CommandTable` holds.
    var kind: Command {
        switch self {
        case .countDigit: .countDigit(0)
        case .pan: .pan(dx: 0, dy: 0)
        case .panAlone: .panAlone(dx: 0, dy: 0)
        case .drag: .drag(dx: 0, dy: 0)
        case .focusPane: .focusPane(0)
        case .filterInput: .filterInput("")
        case .pasted: .pasted("")
        case .exec: .exec("")
        case .keyHandler: .keyHandler("")
        case .click: .click(x: 0, y: 0)
        case .doubleClick: .doubleClick(x: 0, y: 0)
        case .shiftClick: .shiftClick(x: 0, y: 0)
        case .controlClick: .controlClick(x: 0, y: 0)
        case .scroll: .scroll(lines: 0)
        default: self
        }
    }
}
