import LightboxLayout

/// The state's part for the terminal's screen: its size in cells and whether the info panel
/// takes part of it, and so where the grid, the panel and the status line go. Its own reducer
/// takes a new size and shows or hides the panel.
public struct Screen: Hashable, Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// Whether the info panel shows beside (or below) the grid.
    public private(set) var isShowingInfo = false

    /// Columns the info panel takes on a screen wide enough to have it beside the grid.
    static let infoPanelWidth = 42
    /// The narrowest screen that has the info panel beside the grid, not below it.
    static let infoPanelBesideFrom = 100
    /// Most lines the info panel takes below the grid.
    static let infoPanelLines = 15

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    mutating func resize(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    mutating func toggleInfo() { isShowingInfo.toggle() }

    /// Where the info panel goes when shown: a column on the right of a wide screen, else lines
    /// above the status line.
    public var infoPanel: Rect? {
        guard isShowingInfo else { return nil }
        if width >= Self.infoPanelBesideFrom {
            return Rect(x: width - Self.infoPanelWidth, y: 0, width: Self.infoPanelWidth, height: max(0, height - 1))
        }
        let lines = min(Self.infoPanelLines, max(0, (height - 1) / 2))
        return Rect(x: 0, y: height - 1 - lines, width: width, height: lines)
    }

    /// Lines available to the grid: all but the status line, and the info panel when it is below.
    public var gridHeight: Int { max(0, height - 1 - (infoPanel.map { $0.y == 0 ? 0 : $0.height } ?? 0)) }

    /// Columns available to the grid: all, or what the info panel leaves when it is beside it.
    public var gridAreaWidth: Int { width - (infoPanel.map { $0.y == 0 ? $0.width : 0 } ?? 0) }
}
