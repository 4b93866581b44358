/// The boxes of ISO base media files (ISO/IEC 14496-12), which MP4 and QuickTime, HEIF and AVIF,
/// CR3, JPEG XL's and JPEG 2000's containers are all made of: a 32-bit size (1: a 64-bit size
/// follows; 0: to the end), a four-character type, the payload. Every read is bounds-checked.
enum BaseMediaBox {
    /// Most boxes walked at one level.
    static let limit = 4096

    /// The box starting at `offset` of `bytes` in a container with `room` bytes left from there:
    /// its type, the length of its header and its whole size; nil when it does not fit the room.
    static func header(_ bytes: [UInt8], at offset: Int, room: Int) -> (type: String, headerLength: Int, size: Int)? {
        guard let size32 = bytes.bigEndian(at: offset, width: 4), let type = bytes.fourCC(at: offset + 4) else { return nil }
        var headerLength = 8, size = Int(size32)
        if size32 == 1 {
            guard let size64 = bytes.bigEndian(at: offset + 8, width: 8), size64 <= UInt64(max(0, room)) else { return nil }
            size = Int(size64)
            headerLength = 16
        } else if size32 == 0 {
            size = room  // to the end
        }
        guard size >= headerLength, size <= room else { return nil }
        return (type, headerLength, size)
    }

    /// The box at `offset` of a file: its type and where its payload starts and it ends.
    static func box(in file: FileBytes, at offset: Int) -> (type: String, start: Int, end: Int)? {
        guard let bytes = file.bytes(at: offset, count: min(16, file.count - offset)),
            let (type, headerLength, size) = header(bytes, at: 0, room: file.count - offset)
        else { return nil }
        return (type, offset + headerLength, offset + size)
    }

    /// The boxes inside `range` of `bytes`, by type and payload.
    static func children(of bytes: [UInt8], in range: Range<Int>) -> [(type: String, range: Range<Int>)] {
        var boxes: [(type: String, range: Range<Int>)] = []
        var offset = range.lowerBound
        while offset <= range.upperBound - 8, boxes.count < limit,
            let (type, headerLength, size) = header(bytes, at: offset, room: range.upperBound - offset)
        {
            // A box whose payload is too short for its fixed fields is skipped by the readers' checks.
            boxes.append((type, (offset + headerLength)..<(offset + size)))
            offset += size
        }
        return boxes
    }
}
