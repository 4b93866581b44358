import Foundation

/// A fresh folder under the system's temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "lightbox-test") throws {
        path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `path/relative`, creating the folders on the way.
    public func file(_ relative: String) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return full
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
