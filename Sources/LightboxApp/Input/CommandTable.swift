import LightboxTerminal

/// What a command is, beside what it does: how counts, marks, the modes and the status line
/// treat it. `apply` and the router read these; no other list says them.
public struct CommandTraits: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// It changes marks: refused when marking is off, held to `--multi`'s limit.
    public static let changesMarks = CommandTraits(rawValue: 1 << 0)
    /// A jump: `'` comes back to where it started.
    public static let jumps = CommandTraits(rawValue: 1 << 1)
    /// A count before it repeats it (`5j`).
    public static let repeatsWithCount = CommandTraits(rawValue: 1 << 2)
    /// A count before it names the item to go to (`12G`).
    public static let goesToCount = CommandTraits(rawValue: 1 << 3)
    /// The preview does it (its keys and wheel give only these); elsewhere the grid does.
    public static let inPreview = CommandTraits(rawValue: 1 << 4)
    /// It turns the help's pages; any other command closes the help and does nothing else.
    public static let turnsHelpPages = CommandTraits(rawValue: 1 << 5)
    /// Done the same in every mode, which it leaves as it was (suspending, redrawing).
    public static let inEveryMode = CommandTraits(rawValue: 1 << 6)
    /// It edits the filter line, whatever shows (the help closes).
    public static let editsFilter = CommandTraits(rawValue: 1 << 7)
    /// It leaves the status line's message (a paste outside the filter says why it did nothing).
    public static let keepsMessage = CommandTraits(rawValue: 1 << 8)
    /// Not the user moving through the library: until they do, a re-sort keeps the view at the top.
    public static let keepsViewAtTop = CommandTraits(rawValue: 1 << 9)
    /// Keys can be bound to it by name (`--bind`, `bind =`).
    public static let bindable = CommandTraits(rawValue: 1 << 10)
    /// A decision (a rating, a reject, a label): on the marked photos, or else the cursor's, kept
    /// in their sidecars; it moves on to the next photo in the preview and with the cull keys.
    public static let decides = CommandTraits(rawValue: 1 << 11)
    /// Compare does it (its keys and mouse give only these), on its focused photo.
    public static let inCompare = CommandTraits(rawValue: 1 << 12)
}

/// A command's row: its name (as the settings file and `--bind` write it), what it holds, the
/// grid's keys for it, its traits and its help.
public struct CommandRow: Sendable {
    public var name: String
    public var command: Command
    /// The keys that give it in the grid (`KeyTable.standard`, in the rows' order).
    public var keys: [Key]
    public var traits: CommandTraits
    public var help: String

    public init(_ name: String, _ command: Command, _ keys: [Key], _ traits: CommandTraits, _ help: String) {
        self.name = name
        self.command = command
        self.keys = keys
        self.traits = traits
        self.help = help
    }
}

/// Every command, once, with its keys: adding one is a `Command` case, a row here and its
/// handling in the mode that does it (as nsxiv's `config.def.h` holds its keys beside their functions).
public enum CommandTable {
    private static let moves: CommandTraits = [.repeatsWithCount, .bindable]
    private static let marks: CommandTraits = [.changesMarks, .bindable]
    private static let decision: CommandTraits = [.decides, .inPreview, .inCompare, .bindable]

