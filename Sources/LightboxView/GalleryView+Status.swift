import LightboxApp
import LightboxTerminal

extension GalleryView {
    /// The bottom line: position, total, marks, loading count, then the cursor's file or what went wrong.
    static func drawStatus(_ state: GalleryState, into frame: inout Frame) {
        let palette = state.palette
        let y = frame.height - 1
        guard y >= 0 else { return }
        frame.fill(x: 0, y: y, width: frame.width, height: 1, with: Cell(" ", style: palette.status))
        var left = state.library.isEmpty ? " 0/0" : " \(state.viewport.cursor + 1)/\(state.library.count)"
        if !state.filter.text.isEmpty || state.isEditingFilter {
            // The filter: typed after a slash, with how many of all match.
            let cursor = state.isEditingFilter ? "▏" : ""
            left = " /" + DisplayText.sanitized(state.filter.text) + cursor + "  " + left.dropFirst() + " of \(state.library.foundCount)"
        }
        // Pairs make fewer items than files: both are counted.
        if state.library.fileCount != state.library.foundCount { left += " (\(state.library.fileCount) files)" }
        if state.isScanning && state.isWalkOver {
            // Every file found: the files of folders taken from the index are looked at for changes, quietly.
            left += "  checking for changes…"
        } else if state.isScanning {
            // Shown from their folders' listings, named and not read yet: not found to be photos so far.
            let listed = state.library.unreadListedCount
            left += listed > 0 ? " found (\(listed) listed, not read yet), scanning…" : " found, scanning…"
        }
        if state.markedCount > 0 {
            left += "  ✓\(state.markedCount) marked"
            let stacked = state.selection.hidden.count { state.library.stackOf[$0] != nil }
            let filtered = state.selection.hidden.count - stacked
            if filtered > 0 { left += " (\(filtered) hidden by the filter)" }
            if stacked > 0 { left += " (\(stacked) in closed stacks)" }
        }
        // Decisions so far: how many are rated three stars or more, and rejected.
        let decided = state.decisions.counts(starsAtLeast: 3)
        if decided.rated + decided.rejected > 0 {
            left +=
                "  "
                + [decided.rated > 0 ? "★3+ \(decided.rated)" : nil, decided.rejected > 0 ? "✗ \(decided.rejected)" : nil].compactMap { $0 }.joined(
                    separator: " · ")
        }
        let kept = state.decisions.keptAside.count
        if kept > 0 { left += "  ⚑\(kept) not beside " + (kept == 1 ? "the photo" : "their photos") }
        if state.cullKeys { left += "  [cull]" }
        // The filter asks what files' metadata says: until every file is read, it may show too few.
        if let progress = state.detailsProgress { left += "  reading details… \(progress.done * 100 / max(1, progress.total))%" }
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
        var x = frame.write(left + "  ", x: 0, y: y, style: palette.status)
        // A mount that stopped answering: why tiles wait, before anything else is said.
        if !state.mountsNotAnswering.isEmpty {
            let text = "▲ " + mountsAway(state.mountsNotAnswering, unmounted: state.mountsUnmounted) + "  "
            x += frame.write(
                DisplayText.truncatedMiddle(text, toWidth: max(0, frame.width - x - DisplayWidth.of(help))), x: x, y: y, style: palette.statusWarning)
        }
        let room = max(0, frame.width - x - DisplayWidth.of(help))
        if let message = state.message {
            x += frame.write(DisplayText.truncatedMiddle(DisplayText.sanitized(message), toWidth: room), x: x, y: y, style: palette.status)
        } else if !state.library.isEmpty, let reason = state.failure(at: state.viewport.cursor) {
            let text = "✗ " + DisplayText.sanitized(reason)
            x += frame.write(DisplayText.truncatedMiddle(text, toWidth: room), x: x, y: y, style: palette.statusWarning)
        } else if !state.library.isEmpty {
            let path = DisplayText.shortened(bytes: state.library[state.viewport.cursor].path.bytes, toWidth: room)
            x += frame.write(path, x: x, y: y, style: palette.status)
        }
        if let problem = state.scanProblems.first, state.message == nil, x + 4 < frame.width - DisplayWidth.of(help) {
            // The count is kept whole; the problem's text is what gets shortened.
            let more = state.scanProblemCount > 1 ? " (+\(state.scanProblemCount - 1) more: ? lists them)" : ""
            let room = frame.width - x - DisplayWidth.of(help)
            let text = DisplayText.truncatedMiddle("  ⚠ " + DisplayText.sanitized(problem), toWidth: max(4, room - DisplayWidth.of(more)))
            frame.write(DisplayText.truncatedMiddle(text + more, toWidth: room), x: x, y: y, style: palette.statusWarning)
        }
        frame.write(help, x: max(0, frame.width - DisplayWidth.of(help)), y: y, style: palette.status)
    }

    /// The help overlay, made from the key table: the page the state shows of `HelpPages`.
    static func drawHelp(_ pages: HelpPages, page: Int, palette: Palette, into frame: inout Frame, height: Int) {
        let x0 = max(0, (frame.width - pages.width) / 2), y0 = max(0, (height - pages.height) / 2)
        frame.fill(x: x0, y: y0, width: pages.width, height: pages.height, with: Cell(" ", style: palette.overlay))
        frame.write(" Lightbox keys ", x: x0 + 2, y: y0, style: palette.overlayKey)
        for (row, column, line) in pages.rows(onPage: page) {
            let x = x0 + 2 + column * pages.columnWidth, y = y0 + 1 + line
            frame.write(row.keys, x: x, y: y, style: palette.overlayKey, maxWidth: pages.keyWidth)
            frame.write(
                row.help, x: x + pages.keyWidth + 2, y: y, style: palette.overlay,
                maxWidth: max(0, min(pages.textWidth, x0 + pages.width - x - pages.keyWidth - 3)))
        }
        if pages.height >= 3 {
            frame.write(pages.footer(onPage: page), x: x0 + 2, y: y0 + pages.height - 1, style: palette.overlay, maxWidth: pages.width - 3)
        }
    }

    /// What the scan could not read, listed under the help (the status line shows only the first).
    /// `total` counts the problems not listed too.
    static func drawProblems(_ problems: [String], total: Int, palette: Palette, into frame: inout Frame, top: Int, height: Int) {
        guard height >= 2 else { return }
        frame.fill(x: 0, y: top, width: frame.width, height: height, with: Cell(" ", style: palette.overlay))
        frame.write(" Problems while scanning (\(total)) ", x: 1, y: top, style: palette.overlayKey)
        for (i, problem) in problems.prefix(height - 1).enumerated() {
            var text = DisplayText.sanitized(problem)
            if i == height - 2, total > height - 1 { text = "… and \(total - i) more" }
            frame.write(DisplayText.truncatedMiddle(text, toWidth: frame.width - 4), x: 2, y: top + 1 + i, style: palette.overlay)
        }
    }

    /// The mounts away, each group named with why: not answering (stalled, or gone), or not
    /// mounted (`unmounted`: a share's mount point seen without its share). Text from the
    /// system (mount points) is sanitized.
    public static func mountsAway(_ mounts: [String], unmounted: Set<String>) -> String {
        let stalled = mounts.filter { !unmounted.contains($0) }, away = mounts.filter(unmounted.contains)
        return [(stalled, "not answering"), (away, "not mounted")].filter { !$0.0.isEmpty }.map { group, why in
            group.map { DisplayText.sanitized($0) }.joined(separator: ", ") + " " + why
        }.joined(separator: "; ")
    }
}
