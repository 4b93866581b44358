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
}

/// A command's row: its name (as the settings file and `--bind` write it), what it holds, its
/// help and its traits.
public struct CommandRow: Sendable {
    public var name: String
    public var command: Command
    public var help: String
    public var traits: CommandTraits

    public init(_ name: String, _ command: Command, _ traits: CommandTraits, _ help: String) {
        self.name = name
        self.command = command
        self.traits = traits
        self.help = help
    }
}

/// Every command, once: adding one is a row here plus its handling in the mode that does it.
public enum CommandTable {
    private static let moves: CommandTraits = [.repeatsWithCount, .bindable]
    private static let marks: CommandTraits = [.changesMarks, .bindable]

    public static let rows: [CommandRow] = [
        CommandRow("left", .move(.left), moves.union(.inPreview), "previous image"),
        CommandRow("right", .move(.right), moves.union(.inPreview), "next image"),
        CommandRow("up", .move(.up), moves.union(.turnsHelpPages), "row up"),
        CommandRow("down", .move(.down), moves.union(.turnsHelpPages), "row down"),
        CommandRow("page-down", .pageDown, moves.union(.turnsHelpPages), "page down"),
        CommandRow("page-up", .pageUp, moves.union(.turnsHelpPages), "page up"),
        CommandRow("half-page-down", .halfPageDown, moves, "half page down"),
        CommandRow("half-page-up", .halfPageUp, moves, "half page up"),
        CommandRow("first", .move(.first), [.jumps, .goesToCount, .bindable], "first image"),
        CommandRow("last", .move(.last), [.jumps, .goesToCount, .bindable], "last image"),
        CommandRow("count", .countDigit(0), [], "count: 5j, 12G"),
        CommandRow("next-mark", .nextMark, moves.union(.jumps), "next marked"),
        CommandRow("previous-mark", .previousMark, moves.union(.jumps), "previous marked"),
        CommandRow("jump-back", .jumpBack, [.bindable], "back to before the last jump"),
        CommandRow("previous-section", .move(.previousSection), moves.union(.jumps), "previous section"),
        CommandRow("next-section", .move(.nextSection), moves.union(.jumps), "next section"),
        CommandRow("mark-and-advance", .toggleMarkAndAdvance, marks.union([.inPreview, .turnsHelpPages]), "mark and go on"),
        CommandRow("mark", .toggleMark, marks.union(.inPreview), "mark / unmark"),
        CommandRow("range", .toggleRange, marks, "start / end a range mark"),
        CommandRow("mark-all", .markAll, marks, "mark all"),
        CommandRow("mark-section", .markSection, marks, "mark this section"),
        CommandRow("clear-marks", .clearMarks, marks, "clear marks"),
        CommandRow("bigger", .zoomIn, [.inPreview, .bindable], "bigger thumbnails"),
        CommandRow("smaller", .zoomOut, [.inPreview, .bindable], "smaller thumbnails"),
        CommandRow("sort", .cycleSort, [.bindable], "sort by " + Arrangement.Sort.allCases.map(\.rawValue).joined(separator: ", ")),
        CommandRow("reverse", .toggleReverse, [.bindable], "reverse the order"),
        CommandRow("collapse", .toggleSection, [.bindable], "collapse / expand this section"),
        CommandRow("collapse-all", .toggleAllSections, [.bindable], "collapse / expand all sections"),
        CommandRow("layout", .cycleLayout, [.bindable], "grid, masonry or strip layout"),
        CommandRow("symbols", .cycleGraphics, [.bindable], "next picture mode"),
        CommandRow("info", .toggleInfo, [.keepsViewAtTop, .bindable], "show / hide the photo's details"),
        CommandRow("preview", .openPreview, [.bindable], "show this photo full-screen"),
        CommandRow("back", .closePreview, [.inPreview], "back to the grid"),
        CommandRow("pan", .pan(dx: 0, dy: 0), [.inPreview], "pan the zoomed photo (not zoomed: the previous or next)"),
        CommandRow("play", .togglePlayback, [.inPreview], "pause / play an animation"),
        CommandRow("filter", .startFilter, [.editsFilter, .keepsViewAtTop, .bindable], "filter by name (Enter keeps, Esc clears)"),
        CommandRow("type", .filterInput(""), [.editsFilter, .keepsViewAtTop], "a character typed into the filter"),
        CommandRow("erase", .filterBackspace, [.editsFilter, .keepsViewAtTop], "Backspace in the filter"),
        CommandRow("keep-filter", .acceptFilter, [.editsFilter, .keepsViewAtTop], "keep the filter, back to the grid"),
        CommandRow("clear-filter", .cancelFilter, [.editsFilter, .keepsViewAtTop], "clear the filter"),
        CommandRow("paste", .pasted(""), [.keepsMessage, .keepsViewAtTop], "pasted text: the filter's while it is typed"),
        CommandRow("exec", .exec(""), [], "run the --exec command"),
        CommandRow("key-handler", .keyHandlerPrefix, [.bindable], "then a key: the key handler"),
        CommandRow("handler-key", .keyHandler(""), [], "the key after Ctrl-x, for the key handler"),
        CommandRow("help", .toggleHelp, [.keepsViewAtTop, .bindable], "this help"),
        CommandRow("accept", .accept, [.inPreview, .bindable], "print marked (or this) and quit"),
        CommandRow("cancel", .cancel, [.inPreview, .bindable], "quit, print nothing"),
        CommandRow("suspend", .suspend, [.inEveryMode, .keepsViewAtTop, .bindable], "suspend"),
        CommandRow("redraw", .redraw, [.inEveryMode, .keepsViewAtTop, .bindable], "redraw the screen"),
        CommandRow("click", .click(x: 0, y: 0), [], "move the cursor to the tile (a header: its first photo)"),
        CommandRow("double-click", .doubleClick(x: 0, y: 0), [], "open the photo full-screen (a header: collapse or expand)"),
        CommandRow("shift-click", .shiftClick(x: 0, y: 0), [.changesMarks], "mark from the cursor to the tile"),
        CommandRow("control-click", .controlClick(x: 0, y: 0), [.changesMarks], "mark or unmark the tile"),
        CommandRow("scroll", .scroll(lines: 0), [], "scroll by lines"),
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