    public static let rows: [CommandRow] = [
        CommandRow("left", .move(.left), [.left, .character("h")], moves.union(.inPreview), "previous image"),
        CommandRow("right", .move(.right), [.right, .character("l")], moves.union(.inPreview), "next image"),
        CommandRow("up", .move(.up), [.up, .character("k")], moves.union(.turnsHelpPages), "row up"),
        CommandRow("down", .move(.down), [.down, .character("j")], moves.union(.turnsHelpPages), "row down"),
        CommandRow("page-down", .pageDown, [.pageDown, .control("f")], moves.union(.turnsHelpPages), "page down"),
        CommandRow("page-up", .pageUp, [.pageUp, .control("b")], moves.union(.turnsHelpPages), "page up"),
        CommandRow("half-page-down", .halfPageDown, [.control("d")], moves, "half page down"),
        CommandRow("half-page-up", .halfPageUp, [.control("u")], moves, "half page up"),
        CommandRow("first", .move(.first), [.character("g"), .home], [.jumps, .goesToCount, .bindable], "first image"),
        CommandRow("last", .move(.last), [.character("G"), .end], [.jumps, .goesToCount, .bindable], "last image"),
        CommandRow("count", .countDigit(0), (0...9).map { .character(Character(String($0))) }, [], "count: 5j, 12G"),
        CommandRow("next-mark", .nextMark, [.character("n")], moves.union(.jumps), "next marked"),
        CommandRow("previous-mark", .previousMark, [.character("N")], moves.union(.jumps), "previous marked"),
        CommandRow("jump-back", .jumpBack, [.character("'")], [.bindable], "back to before the last jump"),
        CommandRow("previous-section", .move(.previousSection), [.character("[")], moves.union(.jumps), "previous section"),
        CommandRow("next-section", .move(.nextSection), [.character("]")], moves.union(.jumps), "next section"),
        CommandRow("mark-and-advance", .toggleMarkAndAdvance, [.character(" ")], marks.union([.inPreview, .inCompare, .turnsHelpPages]), "mark and go on"),
        CommandRow("mark", .toggleMark, [.character("m")], marks.union([.inPreview, .inCompare]), "mark / unmark"),
        CommandRow("range", .toggleRange, [.character("v")], marks, "start / end a range mark"),
        CommandRow("mark-all", .markAll, [.character("a")], marks, "mark all"),
        CommandRow("mark-section", .markSection, [.character("A")], marks, "mark this section"),
        CommandRow("clear-marks", .clearMarks, [.character("U")], marks, "clear marks"),
        CommandRow("bigger", .zoomIn, [.character("+"), .character("=")], [.inPreview, .inCompare, .bindable], "bigger thumbnails"),
        CommandRow("smaller", .zoomOut, [.character("-")], [.inPreview, .inCompare, .bindable], "smaller thumbnails"),
        CommandRow("sort", .cycleSort, [.character("s")], [.bindable], "sort: " + Arrangement.Sort.allCases.map(\.rawValue).joined(separator: "/")),
        CommandRow("reverse", .toggleReverse, [.character("S")], [.bindable], "reverse the order"),
        CommandRow("collapse", .toggleSection, [.character("z")], [.bindable], "collapse / expand this section"),
        CommandRow("collapse-all", .toggleAllSections, [.character("Z")], [.bindable], "collapse / expand all sections"),
        CommandRow("stack", .toggleStack, [.character("b")], [.bindable], "open / close the burst stack here"),
        CommandRow("layout", .cycleLayout, [.character("L")], [.bindable], "grid, masonry or strip layout"),
        CommandRow("symbols", .cycleGraphics, [.character("t")], [.bindable], "next picture mode"),
        CommandRow("info", .toggleInfo, [.character("i")], [.keepsViewAtTop, .inPreview, .inCompare, .bindable], "show / hide the photo's details"),
        CommandRow("histogram", .toggleHistogram, [], [.inPreview, .inCompare, .bindable], "the picture's histogram beside it (preview, compare)"),
        CommandRow("clipping", .toggleClipping, [], [.inPreview, .inCompare, .bindable], "mark blown highlights and blocked shadows (preview, compare)"),
        CommandRow("preview", .openPreview, [.character("o")], [.inCompare, .bindable], "show this photo full-screen"),
        CommandRow("back", .closePreview, [], [.inPreview, .inCompare], "back to the grid"),
        CommandRow("pan", .pan(dx: 0, dy: 0), [], [.inPreview, .inCompare], "pan the zoomed photo (not zoomed: the previous or next)"),
        CommandRow("play", .togglePlayback, [], [.inPreview], "pause / play an animation or a video"),
        CommandRow("actual-size", .actualSize, [], [.inPreview, .inCompare, .bindable], "100% (a pixel of the photo a pixel of the screen), or fit"),
        CommandRow("fill", .fillScreen, [], [.inPreview, .bindable], "fill the screen, or fit"),
        CommandRow(
            "slideshow", .slideshow, [], [.inPreview, .bindable], "slideshow of the marked photos, or all (any key pauses it, + and - change its pace)"),
        CommandRow(
            "filter", .startFilter, [.character("/")], [.editsFilter, .keepsViewAtTop, .bindable], "filter by name or field (rating>=3…)"),
        CommandRow("type", .filterInput(""), [], [.editsFilter, .keepsViewAtTop], "a character typed into the filter"),
        CommandRow("erase", .filterBackspace, [], [.editsFilter, .keepsViewAtTop], "Backspace in the filter"),
        CommandRow("keep-filter", .acceptFilter, [], [.editsFilter, .keepsViewAtTop], "keep the filter, back to the grid"),
        CommandRow("clear-filter", .cancelFilter, [], [.editsFilter, .keepsViewAtTop], "clear the filter"),
        CommandRow("paste", .pasted(""), [], [.keepsMessage, .keepsViewAtTop], "pasted text: the filter's while it is typed"),
        CommandRow("exec", .exec(""), [.character("x")], [], "run the --exec command"),
        CommandRow("key-handler", .keyHandlerPrefix, [.control("x")], [.bindable], "then a key: the key handler"),
        CommandRow("handler-key", .keyHandler(""), [], [], "the key after Ctrl-x, for the key handler"),
        CommandRow("help", .toggleHelp, [.character("?")], [.keepsViewAtTop, .bindable], "this help"),
        CommandRow("accept", .accept, [.enter], [.inPreview, .inCompare, .bindable], "print marked (or this) and quit"),
        CommandRow("cancel", .cancel, [.character("q"), .escape, .control("c")], [.inPreview, .inCompare, .bindable], "quit, print nothing"),
        CommandRow("suspend", .suspend, [.control("z")], [.inEveryMode, .keepsViewAtTop, .bindable], "suspend"),
        CommandRow("redraw", .redraw, [.control("l")], [.inEveryMode, .keepsViewAtTop, .bindable], "redraw the screen"),
        CommandRow("reject", .toggleReject, [.character("r")], decision, "reject (again: take it back)"),
        CommandRow("rate-0", .rate(0), [], decision, "clear the rating"),
        CommandRow("rate-1", .rate(1), [], decision, "rate 1 star"),
        CommandRow("rate-2", .rate(2), [], decision, "rate 2 stars"),
        CommandRow("rate-3", .rate(3), [], decision, "rate 3 stars"),
        CommandRow("rate-4", .rate(4), [], decision, "rate 4 stars"),
        CommandRow("rate-5", .rate(5), [], decision, "rate 5 stars"),
        CommandRow("label-red", .toggleLabel(.red), [.function(1)], decision, "red label (again: off)"),
        CommandRow("label-yellow", .toggleLabel(.yellow), [.function(2)], decision, "yellow label"),
        CommandRow("label-green", .toggleLabel(.green), [.function(3)], decision, "green label"),
        CommandRow("label-blue", .toggleLabel(.blue), [.function(4)], decision, "blue label"),
        CommandRow("label-purple", .toggleLabel(.purple), [.function(5)], decision, "purple label"),
        CommandRow("undo", .undo, [.character("u")], [.inPreview, .inCompare, .bindable], "undo the last decisions"),
        CommandRow("cull-keys", .toggleCullKeys, [.character("c")], [.bindable], "cull keys: digits rate and label"),
        CommandRow("rotate", .rotate(clockwise: true), [.character(">")], [.inPreview, .inCompare, .bindable], "turn the view a quarter clockwise"),
        CommandRow("rotate-back", .rotate(clockwise: false), [.character("<")], [.inPreview, .inCompare, .bindable], "turn the view a quarter back"),
        CommandRow(
            "compare", .compare, [.character("C")], [.inPreview, .inCompare, .bindable],
            "compare the marked (2 to 4) side by side"),
        CommandRow("focus", .focusPane(0), [], [.inCompare], "in compare: focus the next or previous photo"),
        CommandRow("pan-alone", .panAlone(dx: 0, dy: 0), [], [.inCompare], "in compare: pan the focused photo alone"),
        CommandRow("drop", .dropFromCompare, [], [.inCompare, .bindable], "in compare: drop the focused photo; the next candidate comes in"),
        CommandRow("click", .click(x: 0, y: 0), [], [.inCompare], "move the cursor to the tile (a header: its first photo)"),
        CommandRow("drag", .drag(dx: 0, dy: 0), [], [.inPreview, .inCompare], "drag the zoomed photo (in compare, them all)"),
        CommandRow("double-click", .doubleClick(x: 0, y: 0), [], [], "open the photo full-screen (a header: collapse or expand)"),
        CommandRow("shift-click", .shiftClick(x: 0, y: 0), [], [.changesMarks], "mark from the cursor to the tile"),
        CommandRow("control-click", .controlClick(x: 0, y: 0), [], [.changesMarks], "mark or unmark the tile"),
        CommandRow("scroll", .scroll(lines: 0), [], [], "scroll by lines"),
    ]

