import Foundation
import LightboxApp
import LightboxTerminal
import LightboxThumbnails

extension Measurements {
    /// A video playing in the preview: a 1920x1080 30 fps test pattern (made in `folder` if
    /// missing) through ncurses into a 160x48 pty with 10x20-pixel cells in a pixel mode, the
    /// clock ticking as the run loop does, its clips decoded in this process (the app's go
    /// through a decoder process's pipe too). Over `seconds` from its first frame: frames shown a
    /// second (each written whole to the pty), the longest wait between two, and how far the video
    /// played against the time passed.
    static func playback(folder: String, graphics: Graphics, seconds: Double = 8) throws -> String {
        let videoFolder = folder + "/playback"
        let path = videoFolder + "/pattern-1080p30.mp4"
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: videoFolder, withIntermediateDirectories: true)
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            ffmpeg.arguments = [
                "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=30", "-g", "30", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", path,
            ]
            try ffmpeg.run()
            ffmpeg.waitUntilExit()
        }
        let session = try PixelSession(folder: videoFolder, graphics: graphics)
        defer { session.close() }
        func clock() -> Double { Double(now()) / 1e9 }
        let opened = clock(), before = session.pty.bytesRead
        session.apply(.openPreview)
        var shown: [(at: Double, played: Int)] = []
        var last: (start: Int, frame: Int)?
        while shown.isEmpty ? clock() - opened < 20 : clock() - shown[0].at < seconds {
            if let due = session.state.nextFrameTime, clock() >= due { session.apply(.tick(clock())) }
            session.step()
            if let preview = session.state.preview, let clip = session.state.animation,
                last.map({ $0 != (preview.clipStart, preview.frame) }) ?? true
            {
                last = (preview.clipStart, preview.frame)
                shown.append((clock(), preview.clipStart + clip.delays.prefix(preview.frame).reduce(0, +)))
            }
            usleep(1000)
        }
        guard let first = shown.first, let end = shown.last, shown.count > 1 else { return "video playback (\(graphics.title)): no frame shown" }
        let gaps = zip(shown, shown.dropFirst()).map { ($1.at - $0.at) * 1000 }
        let wall = end.at - first.at, played = Double(end.played - first.played) / 1000
        return String(
            format:
                "a 1920x1080 30 fps video playing in the preview (%@, 160x48 pty, 10x20 cells, frames at most 12 a second): first frame %.0f ms after o; then %.1f frames a second over %.1f s (median wait %.0f ms, longest %.0f ms), %.1f s of video played in %.1f s; %.1f MB a second written",
            graphics.title, (first.at - opened) * 1000, Double(shown.count - 1) / wall, wall, percentile(gaps, 0.5), gaps.max() ?? 0, played, wall,
            Double(session.pty.bytesRead - before) / wall / 1e6)
    }
}
