import LightboxThumbnails

/// The state's part for the full-screen view of one photo: how far it is zoomed and where the
/// view sits on the zoomed picture. Its own reducer zooms about the view's middle and pans,
/// given the view's size in half-block pixels (two a cell vertically).
public struct Preview: Hashable, Sendable {
    /// 1 fits the screen; 2, 4 and 8 magnify.
    public var zoom = 1
    /// The top-left of the view on the zoomed picture, in its pixels.
    public var panX = 0
    public var panY = 0
    /// The animation frame shown (0 for a still), whether it is paused, and when the next is due.
    public var frame = 0
    public var isPaused = false
    public var nextFrameAt: Double?

    /// The largest zoom.
    static let maxZoom = 8

    public init(zoom: Int = 1, panX: Int = 0, panY: Int = 0) {
        self.zoom = zoom
        self.panX = panX
        self.panY = panY
    }

    /// Doubles or halves the zoom (within 1...8), keeping the middle of the view where it was.
    mutating func zoom(in zoomsIn: Bool, view: PixelSize) {
        let new = zoomsIn ? min(Self.maxZoom, zoom * 2) : max(1, zoom / 2)
        let factor = Double(new) / Double(zoom)
        panX = Int((Double(panX + view.width / 2) * factor).rounded()) - view.width / 2
        panY = Int((Double(panY + view.height / 2) * factor).rounded()) - view.height / 2
        zoom = new
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

    /// Keeps the view on a picture drawn at `drawn` pixels.
    mutating func keepView(on drawn: PixelSize, view: PixelSize) {
        panX = max(0, min(panX, drawn.width - view.width))
        panY = max(0, min(panY, drawn.height - view.height))
    }
}