    /// The labels and undo, the same in the preview and compare (the digits beside them in `cullKeys`).
    static let labelKeys: [KeyBinding] = [
        KeyBinding([.character("6"), .function(1)], .toggleLabel(.red), "red label"),
        KeyBinding([.character("7"), .function(2)], .toggleLabel(.yellow), "yellow label"),
        KeyBinding([.character("8"), .function(3)], .toggleLabel(.green), "green label"),
        KeyBinding([.character("9"), .function(4)], .toggleLabel(.blue), "blue label"),
        KeyBinding([.function(5)], .toggleLabel(.purple), "purple label"),
        KeyBinding([.character("u")], .undo, "undo the last decisions"),
    ]

    /// Quitting, suspending and redrawing, last in the preview's and compare's keys.
    static let lastKeys: [KeyBinding] = [
        KeyBinding([.control("c")], .cancel, "quit, print nothing"),
        KeyBinding([.control("z")], .suspend, "suspend"),
        KeyBinding([.control("l")], .redraw, "redraw the screen"),
    ]

    /// The keys of the full-screen preview, with the preview's own words for them.
    public static let previewKeys: [KeyBinding] =
        [
            KeyBinding([.character("h"), .character("k")], .move(.left), "previous photo"),
            KeyBinding([.character("l"), .character("j")], .move(.right), "next photo"),
            KeyBinding([.left], .pan(dx: -1, dy: 0), "pan left (or previous photo)"),
            KeyBinding([.right], .pan(dx: 1, dy: 0), "pan right (or next photo)"),
            KeyBinding([.up], .pan(dx: 0, dy: -1), "pan up"),
            KeyBinding([.down], .pan(dx: 0, dy: 1), "pan down"),
            KeyBinding([.character("+"), .character("=")], .zoomIn, "zoom in"),
            KeyBinding([.character("-")], .zoomOut, "zoom out"),
            KeyBinding([.character("m"), .character(" ")], .toggleMark, "mark / unmark"),
            KeyBinding([.character("p")], .togglePlayback, "pause / play an animation or a video"),
            KeyBinding([.character("z")], .actualSize, "100%, or back to fit (centred where the last zoom was)"),
            KeyBinding([.character("f")], .fillScreen, "fill the screen, or back to fit"),
            KeyBinding([.character("s")], .slideshow, "slideshow (any key pauses, s goes on, + - its pace)"),
            KeyBinding([.character("C")], .compare, "compare the marked photos side by side, or this and the next"),
            KeyBinding([.character("i")], .toggleInfo, "the photo's details beside it: exposure, lens, camera, date, size"),
            KeyBinding([.character("e")], .toggleHistogram, "its histogram (luma, RGB) and what is clipped"),
            KeyBinding([.character("E")], .toggleClipping, "mark blown highlights (red) and blocked shadows (blue)"),
            KeyBinding([.character("0")], .rate(0), "clear the rating"),
            KeyBinding((1...5).map { .character(Character(String($0))) }, .rate(1), "rate 1 to 5 stars"),
            KeyBinding([.character("r")], .toggleReject, "reject (again: take it back)"),
        ] + labelKeys + [
            KeyBinding([.character(">")], .rotate(clockwise: true), "turn the view a quarter clockwise"),
            KeyBinding([.character("<")], .rotate(clockwise: false), "turn the view a quarter back"),
            KeyBinding([.enter], .accept, "print marked (or this) and quit"),
            KeyBinding([.escape, .character("q"), .character("o")], .closePreview, "back to the grid"),
        ] + lastKeys

