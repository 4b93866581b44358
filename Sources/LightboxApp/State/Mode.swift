/// What the screen is showing, stored once: the router reads it to know what a key means, `apply`
/// to know which mode does a command, the view to know what to draw. Each mode's commands are in
/// a file of its own (`GalleryState+Grid`, `+Filter`, `+Help`, `+Preview`, `+Compare`).
public enum Mode: Hashable, Sendable {
    /// The library, as a grid, masonry or strip.
    case grid
    /// The filter line is typed over the grid: characters go to it.
    case filter
    /// The help overlay, at a page (see `HelpPages`), from 0.
    case help(page: Int)
    /// One photo full-screen.
    case preview(Preview)
    /// Two to four photos side by side, zoomed and panned together.
    case compare(Compare)
    /// After Ctrl-x: the next key goes to the key handler.
    case handlerKey
}
