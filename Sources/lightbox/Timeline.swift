import Foundation
import LightboxThumbnails

/// When the first screen's milestones came, counted from the start of `main` (`--stats`): where
/// the time of a first screen goes. Before `main`, the system loads the program and its libraries
/// (about 5 ms here, the same whatever the options); `bench/timeline.py` times from the launch.
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

    /// Notes what a take of the scan brought: its first batch, and when folders' listings came
    /// first (a network mount), the first listing and the walk's first files read.
    mutating func note(_ batches: [LightboxThumbnails.Scanner.Batch]) {
        guard batches.contains(where: { !$0.files.isEmpty }) else { return }
        mark("scan's first batch")
        if batches.contains(where: { $0.isListing && !$0.files.isEmpty }) { mark("first listing") }
        if marks.contains(where: { $0.name == "first listing" }), batches.contains(where: { !$0.isListing && !$0.isFromIndex && !$0.files.isEmpty }) {
            mark("walk's first batch")
        }
    }

    /// `timeline from main: scan's first batch 1.2 ms, first paint 3.0 ms, …` (tenths: the small screens differ by less than a millisecond)
    var report: String {
        "timeline from main: " + marks.map { "\($0.name) \(String(format: "%.1f", $0.seconds * 1000)) ms" }.joined(separator: ", ")
    }
}