    /// The keys of compare, with its own words for them.
    public static let compareKeys: [KeyBinding] =
        [
            KeyBinding([.tab, .character("l")], .focusPane(1), "focus the next photo"),
            KeyBinding([.character("h")], .focusPane(-1), "focus the previous photo"),
            KeyBinding([.left], .pan(dx: -1, dy: 0), "pan them all left (not zoomed: focus the previous)"),
            KeyBinding([.right], .pan(dx: 1, dy: 0), "pan them all right (not zoomed: focus the next)"),
            KeyBinding([.up], .pan(dx: 0, dy: -1), "pan them all up"),
            KeyBinding([.down], .pan(dx: 0, dy: 1), "pan them all down"),
            KeyBinding([.character("H")], .panAlone(dx: -1, dy: 0), "pan the focused photo alone left"),
            KeyBinding([.character("L")], .panAlone(dx: 1, dy: 0), "pan the focused photo alone right"),
            KeyBinding([.character("K")], .panAlone(dx: 0, dy: -1), "pan the focused photo alone up"),
            KeyBinding([.character("J")], .panAlone(dx: 0, dy: 1), "pan the focused photo alone down"),
            KeyBinding([.character("+"), .character("=")], .zoomIn, "zoom them all in"),
            KeyBinding([.character("-")], .zoomOut, "zoom them all out"),
            KeyBinding([.character("z")], .actualSize, "each at 100%, or back to fit"),
            KeyBinding([.character("d"), .backspace], .dropFromCompare, "drop the focused photo; the next candidate comes in"),
            KeyBinding([.character("m"), .character(" ")], .toggleMark, "mark / unmark the focused photo"),
            KeyBinding([.character("0")], .rate(0), "clear the focused photo's rating"),
            KeyBinding((1...5).map { .character(Character(String($0))) }, .rate(1), "rate it 1 to 5 stars"),
            KeyBinding([.character("r")], .toggleReject, "reject it (again: take it back)"),
        ] + labelKeys + [
            KeyBinding([.character(">")], .rotate(clockwise: true), "turn the focused photo a quarter clockwise"),
            KeyBinding([.character("<")], .rotate(clockwise: false), "turn it a quarter back"),
            KeyBinding([.character("i")], .toggleInfo, "the focused photo's details beside them"),
            KeyBinding([.character("e")], .toggleHistogram, "its histogram (luma, RGB) and what is clipped"),
            KeyBinding([.character("E")], .toggleClipping, "mark blown highlights and blocked shadows on each"),
            KeyBinding([.character("o")], .openPreview, "show the focused photo full-screen"),
            KeyBinding([.enter], .accept, "print marked (or the focused) and quit"),
            KeyBinding([.escape, .character("q"), .character("C")], .closePreview, "back to the grid, at the focused photo"),
        ] + lastKeys

