/// Where a pane's top-left cell is in the terminal around it (tmux's outer terminal), zero-based:
/// iTerm2 images sent through tmux's passthrough are placed in that terminal's cells.
public struct PaneOrigin: Hashable, Sendable {
    public var column: Int
    public var row: Int

    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }

    /// What tmux is asked (`display-message -p`): the pane's place in its window, and the status
    /// line that may be above the window.
    public static let tmuxFormat = "#{pane_left} #{pane_top} #{status} #{status-position}"

    /// The origin in tmux's answer to `tmuxFormat`: the pane's column and row, moved down by a
    /// status line at the top (`on` is one line, a number that many); nil for anything else.
    public init?(tmuxAnswer answer: String) {
        let fields = answer.split(whereSeparator: \.isWhitespace).map(String.init)
        guard fields.count == 4, let column = Int(fields[0]), let row = Int(fields[1]), column >= 0, row >= 0 else { return nil }
        let statusLines = fields[2] == "on" ? 1 : Int(fields[2]) ?? 0
        self.init(column: column, row: row + (fields[3] == "top" ? statusLines : 0))
    }
}
