/// One piece of picture output, written after a frame's cells by `PictureQueue`: a kitty
/// transmission, a sixel or iTerm2 picture painted at its cells, or a small command.
public struct PictureWrite: Sendable {
    /// What the bytes do, which says whether a later frame still wants them.
    public enum Subject: Hashable, Sendable {
        /// Sends a kitty image with its placement (the image's id, columns and rows).
        case transmission(FrameImage)
        /// Paints a picture, or some of its rows, over its cells (sixel, iTerm2).
        case paint(FrameImage)
        /// Deletes or places a kitty image: never dropped.
        case command
    }

    public var subject: Subject
    public var bytes: [UInt8]
    /// Offsets inside `bytes` where other output (a frame's cells) may come between its parts: the
    /// ends of a kitty transmission's chunks. A sixel string or an iTerm2 image has none: once
    /// begun, it is finished before anything else is written.
    public var breaks: [Int]
    /// Sent ahead of the frame that will show it (a kitty image of the preview's next photo):
    /// after every picture a frame shows, never dropped by one, not counted as on the way.
    public var isAhead = false

    public init(_ subject: Subject, bytes: [UInt8], breaks: [Int] = []) {
        self.subject = subject
        self.bytes = bytes
        self.breaks = breaks
    }

    /// The picture it sends or paints, if any.
    public var image: FrameImage? {
        switch subject {
        case .transmission(let image), .paint(let image): return image
        case .command: return nil
        }
    }

    /// Whether `frame` still shows what this write is for: the same picture at the same cells
    /// (sixel, iTerm2; the rows painted among those shown), or the same kitty image with the same placement anywhere on screen.
    /// - Complexity: O(*i*) in the frame's images.
    public func isWanted(by frame: Frame) -> Bool {
        if isAhead { return true }
        switch subject {
        case .command: return true
        case .paint(let piece): return frame.images.contains { piece.isPart(of: $0) }
        case .transmission(let image):
            return frame.images.contains { $0.id == image.id && $0.columns == image.columns && $0.rows == image.rows }
        }
    }
}

extension Array where Element == PictureWrite {
    /// The writes' bytes one after another, for writing at once (quitting, leaving kitty, tests).
    public var joinedBytes: [UInt8] { flatMap(\.bytes) }
}
