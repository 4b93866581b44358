import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

/// Draws the gallery state into a frame. Pure: no I/O, the same code for the UI and for snapshots.
public enum GalleryView {
    /// The whole screen for `state`.
    /// - Complexity: O(*w* × *h*) plus O(log *s*) for the layout queries.
    public static func frame(for state: GalleryState, keys: KeyTable? = nil) -> Frame {
        let keys = keys ?? state.keyTable
        let palette = state.palette
        var frame = Frame(width: state.screen.width, height: state.screen.height)
        if state.preview != nil && !state.library.isEmpty {
            drawPreview(state, into: &frame)
            return clipped(frame, state: state)
        }
        if state.compare != nil && !state.library.isEmpty {
            drawCompare(state, into: &frame)
            return clipped(frame, state: state)
        }
        if state.library.isEmpty && !state.filter.text.isEmpty {
            drawCentered(
                ["No names match “\(DisplayText.sanitized(state.filter.text))”", "Esc clears the filter"], in: &frame, height: state.screen.gridHeight,
                palette: palette
            )
        } else if state.library.isEmpty {
            let text = state.isScanning ? "Looking for images…" : "No images found."
            drawCentered([text, "q quits"], in: &frame, height: state.screen.gridHeight, palette: palette)
        } else if state.isTooSmall {
            let text = state.screen.width >= 18 ? "Terminal too small" : state.screen.width >= 9 ? "too small" : "small"
            drawCentered([text, "\(state.screen.width)x\(state.screen.height)"], in: &frame, height: state.screen.gridHeight, palette: palette)
        } else {
            drawGrid(state, into: &frame)
            cursorPictureFirst(state, in: &frame)
        }
        if let panel = state.screen.infoPanel { drawInfo(state, in: panel, into: &frame) }
        drawStatus(state, into: &frame)
        if state.isShowingHelp {
            // Problems met while scanning take the bottom of the screen; the keys the rest.
            let problemLines = state.screen.gridHeight - state.helpHeight
            drawHelp(
                HelpPages(keys, width: state.screen.width, height: state.helpHeight), page: state.helpPage, palette: palette, into: &frame,
                height: state.helpHeight)
            drawProblems(state.scanProblems, total: state.scanProblemCount, palette: palette, into: &frame, top: state.helpHeight, height: problemLines)
        }
        return clipped(frame, state: state)
    }

    /// Puts the cursor tile's picture first, so over a slow link it is the first sent.
    static func cursorPictureFirst(_ state: GalleryState, in frame: inout Frame) {
        let key = state.thumbnailKey(ofItem: state.viewport.cursor)
        guard let serial = state.store.cache.serial(of: key) else { return }
        let id = state.imageID(serial: serial)
        if let index = frame.images.firstIndex(where: { $0.id == id }), index > 0 { frame.images.insert(frame.images.remove(at: index), at: 0) }
    }

    /// The frame with its pictures narrowed to the cells still theirs: kitty placeholders, or the
    /// blank cells sixel paints over.
    static func clipped(_ frame: Frame, state: GalleryState) -> Frame {
        let palette = state.palette
        guard !frame.images.isEmpty else { return frame }
        var frame = frame
        if state.pictures.graphics.pixelProtocol?.showsThroughCells == true {
            frame.clipImages { $0.glyph.unicodeScalars.first == KittyGraphics.placeholder }
        } else {
            let letterbox = palette.letterboxCell  // built from the theme once, not for every cell
            frame.clipImages { $0 == letterbox }
        }
        return frame
    }

