/// How fast a terminal takes picture output, measured between moments it refused more: the
/// terminal (or the kernel's buffer before it) was full at both, so what it took in between is
/// what the link drained.
///
/// A figure needs refusals at most `gap` apart over `window` seconds; it is a lower bound when
/// nothing was written for part of the time, so it is only used to send pictures smaller.
public struct LinkMeter: Sendable {
    /// Seconds of refusals a figure needs.
    public static let window = 0.5
    /// The longest time between two refusals of one stretch: longer, and the buffer may have run
    /// empty in between.
    public static let gap = 0.25
    /// Kilobits a second the terminal took over the last full window, if one was measured.
    public private(set) var kilobitsPerSecond: Int?
    /// Bytes written in all.
    var total = 0
    /// The stretch of refusals being measured: when it began and the bytes written by then; and
    /// when the last refusal came.
    var stretch: (start: Double, bytes: Int)?
    var lastRefusal = -Double.infinity

    public init() {}

    /// Notes one round of writing: `bytes` taken, and whether the terminal refused the rest
    /// (`blocked`).
    public mutating func record(bytes written: Int, blocked: Bool, at time: Double) {
        total += written
        guard blocked else { return }
        defer { lastRefusal = time }
        guard let begun = stretch, time - lastRefusal <= Self.gap else {
            stretch = (time, total)
            return
        }
        let elapsed = time - begun.start
        if elapsed >= Self.window {
            kilobitsPerSecond = Int(Double(total - begun.bytes) * 8 / elapsed / 1000)
            stretch = (time, total)
        }
    }
}
