import Foundation
import LightboxApp
import LightboxCurses
import LightboxTerminal
import LightboxThumbnails
import LightboxView

#if canImport(Glibc)
    import Glibc
#endif

extension Measurements {
    /// A decision's key to its painted screen while sidecars are written, against the same keys
    /// with no writes: the cull keys held at `rate` a second through the photos of `folder`
    /// (each key rates the cursor's photo and moves on), applied, drawn and painted by ncurses
    /// into a 160x48 pty, as the run loop does; the writes go to the photos' sidecars through a
    /// `lightbox-decode` process, as the gallery's do. No thumbnails are decoded (the keys alone
    /// are measured). `folder` is scanned where it is quick to (`scannedAt`, the same tree on a
    /// local disk: a slow mount's scan is another benchmark's). Returns p50 / p99 / max in ms for
    /// each and the p99 ratio.
    static func decisionKeys(folder: String, scannedAt local: String? = nil, presses: Int = 200, rate: Double = 8) throws -> String {
        let scanned = Scanner().scan([ImagePath(local ?? folder)]).folders.map { found in
            let moved = { (path: ImagePath) in local.map { ImagePath(folder + path.description.dropFirst($0.count)) } ?? path }
            return ImageFolder(
                path: moved(found.path),
                files: found.files.map {
                    var file = $0; file.path = moved(file.path); return file
                })
        }
        func run(writing: Bool) throws -> (latencies: [Double], written: Int, waiting: Int) {
            var settings = GalleryState.Settings()
            settings.cullKeys = true
            var state = GalleryState(library: Library(folders: scanned), width: 160, height: 48, settings: settings)
            _ = state.initialEffects()
            let pty = try PseudoTerminal(width: 160, height: 48)
            let terminal = try CursesTerminal(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], device: pty.devicePath)
            defer { terminal.restore() }
            let decoder = ImagePath(
                bytes: Array(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lightbox-decode").path.utf8))
            let pool = WorkerPoolDecoder(command: [decoder.bytes] + DecoderSettings(pixelLimit: 100_000_000, cacheRoot: nil).arguments, timeLimit: 30)
            defer { pool.shutdown() }
            let keeper = DecisionKeeper(pool: pool, policy: SidecarPolicy(mode: .appended)) {}
            terminal.paint(GalleryView.frame(for: state))
            var latencies: [Double] = [], written = 0
            for press in 0..<min(presses, state.library.count - 1) {
                let start = now()
                let effects = state.apply(.rate(press % 5 + 1))
                terminal.paint(GalleryView.frame(for: state))
                latencies.append(Double(now() - start) / 1e6)
                if writing { for case .saveDecisions(let writes) in effects { keeper.write(writes) } }
                written += keeper.takeResults().filter { if case .stored = $0 { true } else { false } }.count
                usleep(UInt32(1_000_000 / rate))
            }
            let left = keeper.finish(waitingAtMost: 0)
            return (latencies, written, left.unwritten.count)
        }
        let quiet = try run(writing: false), writing = try run(writing: true)
        func figures(_ values: [Double]) -> String {
            String(format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", percentile(values, 0.5), percentile(values, 0.99), values.max() ?? 0)
        }
        return String(
            format:
                "a decision's key to its painted screen (cull keys at %.0f a second, 160x48 pty): no writes %@; writing sidecars %@ (%d written by the last key, %d still to write); p99 ratio %.2f",
            rate, figures(quiet.latencies), figures(writing.latencies), writing.written, writing.waiting,
            percentile(writing.latencies, 0.99) / max(0.001, percentile(quiet.latencies, 0.99)))
    }
}
