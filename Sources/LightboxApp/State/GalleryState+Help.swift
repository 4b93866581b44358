extension GalleryState {
    /// Applies a command while the help shows: the commands whose row says so turn its pages
    /// (forward: space, PgDn, j, the down arrow; back: PgUp, k, the up arrow); any other key or
    /// click closes it, and does nothing else.
    mutating func applyHelp(_ command: Command) -> [Effect] {
        guard case .help(let page) = mode, command.traits.contains(.turnsHelpPages) else {
            mode = .grid
            return []
        }
        let forward = [.toggleMarkAndAdvance, .pageDown, .move(.down)].contains(command)
        mode = .help(page: max(0, min(helpPages.pageCount - 1, page + (forward ? 1 : -1))))
        return []
    }

    /// Whether the help shows.
    public var isShowingHelp: Bool {
        if case .help = mode { true } else { false }
    }

    /// The page of the help shown, from 0.
    public var helpPage: Int {
        if case .help(let page) = mode { page } else { 0 }
    }
}
