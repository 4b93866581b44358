/// Where compare's panes go: one to four photos side by side, in the arrangement (columns by
/// rows) that shows their pictures largest, each pane a picture over a caption row.
public enum CompareLayout {
    /// The most photos compared at once.
    public static let maxPanes = 4
    /// Columns between two panes side by side.
    public static let gap = 1
    /// Rows under each pane's picture for its caption (its name and decisions).
    public static let captionHeight = 1

    /// The panes for `count` photos (1 to 4) over `width` × `height` cells, in reading order,
    /// each with its caption row at its bottom. `aspect` is the photos' width over their height
    /// in cells (a 3:2 photo on cells twice as tall as wide is 3.0). Rows with fewer panes than
    /// columns are centred. Empty when the screen has no room for one picture cell a pane.
    public static func panes(count: Int, width: Int, height: Int, aspect: Double) -> [Rect] {
        let count = min(maxPanes, max(0, count))
        guard count > 0, let columns = bestColumns(count: count, width: width, height: height, aspect: aspect) else { return [] }
        let rows = (count + columns - 1) / columns
        let paneWidth = (width - (columns - 1) * gap) / columns, paneHeight = height / rows
        return (0..<count).map { index in
            let row = index / columns, column = index % columns
            // The last row may hold fewer: centred under the others.
            let inRow = row == rows - 1 ? count - row * columns : columns
            let rowWidth = inRow * paneWidth + (inRow - 1) * gap
            let left = (width - rowWidth) / 2
            return Rect(x: left + column * (paneWidth + gap), y: row * paneHeight, width: paneWidth, height: paneHeight)
        }
    }

    /// The part of a pane its picture takes: all but the caption row.
    public static func picture(of pane: Rect) -> Rect {
        Rect(x: pane.x, y: pane.y, width: pane.width, height: max(0, pane.height - captionHeight))
    }

    /// The columns that show `count` pictures of `aspect` largest over `width` × `height` cells
    /// (side by side when two arrangements tie); nil when none leaves a picture cell.
    static func bestColumns(count: Int, width: Int, height: Int, aspect: Double) -> Int? {
        var best: (columns: Int, area: Double)?
        for columns in stride(from: count, through: 1, by: -1) {
            let area = pictureArea(columns: columns, count: count, width: width, height: height, aspect: aspect)
            guard area > 0 else { continue }
            if best == nil || area > best!.area * 1.0001 { best = (columns, area) }
        }
        return best?.columns
    }

    /// The cells a picture of `aspect` covers when fitted to each pane of `columns` columns.
    public static func pictureArea(columns: Int, count: Int, width: Int, height: Int, aspect: Double) -> Double {
        let rows = (count + columns - 1) / columns
        let paneWidth = (width - (columns - 1) * gap) / columns, pictureHeight = height / rows - captionHeight
        guard paneWidth > 0, pictureHeight > 0 else { return 0 }
        let aspect = aspect > 0 && aspect.isFinite ? aspect : 1
        let w = Double(paneWidth), h = Double(pictureHeight)
        // Fitted: the width fills when the picture is wider than the box, else the height.
        return w / h >= aspect ? h * h * aspect : w * w / aspect
    }
}
