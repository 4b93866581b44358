import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

/// Draws the gallery state into a frame. Pure: no I/O, the same code for the UI and for snapshots.
public enum GalleryView {
    /// The whole screen for `state`.
    /// - Complexity: O(*w* × *h*) plus O(log *s*) for the layout queries.
    public static func frame(for state: GalleryState, keys: KeyTable = .standard) -> Frame {
        var frame = Frame(width: state.screenWidth, height: state.screenHeight)
        if state.library.isEmpty {
            let text = state.isScanning ? "Looking for images…" : "No images found."
            drawCentered([text, "q quits"], in: &frame, height: state.gridHeight)
        } else if state.isTooSmall {
            let text = state.screenWidth >= 18 ? "Terminal too small" : state.screenWidth >= 9 ? "too small" : "small"
            drawCentered([text, "\(state.screenWidth)x\(state.screenHeight)"], in: &frame, height: state.gridHeight)
        } else {
            drawGrid(state, into: &frame)
        }
        if let panel = state.infoPanel { drawInfo(state, in: panel, into: &frame) }
        drawStatus(state, into: &frame)
        if state.isShowingHelp {
            // Problems met while scanning take the bottom of the screen; the keys the rest.
            let problemLines = state.scanProblems.isEmpty ? 0 : min(state.scanProblems.count + 1, state.gridHeight / 3)
            drawHelp(keys, into: &frame, height: state.gridHeight - problemLines)
            drawProblems(state.scanProblems, into: &frame, top: state.gridHeight - problemLines, height: problemLines)
        }
        return frame
    }

    static func drawGrid(_ state: GalleryState, into frame: inout Frame) {
        let layout = state.layout
        let offset = state.scrollOffset
        let height = state.gridHeight
        for item in state.visibleItems {
            drawTile(item, state: state, into: &frame)
        }
        // Headers in view, then the pinned one over the top line.
        if let first = layout.section(atOffset: offset), let last = layout.section(atOffset: offset + height - 1) {
            for s in first...last {
                let y = layout.headerTop(ofSection: s) - offset
                if y >= 0 && y < height { drawHeader(s, state: state, y: y, into: &frame) }
            }
        }
        if let pinned = layout.pinnedHeader(atOffset: offset), pinned.y + layout.metrics.headerHeight > 0 {
            drawHeader(pinned.section, state: state, y: pinned.y, into: &frame)
        }
    }

    static func drawHeader(_ section: Int, state: GalleryState, y: Int, into frame: inout Frame) {
        let info = state.library.sections[section]
        frame.fill(x: 0, y: y, width: frame.width, height: 1, with: Cell(" ", style: Palette.header))
        let count = info.items.count
        let marked = state.marks.count(in: info.items)
        var tail = "\(count) \(count == 1 ? "image" : "images")"
        if marked > 0 { tail += " · \(marked) marked" }
        let title = DisplayText.sanitized(bytes: info.title)
        let room = max(0, frame.width - DisplayWidth.of(tail) - 6)
        let used = frame.write("▍ " + DisplayText.truncatedMiddle(title, toWidth: room), x: 0, y: y, style: Palette.header)
        frame.write("  " + tail, x: used, y: y, style: Palette.headerCount)
    }

    static func drawCentered(_ lines: [String], in frame: inout Frame, height: Int) {
        let top = max(0, (height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < height {
            let text = DisplayText.truncatedMiddle(line, toWidth: frame.width)
            frame.write(text, x: max(0, (frame.width - DisplayWidth.of(text)) / 2), y: top + i, style: Palette.message)
        }
    }
}
