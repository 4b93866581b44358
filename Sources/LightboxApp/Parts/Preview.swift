import LightboxThumbnails

/// The state's part for the full-screen view of one photo: how far it is zoomed and where the
/// view sits on the zoomed picture. Its own reducer zooms about the view's middle and pans,
/// given the view's size in half-block pixels (two a cell vertically).
public struct Preview: Hashable, Sendable {
    /// 1 fits the screen; more magnifies (`+` doubles; 100% and fill are what they need).
    public var zoom = 1.0
    /// The top-left of the view on the zoomed picture, in its pixels.
    public var panX = 0
    public var panY = 0
    /// The animation frame shown (0 for a still), whether it is paused, and when the next is due.
    public var frame = 0
    public var isPaused = false
    public var nextFrameAt: Double?
    /// Milliseconds into a video where the clip playing starts, and whether it has played to its end once.
    public var clipStart = 0
    var hasPlayedThrough = false
    /// Whether it is at 100% (the next photo flipped to comes at 100% too).
    public var isActualSize = false
    /// The part of a photo larger than a whole decode shown at full resolution, and the one before.
    var detail: Detail?
    var lastDetail: Detail?

    /// A part of the photo decoded for the zoomed view: where, the box it is fitted to, and its
    /// scale (of the photo's own pixels).
    struct Detail: Hashable, Sendable {
        var region: PhotoRegion
        var box: PixelSize
        var scale: Double
    }

    /// The largest zoom (100% of a large photo on a small screen; `+` goes to `maxDoubledZoom`).
    static let maxZoom = 64.0

    public init(zoom: Double = 1, panX: Int = 0, panY: Int = 0) {
        self.zoom = zoom
        self.panX = panX
        self.panY = panY
    }

    /// The most `+` doubles to (100% may go further).
    static let maxDoubledZoom = 8.0

    /// Doubles or halves the zoom (within 1...8), keeping the middle of the view where it was.
    mutating func zoom(in zoomsIn: Bool, view: PixelSize) {
        zoom(to: zoomsIn ? max(zoom, min(Self.maxDoubledZoom, zoom * 2)) : zoom / 2, view: view)
    }

    /// Zooms to `new` (within 1...16), keeping the middle of the view where it was.
    mutating func zoom(to new: Double, view: PixelSize) {
        let new = min(Self.maxZoom, max(1, new))
        let factor = new / zoom
        panX = Int((Double(panX + view.width / 2) * factor).rounded()) - view.width / 2
        panY = Int((Double(panY + view.height / 2) * factor).rounded()) - view.height / 2
        zoom = new
    }

    /// Zooms to `new` with the view's middle on the point `centre` of a picture drawn at `drawn`
    /// once zoomed (fractions of its width and height).
    mutating func zoom(to new: Double, centredOn centre: (x: Double, y: Double), drawn: PixelSize, view: PixelSize) {
        zoom = min(Self.maxZoom, max(1, new))
        panX = Int((centre.x * Double(drawn.width)).rounded()) - view.width / 2
        panY = Int((centre.y * Double(drawn.height)).rounded()) - view.height / 2
    }

    /// The point of a picture drawn at `drawn` the view's middle is on (fractions of its size).
    func centre(drawn: PixelSize, view: PixelSize) -> (x: Double, y: Double) {
        guard drawn.width > 0, drawn.height > 0 else { return (0.5, 0.5) }
        let x = drawn.width <= view.width ? 0.5 : (Double(panX) + Double(view.width) / 2) / Double(drawn.width)
        let y = drawn.height <= view.height ? 0.5 : (Double(panY) + Double(view.height) / 2) / Double(drawn.height)
        return (min(1, max(0, x)), min(1, max(0, y)))
    }

    /// Moves the view by a quarter of its width for each `dx`, half its height for each `dy`.
    mutating func pan(dx: Int, dy: Int, view: PixelSize) {
        panX += dx * max(1, view.width / 4)
        panY += dy * max(1, view.height / 4)
    }

    /// Shows the frames whose time has come at `now` of an animation with `delays` (milliseconds),
    /// and says when the next is due; the first call starts the clock.
    mutating func play(_ delays: [Int], now: Double) {
        guard delays.count > 1, !isPaused else { return nextFrameAt = nil }
        guard var due = nextFrameAt else { return nextFrameAt = now + Double(delays[frame % delays.count]) / 1000 }
        // Frames whose time passed while the loop was busy are skipped, not hurried through.
        var steps = 0
        while due <= now, steps < delays.count {
            frame = (frame + 1) % delays.count
            due += Double(delays[frame]) / 1000
            steps += 1
        }
        nextFrameAt = due <= now ? now + Double(delays[frame]) / 1000 : due
    }

    /// Shows the frames of a video's clip with `delays` whose time has come at `now`, as `play`
    /// does but not from the start again: true when the clip's last frame has had its time (the
    /// next clip is due, at `nextFrameAt`).
    mutating func playClip(_ delays: [Int], now: Double) -> Bool {
        guard !delays.isEmpty, !isPaused else {
            nextFrameAt = nil
            return false
        }
        frame = min(frame, delays.count - 1)
        guard var due = nextFrameAt else {
            nextFrameAt = now + Double(delays[frame]) / 1000
            return false
        }
        // Frames whose time passed while the loop was busy are skipped, not hurried through.
        while due <= now {
            guard frame + 1 < delays.count else {
                nextFrameAt = due
                return true
            }
            frame += 1
            due += Double(delays[frame]) / 1000
        }
        nextFrameAt = due
        return false
    }

    /// Milliseconds into the video of the frame shown, in a clip with `delays`.
    func playedTime(_ delays: [Int]) -> Int { clipStart + delays.prefix(frame).reduce(0, +) }

    /// Keeps the view on a picture drawn at `drawn` pixels.
    mutating func keepView(on drawn: PixelSize, view: PixelSize) {
        panX = max(0, min(panX, drawn.width - view.width))
        panY = max(0, min(panY, drawn.height - view.height))
    }
}
