import LightboxThumbnails

/// The state's part for judging exposure in the preview and compare: whether the histogram
/// shows in the panel beside the picture (with the details, `i`), whether clipped pixels are
/// marked on the picture, and at what levels.
public struct ExposureView: Hashable, Sendable {
    /// Whether the panel shows the picture's histogram (`e`).
    public internal(set) var showsHistogram = false
    /// Whether blown highlights and blocked shadows are marked on the picture (`E`).
    public internal(set) var showsClipping = false
    /// The levels the marks start at (`--clipping`, `clipping =`).
    public internal(set) var thresholds = ClippingThresholds()

    /// Columns the panel takes beside the picture.
    public static let panelWidth = 36
    /// The narrowest screen that has the panel beside the picture.
    public static let panelFrom = 72
}