    static func drawGrid(_ state: GalleryState, into frame: inout Frame) {
        guard state.layout.axis == .vertical else { return drawStrip(state, into: &frame) }
        let layout = state.layout
        let offset = state.viewport.offset
        let height = state.screen.gridHeight
        for item in state.visibleItems where state.isOnScreen(item) {
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
        // Footers in view, then the one pinned to the bottom line.
        if layout.metrics.footerHeight > 0, let first = layout.section(atOffset: offset), let last = layout.section(atOffset: offset + height - 1) {
            for s in first...last where !layout.collapsed[s] {
                let y = layout.footerTop(ofSection: s) - offset
                if y >= 0 && y < height { drawFooter(s, state: state, y: y, into: &frame) }
            }
            if let pinned = layout.pinnedFooter(atOffset: offset, height: height) {
                drawFooter(pinned.section, state: state, y: pinned.y, into: &frame)
            }
        }
    }

    /// The strip: tiles scrolled sideways, each section's header a card at its leading edge, the
    /// current one pinned to the left.
    static func drawStrip(_ state: GalleryState, into frame: inout Frame) {
        let layout = state.layout
        for item in state.visibleItems where state.isOnScreen(item) {
            drawTile(item, state: state, into: &frame)
        }
        let offset = state.viewport.offset, length = state.viewportLength
        let pinned = layout.pinnedHeader(atOffset: offset)
        if let first = layout.section(atOffset: offset), let last = layout.section(atOffset: offset + length - 1) {
            // The pinned section's own card is drawn pinned, at the left edge, and only there.
            for s in first...last where s != pinned?.section {
                let card = screenFrame(layout.headerFrame(ofSection: s), state: state)
                if card.maxX > 0 && card.x < state.screen.gridAreaWidth { drawHeaderCard(s, state: state, at: card, into: &frame) }
            }
        }
        if let pinned {
            var card = screenFrame(layout.headerFrame(ofSection: pinned.section), state: state)
            card.x = pinned.y
            drawHeaderCard(pinned.section, state: state, at: card, into: &frame)
        }
    }

    /// A section's header as a card: its title wrapped over a few lines, then its counts.
    static func drawHeaderCard(_ section: Int, state: GalleryState, at card: Rect, into frame: inout Frame) {
        let palette = state.palette
        let info = state.library.sections[section]
        let isCollapsed = state.layout.collapsed[section]
        let hasCursor = isCollapsed && state.layout.section(ofItem: state.viewport.cursor) == section
        let style = hasCursor ? palette.cursorHeader : palette.header
        let height = min(card.height, state.screen.gridHeight)
        frame.fill(x: card.x, y: card.y, width: card.width, height: height, with: Cell(" ", style: style))
        let room = max(1, card.width - 2)
        let lines = wrapped(DisplayText.shortened(bytes: info.title, toWidth: room * 4), width: room, maxLines: 4)
        let marked = state.selection.marks.count(in: info.items)
        var counts = counts(info)  // a line each: the card is narrow
        if marked > 0 { counts.append("\(marked) marked") }
        counts += decisionCounts(info, state: state)
        if isCollapsed { counts.append("collapsed") }
        for (i, line) in lines.enumerated() where i < height {
            frame.write((i == 0 ? (isCollapsed ? "▸" : "▍") : " ") + line, x: card.x, y: card.y + i, style: style, maxWidth: card.width)
        }
        for (i, line) in counts.enumerated() where lines.count + 1 + i < height {
            frame.write(" " + line, x: card.x, y: card.y + lines.count + 1 + i, style: hasCursor ? style : palette.headerCount, maxWidth: card.width)
        }
    }

    /// What a section holds, kind by kind: `12 images`; `3 videos`; `10 images`, `2 videos`.
    static func counts(_ section: Library.Section) -> [String] {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        let pictures = section.items.count - section.videoCount
        let parts = [(pictures, "image"), (section.videoCount, "video")].filter { $0.0 > 0 }.map(counted)
        return parts.isEmpty ? [counted(0, "image")] : parts
    }

    /// What was decided in a section, as the status line counts it: `★3+ 14`, `✗ 30`.
    static func decisionCounts(_ section: Library.Section, state: GalleryState) -> [String] {
        let counted = state.library.decisionCounts(in: section.items, starsAtLeast: 3)
        return [counted.rated > 0 ? "★3+ \(counted.rated)" : nil, counted.rejected > 0 ? "✗ \(counted.rejected)" : nil].compactMap { $0 }
    }

    /// The counts on one line: `10 images, 2 videos`.
    static func countText(_ section: Library.Section) -> String { counts(section).joined(separator: ", ") }

    /// `text` in lines of at most `width` cells, broken after a `/` or a space where one is near.
    static func wrapped(_ text: String, width: Int, maxLines: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty && lines.count < maxLines {
            var end = rest.startIndex, used = 0, lastBreak: String.Index? = nil
            while end < rest.endIndex, used + DisplayWidth.of(rest[end]) <= width {
                used += DisplayWidth.of(rest[end])
                if rest[end] == "/" || rest[end] == " " { lastBreak = rest.index(after: end) }
                end = rest.index(after: end)
            }
            if end == rest.startIndex { break }
            if end < rest.endIndex, let lastBreak { end = lastBreak }
            lines.append(String(rest[..<end]))
            rest = rest[end...]
        }
        if !rest.isEmpty, let last = lines.popLast() { lines.append(DisplayText.truncatedMiddle(last + rest, toWidth: width)) }
        return lines
    }

    /// A section's footer: its counts, right-aligned under the grid.
    static func drawFooter(_ section: Int, state: GalleryState, y: Int, into frame: inout Frame) {
        let palette = state.palette
        let info = state.library.sections[section]
        let marked = state.selection.marks.count(in: info.items)
        let text = marked > 0 ? "\(marked) marked of \(info.items.count)" : "\(countText(info)), none marked"
        let width = state.screen.gridAreaWidth
        frame.fill(x: 0, y: y, width: width, height: 1, with: Cell(" ", style: palette.footer))
        let shown = DisplayText.truncatedMiddle(text + " ", toWidth: width)
        frame.write(shown, x: max(0, width - DisplayWidth.of(shown)), y: y, style: palette.footer)
    }

    static func drawHeader(_ section: Int, state: GalleryState, y: Int, into frame: inout Frame) {
        let palette = state.palette
        let info = state.library.sections[section]
        let isCollapsed = state.layout.collapsed[section]
        // On a collapsed section, the cursor is its header.
        let hasCursor = isCollapsed && state.layout.section(ofItem: state.viewport.cursor) == section
        let style = hasCursor ? palette.cursorHeader : palette.header
        frame.fill(x: 0, y: y, width: frame.width, height: 1, with: Cell(" ", style: style))
        let marked = state.selection.marks.count(in: info.items)
        var tail = countText(info)
        if marked > 0 { tail += " · \(marked) marked" }
        for part in decisionCounts(info, state: state) { tail += " · " + part }
        if isCollapsed { tail += " · collapsed (z)" }
        let room = max(0, frame.width - DisplayWidth.of(tail) - 6)
        let title = DisplayText.shortened(bytes: info.title, toWidth: room)
        let used = frame.write((isCollapsed ? "▸ " : "▍ ") + title, x: 0, y: y, style: style)
        frame.write("  " + tail, x: used, y: y, style: hasCursor ? style : palette.headerCount)
    }

    static func drawCentered(_ lines: [String], in frame: inout Frame, height: Int, palette: Palette) {
        let top = max(0, (height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < height {
            let text = DisplayText.truncatedMiddle(line, toWidth: frame.width)
            frame.write(text, x: max(0, (frame.width - DisplayWidth.of(text)) / 2), y: top + i, style: palette.message)
        }
    }
}
