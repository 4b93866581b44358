/// How fast a terminal takes picture output while pictures wait: once a write found the
/// terminal full, what it takes from then on is what the link (or the terminal) drains.
///
/// A figure needs `window` seconds of waiting output; it is a lower bound when the run loop was
/// slow to write more, so it is only used to send pictures smaller, never larger.
public struct LinkMeter: Sendable {
    /// Seconds of waiting output a figure needs.
    public static let window = 0.5
    /// Kilobits a second the terminal took over the last full window, if one was measured.
    public private(set) var kilobitsPerSecond: Int?
    /// When the terminal first refused output in this stretch of waiting, and bytes it took since.
    var since: Double?
    var bytes = 0

    public init() {}

    /// Notes one round of writing: `bytes` taken, whether the terminal refused the rest
    /// (`blocked`), and whether output still waits after it.
    public mutating func record(bytes written: Int, blocked: Bool, waiting: Bool, at time: Double) {
        guard let start = since else {
            if blocked && waiting { since = time; bytes = 0 }
            return
        }
        bytes += written
        let elapsed = time - start
        if elapsed >= Self.window {
            kilobitsPerSecond = Int(Double(bytes) * 8 / elapsed / 1000)
            since = waiting ? time : nil
            bytes = 0
        } else if !waiting {
            since = nil  // the terminal kept up before a window was full: no figure
        }
    }
}
