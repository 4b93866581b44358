import Foundation

/// Makes pictures ready ahead of the frames that will show them, on a thread of its own at the
/// lowest priority the UI leaves it: the preview's next photos encoded for the terminal (sixel's
/// palette and bands, kitty's PNG, iTerm2's JPEG) while the user looks at this one, so a flip only
/// writes bytes already made. Its wish list is the latest asked for; what is no longer on it is not made.
public final class PictureEncoder: @unchecked Sendable {
    /// A picture to make: under which key, in which encoding.
    public struct Job: Sendable {
        public var key: PictureKey
        public var image: FrameImage
        public var encoding: PictureEncoding

        public init(key: PictureKey, image: FrameImage, encoding: PictureEncoding) {
            self.key = key
            self.image = image
            self.encoding = encoding
        }
    }

    public typealias Made = (key: PictureKey, prepared: PictureEncoding.Prepared, encoding: PictureEncoding)

    private let condition = NSCondition()
    private var wanted: [Job] = []
    private var inHand: PictureKey?
    private var made: [Made] = []
    private var stopped = false
    private let onMade: @Sendable () -> Void

    /// Starts the thread; `onMade` is called (on it) after each picture is made.
    public init(onMade: @escaping @Sendable () -> Void = {}) {
        self.onMade = onMade
        let thread = Thread { self.work() }
        thread.name = "lightbox-pictures-ahead"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Makes these pictures, in this order, instead of what was asked before (one in hand goes on).
    public func want(_ jobs: [Job]) {
        condition.lock()
        wanted = jobs.filter { job in job.key != inHand && !made.contains { $0.key == job.key } }
        condition.broadcast()
        condition.unlock()
    }

    /// The pictures made since the last call.
    public func take() -> [Made] {
        condition.lock()
        defer { condition.unlock() }
        let taken = made
        made.removeAll()
        return taken
    }

    /// Ends the thread after the picture in hand (not waited for).
    public func stop() {
        condition.lock()
        stopped = true
        wanted.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            while wanted.isEmpty && !stopped { condition.wait() }
            if stopped { break }
            let job = wanted.removeFirst()
            inHand = job.key
            condition.unlock()
            let prepared = job.encoding.prepared(job.image)
            condition.lock()
            inHand = nil
            guard !stopped else { break }
            made.append((job.key, prepared, job.encoding))
            condition.unlock()
            onMade()
            condition.lock()
        }
        condition.unlock()
    }
}
