import LightboxApp
import LightboxTerminal

extension GalleryView {
    /// The bottom line: position, total, marks, loading count, then the cursor's file or what went wrong.
    static func drawStatus(_ state: GalleryState, into frame: inout Frame) {
        let y = frame.height - 1
        guard y >= 0 else { return }
        frame.fill(x: 0, y: y, width: frame.width, height: 1, with: Cell(" ", style: Palette.status))
        var left = state.library.isEmpty ? " 0/0" : " \(state.cursor + 1)/\(state.library.count)"
        if !state.filterText.isEmpty || state.isEditingFilter {
            // The filter: typed after a slash, with how many of all match.
            let cursor = state.isEditingFilter ? "▏" : ""
            left = " /" + DisplayText.sanitized(state.filterText) + cursor + "  " + left.dropFirst() + " of \(state.library.totalCount)"
        }
        // Pairs make fewer items than files: both are counted.
        if state.library.fileCount != state.library.totalCount { left += " (\(state.library.fileCount) files)" }
        if state.isScanning { left += " found, scanning…" }
        if state.markedCount > 0 {
            left += "  ✓\(state.markedCount) marked"
            if !state.hiddenMarks.isEmpty { left += " (\(state.hiddenMarks.count) hidden by the filter)" }
        }
        let loading = state.loadingCount
        if loading > 0 { left += "  ⋯\(loading) loading" }
        // The read-ahead, quietly: how much of the library is in the disk cache so far.
        if let progress = state.readAheadProgress, progress.done > 0, progress.done < progress.total {
            left += "  ⇣\(progress.done * 100 / progress.total)%"
        }
        // Over a slow link pictures go at a lower resolution: say so.
        let reduction = state.pictures.reduction
        if reduction > 1 { left += "  " + (reduction == 2 ? "½" : "¼") + " res" }
        // Over a slow link pictures stream after the cells: how many are still on their way.
        let waiting = state.pictures.waiting
        if waiting > 0 { left += "  ↓\(waiting) " + (waiting == 1 ? "picture" : "pictures") + " on the way" }
        let help = " ? help "
        var x = frame.write(left + "  ", x: 0, y: y, style: Palette.status)
        let room = max(0, frame.width - x - DisplayWidth.of(help))
        if let message = state.message {
            x += frame.write(DisplayText.truncatedMiddle(DisplayText.sanitized(message), toWidth: room), x: x, y: y, style: Palette.status)
        } else if !state.library.isEmpty, let reason = state.failure(at: state.cursor) {
            let text = "✗ " + DisplayText.sanitized(reason)
            x += frame.write(DisplayText.truncatedMiddle(text, toWidth: room), x: x, y: y, style: Palette.statusWarning)
        } else if !state.library.isEmpty {
            let path = DisplayText.shortened(bytes: state.library[state.cursor].path.bytes, toWidth: room)
            x += frame.write(path, x: x, y: y, style: Palette.status)
        }
        if let problem = state.scanProblems.first, state.message == nil, x + 4 < frame.width - DisplayWidth.of(help) {
            // The count is kept whole; the problem's text is what gets shortened.
            let more = state.scanProblemCount > 1 ? " (+\(state.scanProblemCount - 1) more: ? lists them)" : ""
            let room = frame.width - x - DisplayWidth.of(help)
            let text = DisplayText.truncatedMiddle("  ⚠ " + DisplayText.sanitized(problem), toWidth: max(4, room - DisplayWidth.of(more)))
            frame.write(DisplayText.truncatedMiddle(text + more, toWidth: room), x: x, y: y, style: Palette.statusWarning)
        }
        frame.write(help, x: max(0, frame.width - DisplayWidth.of(help)), y: y, style: Palette.status)
    }

    /// The help overlay, made from the key table: one column of keys, or two when one does not fit.
    static func drawHelp(_ keys: KeyTable, into frame: inout Frame, height: Int) {
        let rows = keys.bindings.map { binding in
            // A run of keys (the digits) shows as its ends.
            let names = binding.keys.map(\.name)
            return (names.count > 4 ? names.first! + "…" + names.last! : names.joined(separator: " "), binding.help)
        }
        let keyWidth = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        let textWidth = rows.map { DisplayWidth.of($0.1) }.max() ?? 0
        let columnWidth = keyWidth + textWidth + 4
        let columnCount = rows.count + 4 > height && 2 * columnWidth + 4 <= frame.width ? 2 : 1
        let perColumn = (rows.count + columnCount - 1) / columnCount
        let width = min(frame.width, columnCount * columnWidth + 3)
        let boxHeight = min(height, perColumn + 4)
        let x0 = max(0, (frame.width - width) / 2), y0 = max(0, (height - boxHeight) / 2)
        frame.fill(x: x0, y: y0, width: width, height: boxHeight, with: Cell(" ", style: Palette.overlay))
        frame.write(" Lightbox keys ", x: x0 + 2, y: y0, style: Palette.overlayKey)
        for (i, row) in rows.enumerated() {
            let column = i / perColumn, line = i % perColumn
            guard line + 2 < boxHeight - 1 else { continue }
            let x = x0 + 2 + column * columnWidth, y = y0 + 1 + line
            frame.write(row.0, x: x, y: y, style: Palette.overlayKey, maxWidth: keyWidth)
            frame.write(row.1, x: x + keyWidth + 2, y: y, style: Palette.overlay, maxWidth: max(0, min(textWidth, x0 + width - x - keyWidth - 3)))
        }
        if boxHeight >= 3 {
            let hidden = rows.count - columnCount * max(0, boxHeight - 3)
            let footer = hidden > 0 ? "\(hidden) more in a larger terminal · any key closes" : "any key closes"
            frame.write(footer, x: x0 + 2, y: y0 + boxHeight - 1, style: Palette.overlay, maxWidth: width - 3)
        }
    }

    /// What the scan could not read, listed under the help (the status line shows only the first).
    /// `total` counts the problems not listed too.
    static func drawProblems(_ problems: [String], total: Int, into frame: inout Frame, top: Int, height: Int) {
        guard height >= 2 else { return }
        frame.fill(x: 0, y: top, width: frame.width, height: height, with: Cell(" ", style: Palette.overlay))
        frame.write(" Problems while scanning (\(total)) ", x: 1, y: top, style: Palette.overlayKey)
        for (i, problem) in problems.prefix(height - 1).enumerated() {
            var text = DisplayText.sanitized(problem)
            if i == height - 2, total > height - 1 { text = "… and \(total - i) more" }
            frame.write(DisplayText.truncatedMiddle(text, toWidth: frame.width - 4), x: 2, y: top + 1 + i, style: Palette.overlay)
        }
    }
}
