/// A bounds-checked reader of a TIFF structure, as EXIF blocks hold: every offset is checked
/// against the block, so a lying file gives nil, never a trap.
struct TIFFStructure {
    /// One directory entry: its tag, type, count, and where its 4-byte value field is.
    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        var field: Int
    }

    let data: [UInt8]
    let base: Int
    let end: Int
    let isLittleEndian: Bool

    /// The TIFF structure in `data[range]`, if it starts with a valid byte-order mark and 42, or
    /// the mark of a RAW whose header is TIFF's with a magic of its own (`rawMagic`).
    init?(_ data: [UInt8], range: Range<Int>) {
        guard range.count >= 8, range.upperBound <= data.count else { return nil }
        self.data = data
        base = range.lowerBound
        end = range.upperBound
        switch (data[base], data[base + 1]) {
        case (0x49, 0x49): isLittleEndian = true
        case (0x4D, 0x4D): isLittleEndian = false
        default: return nil
        }
        guard let magic = u16(2), magic == 42 || Self.rawMagic.contains(magic) else { return nil }
    }

    /// Directories inside `data[base..<end]` whose offsets count from `base`, in the given byte
    /// order, with no header of their own there (a maker note's).
    init?(_ data: [UInt8], base: Int, end: Int, isLittleEndian: Bool) {
        guard base >= 0, base < end, end <= data.count else { return nil }
        self.data = data
        self.base = base
        self.end = end
        self.isLittleEndian = isLittleEndian
    }

    /// What stands for 42 in the headers of Olympus's ORF (`IIRO`, `IIRS`, `MMOR`) and
    /// Panasonic's RW2 (`IIU\0`): their directories are TIFF's.
    static let rawMagic: Set<Int> = [0x4F52, 0x5352, 0x0055]

    /// Offset of the first directory.
    var firstDirectory: Int? { u32(4) }

    func u16(_ offset: Int) -> Int? {
        let at = base + offset
        guard offset >= 0, at + 2 <= end else { return nil }
        return isLittleEndian ? Int(data[at]) | Int(data[at + 1]) << 8 : Int(data[at]) << 8 | Int(data[at + 1])
    }

    func u32(_ offset: Int) -> Int? {
        guard let a = u16(offset), let b = u16(offset + 2) else { return nil }
        return isLittleEndian ? a | b << 16 : a << 16 | b
    }

    /// The entries of the directory at `offset`, and the next directory's offset.
    func directory(at offset: Int) -> (entries: [Entry], next: Int?)? {
        guard let count = u16(offset), count < 1000 else { return nil }
        var result: [Entry] = []
        for k in 0..<count {
            let entry = offset + 2 + 12 * k
            guard let tag = u16(entry), let type = u16(entry + 2), let n = u32(entry + 4) else { return nil }
            result.append(Entry(tag: tag, type: type, count: n, field: entry + 8))
        }
        return (result, u32(offset + 2 + 12 * count))
    }

    /// A SHORT or LONG value.
    func number(_ entry: Entry) -> Int? {
        switch entry.type {
        case 3: u16(entry.field)
        case 4: u32(entry.field)
        default: nil
        }
    }

    /// An ASCII value, at most `limit` bytes, trailing NULs and spaces dropped.
    func text(_ entry: Entry, limit: Int = 64) -> String? {
        guard entry.type == 2, entry.count > 0 else { return nil }
        let start = entry.count <= 4 ? entry.field : u32(entry.field)
        guard let start, start >= 0, base + start + entry.count <= end else { return nil }
        var bytes = Array(data[(base + start)..<(base + start + min(entry.count, limit))])
        if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// A RATIONAL (or SRATIONAL) value as numerator and denominator.
    func rational(_ entry: Entry) -> (numerator: Int, denominator: Int)? {
        guard entry.type == 5 || entry.type == 10, let offset = u32(entry.field),
            let numerator = u32(offset), let denominator = u32(offset + 4), denominator != 0
        else { return nil }
        if entry.type == 10 { return (Int(Int32(truncatingIfNeeded: numerator)), Int(Int32(truncatingIfNeeded: denominator))) }
        return (numerator, denominator)
    }
}
