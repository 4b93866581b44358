import Foundation
import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

extension GalleryView {
    /// Rows of the luma graph, and of each colour's.
    static let lumaRows = 5, channelRows = 2
    /// Eighths of a cell, from empty to full.
    static let bars: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The panel beside the preview and compare: the shown (or focused) photo's details with `i`,
    /// its histogram and what is clipped with `e`.
    static func drawExposurePanel(_ state: GalleryState, in panel: Rect, into frame: inout Frame) {
        let palette = state.palette
        frame.fill(x: panel.x, y: panel.y, width: panel.width, height: panel.height, with: Cell(" ", style: palette.overlay))
        let id = state.compare?.focused ?? state.library.id(at: state.viewport.cursor)
        let file = state.library.file(id)
        let inner = panel.width - 2, x = panel.x + 1
        var y = panel.y
        func line(_ text: String, style: CellStyle? = nil) {
            guard y < panel.maxY else { return }
            frame.write(DisplayText.truncatedMiddle(text, toWidth: inner), x: x, y: y, style: style ?? palette.overlay, maxWidth: inner)
            y += 1
        }
        if state.screen.isShowingInfo {
            line("Details", style: palette.overlayKey)
            line(DisplayText.shortened(bytes: file.path.lastComponent, toWidth: inner))
            for row in exposureRows(state, id: id) {
                guard y < panel.maxY else { break }
                frame.write(row.label, x: x, y: y, style: palette.overlayKey, maxWidth: inner)
                frame.write(DisplayText.truncatedMiddle(row.value, toWidth: inner - 12), x: x + 12, y: y, style: palette.overlay, maxWidth: inner - 12)
                y += 1
            }
            y += 1
        }
        guard state.exposure.showsHistogram else { return }
        line("Histogram", style: palette.overlayKey)
        guard let histogram = exposurePicture(state)?.histogram else { return line("measuring…") }
        let theme = state.theme
        drawGraph(histogram.binned(histogram.luma, into: inner), x: x, y: y, rows: lumaRows, color: nil, palette: palette, into: &frame, maxY: panel.maxY)
        y += lumaRows
        let colors: [(String, [Int], (UInt8, UInt8, UInt8))] = [
            ("R", histogram.red, (230, 60, 60)), ("G", histogram.green, (60, 200, 80)), ("B", histogram.blue, (80, 130, 255)),
        ]
        for (_, channel, rgb) in colors {
            let color: TerminalColor? = theme.colorsText ? .rgb(rgb.0, rgb.1, rgb.2) : nil
            drawGraph(histogram.binned(channel, into: inner), x: x, y: y, rows: channelRows, color: color, palette: palette, into: &frame, maxY: panel.maxY)
            y += channelRows
        }
        let t = state.exposure.thresholds
        func percent(_ share: Double) -> String {
            share == 0 ? "0%" : share < 0.001 ? "<0.1%" : share < 0.1 ? String(format: "%.1f%%", share * 100) : "\(Int((share * 100).rounded()))%"
        }
        line("blown ≥\(t.highlights)  " + colors.map { "\($0.0) " + percent(histogram.share($0.1, atLeast: t.highlights)) }.joined(separator: " "))
        line("blocked ≤\(t.shadows)  " + percent(histogram.share(histogram.luma, atMost: t.shadows)))
        if file.format.traits.decoding == .embeddedPreview { line("measured on the camera's JPEG") }
    }

    /// The picture the panel measures: the one shown (or the focused pane's), else the nearest in size.
    static func exposurePicture(_ state: GalleryState) -> Thumbnail? {
        let key = state.compare.map { state.compareKey(ofPane: $0.focus) } ?? state.previewKey
        if let exact = state.store.cache.peek(key), exact.histogram != nil { return exact }
        return state.store.cache.closest(to: key)
    }

    /// The details a photographer judges a frame by: exposure, lens, camera, date, size on disk.
    static func exposureRows(_ state: GalleryState, id: ItemID) -> [InfoRow] {
        let file = state.library.file(id)
        let read = state.metadataState.results[id]
        let exif = read?.metadata ?? ImageMetadata()
        func value(_ text: String?) -> String { text.map(DisplayText.sanitized) ?? (read == nil ? "reading…" : "–") }
        var rows = [
            InfoRow(label: "Shutter", value: value(exif.exposure.map(exposureText))),
            InfoRow(label: "Aperture", value: value(exif.fNumber.map { String(format: "f/%.1f", $0) })),
            InfoRow(label: "ISO", value: value(exif.iso.map(String.init))),
            InfoRow(label: "Focal", value: value(exif.focalLength.map { String(format: "%.0f mm", $0) })),
            InfoRow(label: "Exp. comp.", value: value(exif.exposureBias.map(biasText))),
            InfoRow(label: "Lens", value: value(exif.lens)),
            InfoRow(label: "Camera", value: value(ItemDetails.camera(make: exif.make, model: exif.model))),
            InfoRow(label: "Taken", value: value(exif.dateTaken.map(dateText))),
            InfoRow(label: "On disk", value: byteText(file.byteCount)),
        ]
        if let size = read?.size { rows.append(InfoRow(label: "Size", value: "\(size.width) × \(size.height)")) }
        return rows
    }

    /// `+0.7 EV`, `0 EV`, `-1.3 EV`.
    static func biasText(_ ev: Double) -> String {
        abs(ev) < 0.05 ? "0 EV" : String(format: "%+.1f EV", ev)
    }

    /// `counts` as bars `rows` tall, each column one count, scaled to the tallest (the two ends,
    /// where clipped pixels pile up, do not set the scale; they are cut at the top).
    static func drawGraph(
        _ counts: [Int], x: Int, y: Int, rows: Int, color: TerminalColor?, palette: Palette, into frame: inout Frame, maxY: Int
    ) {
        let inner = counts.count > 2 ? counts[1..<(counts.count - 1)] : counts[...]
        let top = max(1, inner.max() ?? 1)
        var style = palette.overlay
        if let color { style.foreground = color }
        for (column, count) in counts.enumerated() {
            let eighths = min(rows * 8, (count * rows * 8 + top - 1) / top)
            for row in 0..<rows where y + row < maxY {
                // Row 0 is the top: it fills only with what is left above the rows below it.
                let below = (rows - 1 - row) * 8
                let fill = max(0, min(8, eighths - below))
                frame[x + column, y + row] = Cell(String(bars[fill]), style: style)
            }
        }
    }
}
