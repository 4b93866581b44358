import LightboxLayout
import LightboxThumbnails

/// A point on a photo, as fractions of its width and height (0.5, 0.5 is its middle).
public struct PhotoPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let middle = PhotoPoint(x: 0.5, y: 0.5)

    /// Held to the photo.
    var clamped: PhotoPoint { PhotoPoint(x: min(1, max(0, x)), y: min(1, max(0, y))) }
}

/// How a picture sits in a view of some pixels: its size once fitted and zoomed, and which of
/// its pixels is at the view's top-left (negative when it is smaller than the view: centred).
public struct ZoomedView: Hashable, Sendable {
    public var drawn: PixelSize
    public var originX: Int
    public var originY: Int

    /// A picture of `picture`'s shape fitted to `view`, times `zoom`, its point `centre` at the
    /// view's middle as far as its edges allow.
    public init(picture: PixelSize, view: PixelSize, zoom: Double, centre: PhotoPoint) {
        // The exact scale, not a rounded fitted size times the zoom: 100% lands on the photo's pixels.
        let scale =
            picture.width > 0 && picture.height > 0
            ? min(Double(view.width) / Double(picture.width), Double(view.height) / Double(picture.height)) * zoom : zoom
        let width = picture.width > 0 ? Double(picture.width) : Double(view.width)
        let height = picture.height > 0 ? Double(picture.height) : Double(view.height)
        drawn = PixelSize(width: max(1, Int((width * scale).rounded())), height: max(1, Int((height * scale).rounded())))
        func origin(_ drawn: Int, _ view: Int, _ centre: Double) -> Int {
            guard drawn > view else { return -(view - drawn) / 2 }
            return max(0, min(drawn - view, Int((centre * Double(drawn)).rounded()) - view / 2))
        }
        originX = origin(drawn.width, view.width, centre.x)
        originY = origin(drawn.height, view.height, centre.y)
    }

    /// `picture`'s shape at the largest size inside `view`.
    public static func fitted(_ picture: PixelSize, in view: PixelSize) -> PixelSize {
        guard picture.width > 0, picture.height > 0 else { return view }
        return picture.width * view.height >= picture.height * view.width
            ? PixelSize(width: view.width, height: max(1, picture.height * view.width / picture.width))
            : PixelSize(width: max(1, picture.width * view.height / picture.height), height: view.height)
    }
}

/// The state's part for compare: two to four photos side by side, zoomed and panned together
/// (one alone with Shift), the focused one taking the decisions; a dropped one gives its pane
/// to the next candidate (the next marked photo, or the next in the order).
public struct Compare: Hashable, Sendable {
    /// The photos in the panes, in order.
    public internal(set) var shown: [ItemID]
    /// Marked photos waiting for a pane, in order; when it runs out with `followsOrder`, the
    /// photo after the last shown comes in.
    var waiting: [ItemID]
    /// Whether candidates are the photos after the shown ones in the order (not the marks).
    var followsOrder: Bool
    /// The focused pane.
    public internal(set) var focus = 0
    /// The zoom over each pane's fit, locked across the panes (1 fits).
    public internal(set) var zoom = 1.0
    /// Whether each pane shows its photo at 100% (its own zoom, from its own size).
    public internal(set) var isActualSize = false
    /// The point of every photo the panes' middles look at, locked across them.
    public internal(set) var centre = PhotoPoint.middle
    /// A pane's own move from the locked point (Shift and the arrows), by photo.
    public internal(set) var offsets: [ItemID: PhotoPoint] = [:]
    /// The parts of photos larger than a decode shown at full resolution, by photo, and the ones before.
    var details: [ItemID: Preview.Detail] = [:]
    var lastDetails: [ItemID: Preview.Detail] = [:]

    /// The most `+` zooms to.
    static let maxZoom = 16.0
    /// The most a pane's own 100% zooms (a large photo in a small pane).
    static let maxActualZoom = 64.0

    public init(shown: [ItemID], waiting: [ItemID] = [], followsOrder: Bool = false) {
        self.shown = Array(shown.prefix(CompareLayout.maxPanes))
        self.waiting = Array(shown.dropFirst(CompareLayout.maxPanes)) + waiting
        self.followsOrder = followsOrder
    }

    /// How many marked photos wait for a pane.
    public var waitingCount: Int { waiting.count }

    /// The focused photo.
    public var focused: ItemID { shown[min(focus, shown.count - 1)] }

    /// Where pane `index`'s middle looks on its photo: the locked point and its own move.
    public func centre(ofPane index: Int) -> PhotoPoint {
        guard let offset = offsets[shown[index]] else { return centre }
        return PhotoPoint(x: centre.x + offset.x, y: centre.y + offset.y).clamped
    }

    /// Focuses the pane `step` panes on, round.
    mutating func moveFocus(by step: Int) {
        focus = ((focus + step) % shown.count + shown.count) % shown.count
    }

    /// Moves the view of every pane (or of the focused one alone) by `dx`, `dy` quarters of a view
    /// that shows `viewFraction` of the photo's width and height.
    mutating func pan(dx: Int, dy: Int, alone: Bool, viewFraction: (x: Double, y: Double)) {
        move(by: PhotoPoint(x: Double(dx) * viewFraction.x / 4, y: Double(dy) * viewFraction.y / 4), alone: alone, viewFraction: viewFraction)
    }

    /// Moves the view of every pane (or of the focused one alone) by `step` of the photo, each
    /// view showing `viewFraction` of it.
    mutating func move(by step: PhotoPoint, alone: Bool, viewFraction: (x: Double, y: Double)) {
        if alone {
            let own = offsets[focused] ?? PhotoPoint(x: 0, y: 0)
            let moved = PhotoPoint(x: centre.x + own.x + step.x, y: centre.y + own.y + step.y).clamped
            offsets[focused] = PhotoPoint(x: moved.x - centre.x, y: moved.y - centre.y)
        } else {
            // Kept where a view can look: half a view in from each edge.
            let halfX = min(0.5, viewFraction.x / 2), halfY = min(0.5, viewFraction.y / 2)
            centre = PhotoPoint(
                x: min(1 - halfX, max(halfX, centre.x + step.x)), y: min(1 - halfY, max(halfY, centre.y + step.y)))
        }
    }

    /// Sets the zoom for every pane: `+` doubles (to 16x), `-` halves (to fit).
    mutating func setZoom(_ new: Double) {
        zoom = min(Self.maxZoom, max(1, new))
        isActualSize = false
        if zoom == 1 {
            centre = .middle
            offsets = [:]
        }
    }

    /// Takes the focused photo out and gives its pane to the next candidate: the next waiting,
    /// else (following the order) `next`, the photo after the last shown; with none, its pane
    /// goes. False when one photo is left: nothing to compare it with.
    mutating func dropFocused(next: ItemID?) -> Bool {
        let index = min(focus, shown.count - 1)
        offsets[shown[index]] = nil
        if let first = waiting.first {
            waiting.removeFirst()
            shown[index] = first
        } else if followsOrder, let next, !shown.contains(next) {
            shown[index] = next
        } else {
            shown.remove(at: index)
            focus = min(focus, shown.count - 1)
        }
        return shown.count > 1
    }
}
