import Foundation
import LightboxApp
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// `--warm`: fills the disk cache for every image found, one worker per core, with a progress
/// line on stderr. Entries are written atomically, so Ctrl-C loses nothing and a rerun resumes.
enum WarmSession {
    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0

    static func run(files: [ImageFile], options: Options) -> Int32 {
        guard let cache = options.diskCache else {
            Output.error("--warm needs the disk cache (it is off, or HOME is not set)")
            return 2
        }
        for signal in [SIGINT, SIGTERM, SIGHUP] { Glibc.signal(signal) { _ in WarmSession.interrupted = 1 } }
        let decoder = options.makeDecoder()
        let warm = decoder.warm
        defer { decoder.shutdown() }
        let tally = Tally()
        let start = Date()
        let workers = ProcessInfo.processInfo.activeProcessorCount
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Thread {
                while interrupted == 0, let index = tally.take(below: files.count) {
                    tally.count(warm(files[index], .normal))
                }
                group.leave()
            }.start()
        }
        let showsProgress = isatty(2) != 0
        while group.wait(timeout: .now() + 0.1) == .timedOut {
            guard showsProgress else { continue }
            Output.write(Array(progressLine(done: tally.snapshot.done, total: files.count, elapsed: Date().timeIntervalSince(start)).utf8), to: 2)
        }
        let elapsed = Date().timeIntervalSince(start)
        if showsProgress { Output.write(Array("\r\u{1B}[K".utf8), to: 2) }
        let (done, written, cached, failed) = tally.snapshot
        var summary =
            "warmed \(done) of \(files.count) images in \(String(format: "%.1f", elapsed)) s: "
            + "\(written) written, \(cached) already cached, \(failed) failed (\(cache.root))\n"
        if interrupted != 0 { summary += "interrupted: run the same command again to finish\n" }
        Output.write(Array(summary.utf8), to: 2)
        return interrupted != 0 ? 130 : (failed > 0 ? 1 : 0)
    }

    /// Work handed out and outcomes counted, shared by the workers.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0, written = 0, cached = 0, failed = 0

        /// The next file index, or nil when all are handed out.
        func take(below count: Int) -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard next < count else { return nil }
            next += 1
            return next - 1
        }

        func count(_ outcome: ThumbnailPipeline.WarmOutcome) {
            lock.lock(); defer { lock.unlock() }
            switch outcome {
            case .written: written += 1
            case .alreadyCached: cached += 1
            case .failed, .needsCodecs, .cacheUnwritable: failed += 1  // the router never gives back .needsCodecs
            }
        }

        var snapshot: (done: Int, written: Int, cached: Int, failed: Int) {
            lock.lock(); defer { lock.unlock() }
            return (written + cached + failed, written, cached, failed)
        }
    }

    /// `[=====>     ] 1234/2000  61%  45.3/s  0:17 left`
    static func progressLine(done: Int, total: Int, elapsed: Double) -> String {
        let width = 30
        let fraction = total == 0 ? 1 : Double(done) / Double(total)
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Int(Double(total - done) / rate) : 0
        return String(format: "\r[%@] %d/%d %3d%%  %.1f/s  %d:%02d left\u{1B}[K", bar, done, total, Int(fraction * 100), rate, left / 60, left % 60)
    }
}
