import Foundation
import LightboxTerminal

/// Text snapshots of frames, stored beside the tests; `LIGHTBOX_RECORD_SNAPSHOTS=1` re-records them.
public enum FrameSnapshot {
    /// The frame as text: marks and the cursor show as glyphs (✓, bars), colours do not.
    public static func render(_ frame: Frame) -> String {
        frame.text + "\n"
    }

    /// Compares `frame` with the snapshot `name` in the `Snapshots` folder next to `testFile`.
    /// Returns nil when they match (or were recorded), else a description of the difference.
    public static func verify(_ frame: Frame, named name: String, testFile: String = #filePath) -> String? {
        let folder = (testFile as NSString).deletingLastPathComponent + "/Snapshots"
        let path = folder + "/" + name + ".txt"
        let actual = render(frame)
        let record = ProcessInfo.processInfo.environment["LIGHTBOX_RECORD_SNAPSHOTS"] == "1"
        if record || !FileManager.default.fileExists(atPath: path) {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try? actual.write(toFile: path, atomically: true, encoding: .utf8)
            return record ? nil : "recorded new snapshot \(name); check it and run again"
        }
        let expected = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard expected != actual else { return nil }
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var diff = "snapshot \(name) differs (LIGHTBOX_RECORD_SNAPSHOTS=1 re-records):\n"
        for i in 0..<max(e.count, a.count) where (i < e.count ? e[i] : "") != (i < a.count ? a[i] : "") {
            diff += "line \(i + 1):\n  expected: \(i < e.count ? e[i] : "")\n  actual:   \(i < a.count ? a[i] : "")\n"
        }
        return diff
    }
}