    /// The grid's keys while the cull keys are on (`c`): digits rate and label, as Lightroom's do.
    public static let cullKeys: [KeyBinding] = [
        KeyBinding([.character("0")], .rate(0), "clear the rating"),
        KeyBinding((1...5).map { .character(Character(String($0))) }, .rate(1), "rate 1 to 5 stars"),
        KeyBinding([.character("6")], .toggleLabel(.red), "red label"),
        KeyBinding([.character("7")], .toggleLabel(.yellow), "yellow label"),
        KeyBinding([.character("8")], .toggleLabel(.green), "green label"),
        KeyBinding([.character("9")], .toggleLabel(.blue), "blue label"),
    ]

    /// The rows by the command they hold.
    private static let byKind: [Command: CommandRow] = Dictionary(rows.map { ($0.command, $0) }, uniquingKeysWith: { first, _ in first })

    /// The row of `command` (its values set aside).
    public static func row(of command: Command) -> CommandRow {
        guard let row = byKind[command.kind] else { preconditionFailure("\(command) has no row in CommandTable") }
        return row
    }

    /// The commands keys can be bound to, by name.
    public static let bindable: [String: Command] = Dictionary(
        rows.filter { $0.traits.contains(.bindable) }.map { ($0.name, $0.command) }, uniquingKeysWith: { first, _ in first })
}

extension Command {
    /// What its row says of it.
    public var traits: CommandTraits { CommandTable.row(of: self).traits }
}
