/// The graphics protocol pictures are shown with.
public enum PixelProtocol: String, Hashable, Sendable {
    case kitty, sixel
    /// iTerm2's inline images (`OSC 1337`), as JPEG.
    case iterm

    /// Whether pictures show through cells of placeholder characters (kitty's Unicode
    /// placeholders), which clip and scroll like text; else they are painted after the cells.
    public var showsThroughCells: Bool { self == .kitty }

    /// Whether the terminal keeps each picture sent until it is deleted, so one that leaves the
    /// memory cache must be deleted from the terminal too.
    public var keepsPictures: Bool { self == .kitty }

    /// Whether pictures painted over the cells move with the text when the terminal scrolls a
    /// band of rows (xterm moves sixel pixels so: checked in its end-to-end test); iTerm2 images
    /// are not relied on to.
    public var scrollsWithText: Bool { self == .sixel }

    /// Whether text written over a picture erases it. Sixel pixels are part of the screen; most
    /// terminals keep iTerm2 images over later text (Konsole, WezTerm, iTerm2; mlterm does not),
    /// and only clearing the screen removes them.
    public var isErasedByText: Bool { self != .iterm }

    /// Whether the terminal scales a picture into the cells it is given, so one may be sent at a
    /// lower resolution over a slow link (kitty's placements, iTerm2's images; not sixel).
    public var scalesPictures: Bool { self != .sixel }
}

/// What a backend writes, besides cells, to show a frame's pictures: kitty transmissions, sixel
/// strings or iTerm2 images, all after the cells (through a `PictureQueue`). It remembers what
/// the terminal has or was queued, so each picture is sent once (kitty) and painted only when it
/// moved or was drawn over (sixel, iTerm2); a write the queue drops unsent is forgotten
/// (`unsent(_:)`).
/// No I/O: the backend writes the bytes.
public struct ImagePainter: Sendable {
    public var mode: PixelProtocol? {
        didSet {
            if mode != oldValue {
                painted = []
                forgetEncodings()
            }
        }
    }
    /// Wraps kitty commands for tmux passthrough.
    public var inTmux: Bool
    /// Where tmux shows the pane in the outer terminal: iTerm2 images go there through
    /// passthrough, placed in the outer terminal's cells. A move repaints every picture.
    public var paneOrigin = PaneOrigin(column: 0, row: 0) {
        didSet { if paneOrigin != oldValue { painted = [] } }
    }
    public var cellPixels: CellPixelSize {
        didSet { forgetEncodings() }
    }
    /// Sixel colour registers the terminal has (16 on a VT340).
    public var colorRegisters: Int {
        didSet { forgetEncodings() }
    }
    /// Pictures go at 1/`reduction` of their resolution, the terminal scaling them into the same
    /// cells (for a slow link; only where the protocol `scalesPictures`).
    public var reduction = 1 {
        didSet { forgetEncodings() }
    }
    /// Pictures (or rows of them that came into view) sent or painted so far, and the rows of
    /// cells they covered: what `--stats` reports.
    public private(set) var picturesWritten = 0, rowsWritten = 0
    /// Pictures a frame showed that were made ready ahead, and those it had to make as it was painted.
    public private(set) var madeAhead = 0, madeOnTheSpot = 0
    /// Kitty images the terminal holds, with the cells of their placement.
    public internal(set) var transmitted: [UInt32: (columns: Int, rows: Int)] = [:]
    /// The transient ones among them, deleted when a frame stops showing them.
    var transient: Set<UInt32> = []
    /// Sixel pictures on screen as last painted.
    var painted: Set<FrameImage> = []
    /// The sixel strings of the pictures on screen, by picture and shown part: a tile that moves
    /// without being cut differently is written again, not encoded again.
    var encoded: [PictureKey: [UInt8]] = [:]
    /// Pictures made ready ahead of the frames that will show them (the preview's next photos,
    /// encoded by a `PictureEncoder`): a flip then writes bytes already made. Oldest first.
    var ready: [PictureKey: PictureEncoding.Prepared] = [:]
    private var readyOrder: [PictureKey] = []

    /// Pictures kept ready at most: the next two photos and the one before, and a spare.
    public static let readyLimit = 4

    public init(mode: PixelProtocol? = nil, inTmux: Bool = false, cellPixels: CellPixelSize = .standard, colorRegisters: Int = 256) {
        self.mode = mode
        self.inTmux = inTmux
        self.cellPixels = cellPixels
        self.colorRegisters = colorRegisters
    }

