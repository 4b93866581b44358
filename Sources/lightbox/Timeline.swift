import Foundation

/// When the first screen's milestones came, counted from the start of `main` (`--stats`): where
/// the time of a first screen goes.
struct Timeline {
    /// The start of `main`, taken by `begin()` first thing.
    nonisolated(unsafe) static var start = 0.0

    /// Notes the start of `main`.
    static func begin() { start = ProcessInfo.processInfo.systemUptime }

    private(set) var marks: [(name: String, seconds: Double)] = []

    /// Notes `name` now, the first time only.
    mutating func mark(_ name: String) {
        guard !marks.contains(where: { $0.name == name }) else { return }
        marks.append((name, ProcessInfo.processInfo.systemUptime - Self.start))
    }

    /// `timeline: scan's first batch 12 ms, first paint 30 ms, …`
    var report: String {
        "timeline from launch: " + marks.map { "\($0.name) \(Int(($0.seconds * 1000).rounded())) ms" }.joined(separator: ", ")
    }
}
