/// Everything waiting for a terminal that reads slower than frames and pictures are made (a
/// link, or one that stopped reading): the cells of each frame go first, then its pictures in
/// slices, between which the run loop reads input; a new frame drops the pictures it no longer
/// shows before they cost the link anything.
///
/// A write once begun is finished (a kitty image or a sixel string cut short would leave the
/// terminal in the middle of one); cells may come between a kitty transmission's chunks only.
/// Cells are never dropped, and once begun are finished before any picture. No I/O: `pump` is
/// handed what writes.
public struct PictureQueue: Sendable {
    /// Waiting writes in order; the first may be begun.
    public private(set) var writes: [PictureWrite] = []
    /// Bytes of the first write already written.
    public private(set) var written = 0
    /// Cells (and the app's own sequences among them) not yet all written, in order.
    public private(set) var cells: [UInt8] = []
    /// Bytes of `cells` already written.
    public private(set) var cellsWritten = 0

    public init() {}

    public var isEmpty: Bool { writes.isEmpty && !hasCellsWaiting }

    /// Whether some of the cells are not written yet.
    public var hasCellsWaiting: Bool { cellsWritten < cells.count }

    /// Bytes waiting in all: cells, and the pictures' rest.
    /// - Complexity: O(*n*) in the writes waiting.
    public var bytesWaiting: Int { cells.count - cellsWritten + writes.reduce(0) { $0 + $1.bytes.count } - written }

    /// Adds cells after the cells waiting; they go before every picture not begun.
    public mutating func enqueueCells(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if hasCellsWaiting {
            cells += bytes
        } else {
            cells = bytes
            cellsWritten = 0
        }
    }

    /// Gives up the begun picture (the terminal is being given back and takes too long): it is
    /// forgotten, and a string terminator goes first among the cells, so the terminal leaves the
    /// picture's string rather than reading what follows as part of it. Returns the write.
    public mutating func abandonBegun() -> PictureWrite? {
        guard written > 0, !writes.isEmpty else { return nil }
        let begun = writes.removeFirst()
        written = 0
        // Cells begun means the picture stopped at a break, outside any string: nothing to end.
        if cellsWritten == 0 { cells = Self.stringTerminator + cells }
        return begun
    }

    /// ST: ends a DCS (sixel), APC (kitty) or OSC (iTerm2) string.
    static let stringTerminator: [UInt8] = [0x1B, 0x5C]

    /// Pictures waiting or being written (commands not counted).
    /// - Complexity: O(*n*) in the writes waiting.
    public var picturesWaiting: Int { writes.count { $0.image != nil && !$0.isAhead } }

    /// Whether other output may be written now: nothing is begun, or the begun write is at a break.
    public var mayWriteCells: Bool {
        guard let first = writes.first, written > 0 else { return true }
        return first.breaks.contains(written)
    }

    /// Whether a write is begun and not finished.
    public var isMidWrite: Bool { written > 0 }

    /// Adds `new` after everything waiting.
    public mutating func enqueue(_ new: [PictureWrite]) {
        writes += new.filter { !$0.bytes.isEmpty }
    }

    /// Drops the writes not yet begun that `shouldDrop` picks, and returns them (for the painter
    /// to forget it sent them).
    /// - Complexity: O(*n*).
    public mutating func drop(where shouldDrop: (PictureWrite) -> Bool) -> [PictureWrite] {
        var kept: [PictureWrite] = [], dropped: [PictureWrite] = []
        for (index, write) in writes.enumerated() {
            if (index == 0 && written > 0) || !shouldDrop(write) { kept.append(write) } else { dropped.append(write) }
        }
        writes = kept
        return dropped
    }

    /// For a new frame: drops the writes not begun that `frame` no longer wants, and puts the rest
    /// in the frame's order of pictures (commands first, in their order), behind a begun write.
    /// Returns the dropped writes.
    /// - Complexity: O(*n* × *i*) in the writes waiting and the frame's images.
    public mutating func replan(for frame: Frame) -> [PictureWrite] {
        let dropped = drop { !$0.isWanted(by: frame) }
        let begun = written > 0 ? 1 : 0
        let rest = writes[begun...].enumerated().map { (rank: Self.rank(of: $0.element, in: frame), order: $0.offset, write: $0.element) }
        writes = Array(writes[..<begun]) + rest.sorted { ($0.rank, $0.order) < ($1.rank, $1.order) }.map(\.write)
        return dropped
    }

    /// Where `write` goes in `frame`'s order: commands first, then pictures as the frame lists them.
    static func rank(of write: PictureWrite, in frame: Frame) -> Int {
        switch write.subject {
        case .command: return -1
        case .paint(let piece): return frame.images.firstIndex { piece.isPart(of: $0) } ?? Int.max
        case .transmission(let image): return frame.images.firstIndex { $0.id == image.id } ?? Int.max
        }
    }

    /// Writes waiting bytes through `sink` (which returns how many it took, 0 when the terminal
    /// would block) until it takes less than offered, `limit` bytes are written, or, with
    /// `toBreak`, other output may be written. Returns the bytes written and whether the sink
    /// blocked.
    /// - Complexity: O(bytes written).
    @discardableResult
    public mutating func pump(
        limit: Int = .max, toBreak: Bool = false, slice: Int = 16384,
        into sink: (ArraySlice<UInt8>) -> Int
    ) -> (written: Int, blocked: Bool) {
        var total = 0
        while total < limit {
            if toBreak && mayWriteCells { break }
            // Cells go first at a picture's break, and once begun to their end.
            if hasCellsWaiting && (cellsWritten > 0 || mayWriteCells) {
                let end = cellsWritten + min(cells.count - cellsWritten, slice, limit - total)
                let offered = end - cellsWritten
                let taken = max(0, min(offered, sink(cells[cellsWritten..<end])))
                total += taken
                cellsWritten += taken
                if cellsWritten >= cells.count {
                    cells = []
                    cellsWritten = 0
                }
                if taken < offered { return (total, true) }
                continue
            }
            guard let first = writes.first else { break }
            var end = written + min(first.bytes.count - written, slice, limit - total)
            if toBreak, let next = first.breaks.first(where: { $0 > written }) { end = min(end, next) }
            let offered = end - written
            let taken = max(0, min(offered, sink(first.bytes[written..<end])))
            total += taken
            written += taken
            if written >= first.bytes.count {
                writes.removeFirst()
                written = 0
            }
            if taken < offered { return (total, true) }
        }
        return (total, false)
    }

    /// Forgets every write not begun and returns them (when the terminal is given back).
    public mutating func dropAll() -> [PictureWrite] { drop { _ in true } }
}