    /// Before the cells are painted: the screen rows the backend must repaint in full because a
    /// sixel or iTerm2 picture left them (none for kitty, whose placeholders are cells).
    /// - Complexity: O(*i*²) in the pictures on screen.
    public func repaintRows(for frame: Frame) -> [Int] {
        guard mode == .sixel || mode == .iterm else { return [] }
        let current = Set(frame.images)
        var rows = Set<Int>()
        // A picture still at its place with more rows showing (after a scroll) stays: only the
        // rows that came in are painted.
        for old in painted where !current.contains(old) && !frame.images.contains(where: old.isPart(of:)) {
            // A new picture on exactly the same cells (the next frame of an animation) covers
            // every pixel of the old: erasing first would only show black until it is drawn.
            let replaced = frame.images.contains {
                !painted.contains($0) && $0.screenRows == old.screenRows && $0.screenColumns == old.screenColumns
                    && $0.pixelWidth == old.pixelWidth && $0.pixelHeight == old.pixelHeight
            }
            if !replaced { rows.formUnion(old.screenRows) }
        }
        return rows.sorted()
    }

    /// After the cells are painted, what shows the frame's pictures, in the frame's order: kitty
    /// images not yet in the terminal (placeholders show one once it arrives), placements that
    /// changed, transient images no longer shown deleted; or each sixel or iTerm2 picture that is
    /// new, moved, or on a repainted row, at its cells, saving and restoring the cursor around
    /// itself so the backend's idea of it holds.
    /// - Complexity: O(pixels sent).
    public mutating func writes(for frame: Frame, repaintedRows: [Int]) -> [PictureWrite] {
        switch mode {
        case .kitty: return kittyWrites(frame)
        case .sixel, .iterm: return paintWrites(frame, repaintedRows: repaintedRows)
        case nil: return []
        }
    }

    mutating func kittyWrites(_ frame: Frame) -> [PictureWrite] {
        var writes: [PictureWrite] = []
        // The pictures the terminal does not hold and nothing made ready: made at once, side by side.
        var made: [UInt32: PictureEncoding.Prepared] = [:]
        var toMake: [FrameImage] = []
        for image in frame.images where transmitted[image.id] == nil && made[image.id] == nil && !toMake.contains(where: { $0.id == image.id }) {
            if let ready = takeReady(PictureKey(kittyImage: image)) { made[image.id] = ready } else { toMake.append(image) }
        }
        for (image, prepared) in zip(toMake, encoding.preparedSideBySide(toMake)) { made[image.id] = prepared }
        for image in frame.images {
            if let placed = transmitted[image.id] {
                if placed != (image.columns, image.rows) {
                    writes.append(PictureWrite(.command, bytes: KittyGraphics.place(image, inTmux: inTmux)))
                    transmitted[image.id] = (image.columns, image.rows)
                }
            } else {
                let made = made[image.id] ?? encoding.prepared(image)
                writes.append(PictureWrite(.transmission(image), bytes: made.bytes, breaks: made.breaks))
                picturesWritten += 1
                rowsWritten += image.visibleRows.count
                transmitted[image.id] = (image.columns, image.rows)
                if image.isTransient { transient.insert(image.id) }
            }
        }
        let shown = Set(frame.images.map(\.id))
        return writes + forget(transient.filter { !shown.contains($0) })
    }

