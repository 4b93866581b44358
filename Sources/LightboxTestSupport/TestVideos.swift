import Foundation

/// Videos made by the `ffmpeg` command (Debian's `ffmpeg`, installed by `make test`) from its
/// generated sources, so no fixture is downloaded.
public enum TestVideos {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `ffmpeg` with `arguments` (after `-y -loglevel error`); throws when it fails or is missing.
    public static func ffmpeg(_ arguments: [String]) throws {
        try runTool(["ffmpeg", "-nostdin", "-y", "-loglevel", "error"] + arguments)
    }

    /// A video `seconds` long of a red top half over a blue bottom half, `width` x `height`
    /// stored, with a keyframe every second, shown turned `rotation` degrees clockwise.
    public static func halves(
        at path: String, width: Int = 160, height: Int = 120, seconds: Int = 3, rotation: Int = 0,
        created: String? = nil, codec: [String] = ["-c:v", "libx264", "-pix_fmt", "yuv420p"]
    ) throws {
        let half = "s=\(width)x\(height / 2):r=25:d=\(seconds)"
        var arguments =
            [
                "-f", "lavfi", "-i", "color=c=red:\(half)", "-f", "lavfi", "-i", "color=c=blue:\(half)",
                "-filter_complex", "[0][1]vstack", "-g", "25",
            ] + codec
        if let created { arguments += ["-metadata", "creation_time=\(created)"] }
        if rotation != 0 {
            let plain = path + ".plain." + (path as NSString).pathExtension
            try ffmpeg(arguments + [plain])
            // The rotation goes in the track's display matrix, as phones write it.
            try ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotation)", path])
            try FileManager.default.removeItem(atPath: plain)
        } else {
            try ffmpeg(arguments + [path])
        }
    }

    /// A test pattern fading in from black over `fade` seconds, `seconds` long, a keyframe every second.
    public static func fadeIn(at path: String, seconds: Int = 6, fade: Int = 2) throws {
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=\(seconds)", "-vf", "fade=in:0:\(fade * 25)", "-g", "25",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", path,
        ])
    }
}

/// Runs a Debian tool the tests make fixtures with (`ffmpeg`, `exiftool`, `heif-enc`), installed by `make test`.
public func runTool(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = readToEnd(errors.fileHandleForReading.fileDescriptor)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw TestVideos.Failure(
            description: "\(arguments.joined(separator: " ")) failed (is the Debian package installed? make test installs it): "
                + String(decoding: message, as: UTF8.self))
    }
}

/// What a Debian tool (`exiftool`, `exiv2`) prints on its standard output, as bytes.
public func toolBytes(_ arguments: [String]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let bytes = readToEnd(output.fileHandleForReading.fileDescriptor)
    process.waitUntilExit()
    return bytes
}

/// The same, as text.
public func toolText(_ arguments: [String]) throws -> String { String(decoding: try toolBytes(arguments), as: UTF8.self) }

/// Everything `fd` gives until its end, read again when a signal interrupts a read (Foundation's
/// `readDataToEndOfFile` crashes on EINTR, which another test's signal can cause).
public func readToEnd(_ fd: Int32) -> [UInt8] {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return data }
        data += chunk[0..<n]
    }
}
