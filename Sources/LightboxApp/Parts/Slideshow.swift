import LightboxThumbnails

/// The state's part for a slideshow in the preview: how long each photo stays, when the next is
/// due, whether it is paused, and which photos it goes through (the marked ones, or all).
public struct Slideshow: Hashable, Sendable {
    /// Seconds a photo stays (an animation stays at least once through).
    public var delay: Double
    public var isPaused = false
    /// When the photo shown came, in the clock's seconds; nil until the clock is first seen.
    var shownAt: Double?
    /// The items it shows, by id, in the order shown; empty: every item, in the library's order.
    var ids: [ItemID] = []

    /// The shortest and longest stay `+` and `-` reach, and their step.
    public static let delays: ClosedRange<Double> = 1...60
    static let step = 1.0

    public init(delay: Double, ids: [ItemID] = []) {
        self.delay = min(Self.delays.upperBound, max(Self.delays.lowerBound, delay))
        self.ids = ids
    }

    /// A longer or shorter stay (the photo shown keeps the time it came).
    mutating func change(by steps: Int) {
        delay = min(Self.delays.upperBound, max(Self.delays.lowerBound, delay + Double(steps) * Self.step))
    }

    /// When the clock next needs a look: at once to start it, else when the photo's stay ends.
    var nextLook: Double? {
        guard !isPaused else { return nil }
        return shownAt.map { $0 + delay } ?? 0
    }

    /// Whether the next photo is due at `now` for a photo that stays `stay` seconds at least (an
    /// animation's run); the first look starts the clock.
    mutating func isDue(at now: Double, stay: Double = 0) -> Bool {
        guard !isPaused else { return false }
        guard let shownAt else {
            self.shownAt = now
            return false
        }
        return now >= shownAt + max(delay, stay)
    }

    /// The photo shown after `position` (of `count` shown), from the start again after the last;
    /// `position(of:)` finds a marked photo's place.
    func next(after position: Int, count: Int, position positionOf: (ItemID) -> Int) -> Int {
        guard !ids.isEmpty else { return count == 0 ? 0 : (position + 1) % count }
        let shown = ids.map(positionOf).filter { $0 >= 0 }
        return shown.first { $0 > position } ?? shown.first ?? position
    }
}