    mutating func paintWrites(_ frame: Frame, repaintedRows: [Int]) -> [PictureWrite] {
        let repainted = Set(repaintedRows)
        var writes: [PictureWrite] = []
        var kept: [PictureKey: [UInt8]] = [:]
        // What shows of each picture at its place (after a scroll, some of its rows may).
        var shown: [Placement: FrameImage] = [:]
        for image in painted where !image.screenRows.contains(where: repainted.contains) { shown[Placement(image)] = image }

        let allPieces = frame.images.map { image -> [FrameImage] in
            guard let old = shown[Placement(image)], image.visibleRows.contains(old.visibleRows) else { return [image] }
            // Only the rows that came into view: above and below what still shows.
            return [image.visibleRows.lowerBound..<old.visibleRows.lowerBound, old.visibleRows.upperBound..<image.visibleRows.upperBound]
                .filter { !$0.isEmpty }
                .map {
                    var piece = image; piece.visibleRows = $0; return piece
                }
        }
        // What is neither on screen encoded nor made ready: made at once, side by side.
        var made: [PictureKey: [UInt8]] = [:]
        var toMake: [(key: PictureKey, piece: FrameImage)] = []
        for piece in allPieces.joined() {
            let key = PictureKey(id: piece.id, rows: piece.visibleRows, columns: piece.visibleColumns)
            guard encoded[key] == nil, made[key] == nil, !toMake.contains(where: { $0.key == key }) else { continue }
            if let ready = takeReady(key) { made[key] = ready.bytes } else { toMake.append((key, piece)) }
        }
        for (item, prepared) in zip(toMake, encoding.preparedSideBySide(toMake.map(\.piece))) { made[item.key] = prepared.bytes }
        for pieces in allPieces {
            for piece in pieces {
                let key = PictureKey(id: piece.id, rows: piece.visibleRows, columns: piece.visibleColumns)
                let bytes = encoded[key] ?? made[key] ?? encoding.prepared(piece).bytes
                kept[key] = bytes
                guard !bytes.isEmpty else { continue }
                // Through tmux the picture goes straight to the outer terminal, wherever its cursor
                // is: the move goes with it, to the pane's cells there.
                let passesThrough = inTmux && mode == .iterm
                let (row, column) = (piece.screenRows.lowerBound + 1, piece.screenColumns.lowerBound + 1)
                let (top, left) = passesThrough ? (paneOrigin.row, paneOrigin.column) : (0, 0)
                let position = Array("\u{1B}[\(row + top);\(column + left)H".utf8)
                var placed: [UInt8] = [0x1B, 0x37] + position + bytes + [0x1B, 0x38]
                if passesThrough { placed = Self.tmuxFlush + KittyGraphics.tmuxPassthrough(placed) }
                writes.append(PictureWrite(.paint(piece), bytes: placed))
                picturesWritten += 1
                rowsWritten += piece.visibleRows.count
            }
        }
        painted = Set(frame.images)
        encoded = kept  // only what is on screen is kept
        return writes
    }

    /// Has tmux send the cells written so far before a passthrough: tmux 3.3 holds cells back
    /// while it parses what it read and sends a passthrough at once, so cells read in the same
    /// batch as a picture were drawn over it, and a terminal where text erases pictures (mlterm)
    /// showed a blank tile. Setting the scroll region makes tmux send them; DECSC/DECRC keep the
    /// cursor and attributes where ncurses left them (the region stays the whole screen, as ours is).
    static let tmuxFlush: [UInt8] = Array("\u{1B}7\u{1B}[r\u{1B}8".utf8)

    /// A picture at a place, whatever rows of it show.
    struct Placement: Hashable {
        var id: UInt32, x: Int, y: Int, columns: Int, rows: Int, visibleColumns: Range<Int>, pixelWidth: Int, pixelHeight: Int
        init(_ image: FrameImage) {
            (id, x, y, columns, rows) = (image.id, image.x, image.y, image.columns, image.rows)
            (visibleColumns, pixelWidth, pixelHeight) = (image.visibleColumns, image.pixelWidth, image.pixelHeight)
        }
    }

    /// The terminal moved a band of rows (`LineScroll`): pictures painted there moved with their
    /// rows where the protocol's pixels do (`scrollsWithText`), cut where they left the band.
    /// Returns the rows to repaint in full: those of pictures the band's edge cut through, part
    /// moved and part not.
    /// - Complexity: O(*i*) in the pictures painted.
    public mutating func scrolled(_ scroll: LineScroll) -> [Int] {
        guard let mode, !mode.showsThroughCells else { return [] }
        var rows = Set<Int>()
        var moved = Set<FrameImage>()
        for image in painted {
            let screen = image.screenRows
            if screen.upperBound <= scroll.rows.lowerBound || screen.lowerBound >= scroll.rows.upperBound {
                moved.insert(image)  // outside the band: where it was
            } else if mode.scrollsWithText && scroll.rows.contains(screen.lowerBound) && scroll.rows.contains(screen.upperBound - 1) {
                var image = image
                image.y -= scroll.lines
                let top = max(image.screenRows.lowerBound, scroll.rows.lowerBound)
                let bottom = min(image.screenRows.upperBound, scroll.rows.upperBound)
                guard top < bottom else { continue }
                image.visibleRows = (top - image.y)..<(bottom - image.y)
                moved.insert(image)
            } else {
                // Cut by the band's edge, or pixels the terminal does not move: painted again.
                rows.formUnion(screen)
                if mode.scrollsWithText { rows.formUnion(screen.lowerBound - scroll.lines..<screen.upperBound - scroll.lines) }
            }
        }
        painted = moved
        return rows.sorted()
    }

