import Foundation
import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

extension GalleryView {
    /// One row of the info table: a label, a value, and whether the value is a number (right-aligned).
    struct InfoRow: Equatable {
        var label: String
        var value: String
        var isNumber = false
    }

    /// The cursor item's details as table rows; EXIF rows say "reading…" until read.
    static func infoRows(_ state: GalleryState) -> [InfoRow] {
        guard !state.library.isEmpty else { return [] }
        let file = state.library[state.viewport.cursor]
        // Never wider than the screen; what a row cannot show is cut in the middle later.
        let width = state.screen.width
        var rows = [
            InfoRow(label: "Name", value: DisplayText.shortened(bytes: file.path.lastComponent, toWidth: width)),
            InfoRow(label: "Folder", value: DisplayText.shortened(bytes: file.path.parent.bytes, toWidth: width)),
        ]
        let decision = state.decisions[state.library.id(at: state.viewport.cursor)]
        if decision.rating != 0 {
            rows.append(InfoRow(label: "Rating", value: decision.isRejected ? "rejected" : String(repeating: "★", count: decision.stars)))
        }
        if !decision.labels.isEmpty { rows.append(InfoRow(label: "Labels", value: decision.labels.map { $0.name.lowercased() }.joined(separator: ", "))) }
        if state.decisions.keptAside.contains(state.library.id(at: state.viewport.cursor)) {
            rows.append(InfoRow(label: "Kept", value: "not beside the photo"))
        }
        guard let read = state.metadataState.results[state.library.id(at: state.viewport.cursor)] else {
            return rows + [
                InfoRow(label: "File size", value: byteText(file.byteCount), isNumber: true),
                InfoRow(label: "Format", value: formatName(file.format)), InfoRow(label: "Details", value: "reading…"),
            ]
        }
        if let size = read.size { rows.append(InfoRow(label: "Dimensions", value: "\(size.width) × \(size.height)", isNumber: true)) }
        rows.append(InfoRow(label: "File size", value: byteText(file.byteCount), isNumber: true))
        rows.append(InfoRow(label: "Format", value: formatName(file.format)))
        // A pair's other files.
        for (i, member) in file.companions.enumerated() {
            rows.append(InfoRow(label: i == 0 ? "With" : "", value: DisplayText.shortened(bytes: member.path.lastComponent, toWidth: width)))
        }
        let exif = read.metadata ?? ImageMetadata()
        func add(_ label: String, _ value: String?, number: Bool = false) {
            rows.append(InfoRow(label: label, value: value.map(DisplayText.sanitized) ?? "–", isNumber: number && value != nil))
        }
        if let video = exif.video ?? (file.format.isVideo ? VideoMetadata() : nil) {
            add("Created", exif.dateTaken.map(dateText))
            add("Duration", video.duration.map(durationText), number: true)
            add("Codec", video.codec)
            add("Frame rate", video.frameRate.map { String(format: "%.3g fps", $0) }, number: true)
            return rows
        }
        add("Date taken", exif.dateTaken.map(dateText))
        add("Camera make", exif.make)
        add("Camera model", exif.model)
        add("Lens", exif.lens)
        add("Exposure", exif.exposure.map(exposureText), number: true)
        add("Aperture", exif.fNumber.map { String(format: "f/%.1f", $0) }, number: true)
        add("ISO", exif.iso.map(String.init), number: true)
        add("Focal length", exif.focalLength.map { String(format: "%.0f mm", $0) }, number: true)
        add("GPS", read.metadata == nil ? nil : exif.hasGPS ? "present" : "none")
        return rows
    }

    /// The info panel: a table whose label column is as wide as its widest label, labels left,
    /// numbers right, text left, as SwiftUI's `Grid` aligns its columns.
    static func drawInfo(_ state: GalleryState, in panel: Rect, into frame: inout Frame) {
        let palette = state.palette
        guard panel.width >= 8, panel.height >= 2 else { return }
        frame.fill(x: panel.x, y: panel.y, width: panel.width, height: panel.height, with: Cell(" ", style: palette.overlay))
        frame.write(" Details ", x: panel.x + 1, y: panel.y, style: palette.overlayKey)
        let rows = infoRows(state)
        let labelWidth = rows.map { DisplayWidth.of($0.label) }.max() ?? 0
        let valueX = panel.x + 2 + labelWidth + 2
        let room = max(1, panel.maxX - 1 - valueX)
        let valueWidth = min(room, rows.map { DisplayWidth.of($0.value) }.max() ?? 0)
        for (i, row) in rows.enumerated() where i + 1 < panel.height {
            let y = panel.y + 1 + i
            frame.write(row.label, x: panel.x + 2, y: y, style: palette.overlayKey, maxWidth: labelWidth)
            let value = DisplayText.truncatedMiddle(row.value, toWidth: room)
            let x = row.isNumber ? valueX + max(0, valueWidth - DisplayWidth.of(value)) : valueX
            frame.write(value, x: x, y: y, style: palette.overlay, maxWidth: room)
        }
    }

    static func byteText(_ bytes: Int64) -> String {
        if bytes < 0 { return "not read yet" }  // listed, not read (`ImageFile.isListed`)
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }

    static func formatName(_ format: ImageFormat) -> String { format.traits.title }

    /// `YYYY:MM:DD HH:MM:SS` as `YYYY-MM-DD HH:MM:SS`.
    static func dateText(_ exif: String) -> String {
        var characters = Array(exif)
        for i in [4, 7] where i < characters.count && characters[i] == ":" { characters[i] = "-" }
        return String(characters)
    }

    static func exposureText(_ exposure: ImageMetadata.Fraction) -> String {
        guard exposure.numerator > 0, exposure.denominator > 0 else { return "–" }
        if exposure.numerator >= exposure.denominator {
            return String(format: "%g s", Double(exposure.numerator) / Double(exposure.denominator))
        }
        return "1/\(Int((Double(exposure.denominator) / Double(exposure.numerator)).rounded())) s"
    }
}