    /// What goes before the cells, as the tests read it: kitty's writes in one string, or the rows
    /// to repaint.
    public mutating func prepare(_ frame: Frame) -> (bytes: [UInt8], repaintRows: [Int]) {
        mode == .kitty ? (writes(for: frame, repaintedRows: []).joinedBytes, []) : ([], repaintRows(for: frame))
    }

    /// What goes after the cells, in one string, as the tests read it (nothing for kitty).
    public mutating func finish(_ frame: Frame, repaintedRows: [Int]) -> [UInt8] {
        guard mode != .kitty else { return [] }
        return writes(for: frame, repaintedRows: repaintedRows).joinedBytes
    }

    /// Forgets that `write` was sent: it was dropped from the queue before any of it was written.
    public mutating func unsent(_ write: PictureWrite) {
        if let image = write.image {
            picturesWritten -= 1
            rowsWritten -= image.visibleRows.count
        }
        switch write.subject {
        case .transmission(let image):
            transmitted.removeValue(forKey: image.id)
            transient.remove(image.id)
        case .paint(let piece):
            for image in painted where piece.isPart(of: image) { painted.remove(image) }
        case .command:
            break
        }
    }

    /// How pictures are encoded for this terminal now, for encoding them here or ahead elsewhere.
    public var encoding: PictureEncoding {
        PictureEncoding(mode: mode, inTmux: inTmux, cellPixels: cellPixels, colorRegisters: colorRegisters, reduction: reduction)
    }

    /// The picture made ready under `key`, taken; counts whether it was there.
    mutating func takeReady(_ key: PictureKey) -> PictureEncoding.Prepared? {
        let made = ready.removeValue(forKey: key)
        if made != nil { madeAhead += 1 } else { madeOnTheSpot += 1 }
        return made
    }

    mutating func forgetEncodings() {
        encoded = [:]
        ready = [:]
        readyOrder = []
    }

    /// The key a picture would be made ready under, when it needs making: not on screen as it
    /// is, not sent (kitty), not made already. Nil: nothing to make.
    public func wantsReady(_ image: FrameImage) -> PictureKey? {
        guard let mode else { return nil }
        if mode == .kitty {
            let key = PictureKey(kittyImage: image)
            return transmitted[image.id] == nil && ready[key] == nil ? key : nil
        }
        let key = PictureKey(id: image.id, rows: image.visibleRows, columns: image.visibleColumns)
        return painted.contains(image) || encoded[key] != nil || ready[key] != nil ? nil : key
    }

    /// Takes pictures made ready ahead (with the encoding they were made with: others are
    /// dropped), keeping the newest `readyLimit`.
    public mutating func takeReady(_ made: [(key: PictureKey, prepared: PictureEncoding.Prepared, encoding: PictureEncoding)]) {
        for item in made where item.encoding == encoding {
            if ready.updateValue(item.prepared, forKey: item.key) == nil { readyOrder.append(item.key) }
        }
        while readyOrder.count > Self.readyLimit { ready[readyOrder.removeFirst()] = nil }
    }

    /// Kitty images made ready that the terminal does not hold yet, sent now (behind every
    /// picture of a frame, never dropped by one): a flip to one writes only its cells.
    public mutating func sendAhead() -> [PictureWrite] {
        guard mode == .kitty else { return [] }
        var writes: [PictureWrite] = []
        for key in readyOrder {
            guard let made = ready[key], let image = made.image, transmitted[image.id] == nil else { continue }
            var write = PictureWrite(.transmission(image), bytes: made.bytes, breaks: made.breaks)
            write.isAhead = true
            writes.append(write)
            transmitted[image.id] = (image.columns, image.rows)
            picturesWritten += 1
            rowsWritten += image.visibleRows.count
            ready[key] = nil
        }
        readyOrder.removeAll { ready[$0] == nil }
        return writes
    }

    /// Everything must be painted again (the screen was cleared or repainted in full).
    public mutating func invalidate() { painted = [] }

    /// Deletes kitty images that left the app's cache (those the terminal was sent).
    public mutating func forget<S: Sequence>(_ ids: S) -> [PictureWrite] where S.Element == UInt32 {
        var writes: [PictureWrite] = []
        for id in ids where transmitted.removeValue(forKey: id) != nil {
            writes.append(PictureWrite(.command, bytes: KittyGraphics.delete(id: id, inTmux: inTmux)))
            transient.remove(id)
        }
        return writes
    }

    /// Deletes every kitty image sent (on quitting, or leaving kitty mode).
    public mutating func forgetAll() -> [PictureWrite] { forget(Array(transmitted.keys)) }
}
