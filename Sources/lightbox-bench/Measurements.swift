import Foundation
import LightboxApp
import LightboxCodecs
import LightboxCurses
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import LightboxView

/// In-process measurements that no outside tool can take.
enum Measurements {
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
    }

    /// Keystroke to painted screen while thumbnails decode: a held key at 30 Hz through a folder,
    /// each key applied, drawn and painted by ncurses into a pseudo-terminal of the same size,
    /// as the run loop does. Returns (p50, p99, max) in milliseconds, and the file count.
    /// In a pixel mode (`graphics`), the pictures are written too: kitty transmissions, or sixel
    /// strings for every tile that moved, with a 10x20 cell.
    static func keystrokes(folder: String, graphics: Graphics = .half, width: Int = 160, height: Int = 48, presses: Int = 300) throws -> String {
        let scan = Scanner().scan([ImagePath(folder)])
        var settings = GalleryState.Settings()
        settings.graphics = graphics
        var state = GalleryState(library: Library(folders: scan.folders), width: width, height: height, settings: settings)
        let pty = try PseudoTerminal(width: width, height: height)
        let terminal = try CursesTerminal(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], device: pty.devicePath)
        defer { terminal.restore() }
        terminal.setImageMode(graphics.pixelProtocol, cellPixels: state.pictures.cellPixels)
        let provider = ThumbnailProvider(decoder: ThumbnailPipeline.withCodecs(diskCache: nil))
        for case .load(let requests) in state.initialEffects() { provider.request(requests) }
        terminal.paint(GalleryView.frame(for: state))
        var latencies: [Double] = []
        let keys: [Command] = [.move(.down), .move(.down), .move(.right), .pageDown]
        for press in 0..<presses {
            let start = now()
            var effects = state.apply(keys[press % keys.count])
            terminal.paint(GalleryView.frame(for: state))
            latencies.append(Double(now() - start) / 1e6)
            for (request, result) in provider.takeResults() { effects += state.apply(.decoded(request, result)) }
            for case .load(let requests) in effects.coalesced { provider.request(requests) }
            // Decoded tiles are painted between keys, as the run loop paints them.
            terminal.paint(GalleryView.frame(for: state))
            usleep(33_000)
        }
        provider.shutdown()
        return String(
            format:
                "keystroke to painted screen (apply, view, ncurses into a %dx%d pty, 24-bit colour, pictures in %@), %d keys at 30 Hz over %d files while decoding: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
            width, height, graphics.title, presses, state.library.count, percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.max() ?? 0)
    }

    /// The cost of each picture mode itself: a synthetic library whose thumbnails are all
    /// decoded (a photo-like gradient each), scrolled a line a key, so every tile on screen moves:
    /// the view, ncurses, and the pictures written (sixel re-encoded for every moved tile, kitty
    /// sent once each) into a pty. Returns p50 / p99 / max in ms and the bytes written a key.
    static func pictureModes(width: Int = 160, height: Int = 48, presses: Int = 120) throws -> String {
        var lines: [String] = []
        // Half blocks twice: in direct colour, and in 256 (tmux's and many terminals' default), each cell's colours mapped.
        for (graphics, colours) in [(Graphics.half, "truecolor"), (.half, ""), (.quadrant, "truecolor"), (.kitty, "truecolor"), (.sixel, "truecolor")] {
            let folders = [
                ImageFolder(
                    path: ImagePath("/photos"),
                    files: (0..<2000).map { i in
                        ImageFile(path: ImagePath("/photos/IMG_\(i).jpg"), byteCount: 2_700_000, modified: 0, format: .jpeg)
                    })
            ]
            var settings = GalleryState.Settings()
            settings.graphics = graphics
            var state = GalleryState(library: Library(folders: folders), width: width, height: height, settings: settings)
            let pty = try PseudoTerminal(width: width, height: height)
            let terminal = try CursesTerminal(environment: ["TERM": "xterm-256color", "COLORTERM": colours], device: pty.devicePath)
            terminal.setImageMode(graphics.pixelProtocol, cellPixels: state.pictures.cellPixels)
            /// Every thumbnail the state wants, made at once, as the provider would make it.
            func decodeAll() {
                for request in state.store.demand {
                    var pixels = [UInt8](repeating: 0, count: request.box.width * request.box.height * 3)
                    for y in 0..<request.box.height {
                        for x in 0..<request.box.width {
                            let i = (y * request.box.width + x) * 3
                            pixels[i] = UInt8((x * 255) / max(1, request.box.width))
                            pixels[i + 1] = UInt8((y * 255) / max(1, request.box.height))
                            pixels[i + 2] = UInt8((request.id.rawValue * 37) % 256)
                        }
                    }
                    var thumbnail = Thumbnail(width: request.box.width, height: request.box.height, pixels: pixels)
                    if request.wantsCells {
                        let box = SymbolCells.cells(inBox: request.box)
                        thumbnail.cells = SymbolCells.render(thumbnail, columns: box.columns, rows: box.rows, symbols: request.symbols, depth: request.depth)
                    }
                    _ = state.apply(.decoded(request, .decoded(thumbnail)))
                }
            }
            /// Paints the state, and writes until the terminal has it all.
            func paint() {
                terminal.paint(GalleryView.frame(for: state))
                terminal.writeAllWaiting()
            }
            _ = state.initialEffects()
            decodeAll()
            paint()
            var latencies: [Double] = []
            let written = pty.bytesRead
            for _ in 0..<presses {
                let start = now()
                _ = state.apply(.scroll(lines: 1))
                paint()
                latencies.append(Double(now() - start) / 1e6)
                decodeAll()  // the row coming into view, outside the timing
                paint()
            }
            let perKey = (pty.bytesRead - written) / presses
            terminal.restore()
            lines.append(
                String(
                    format: "%@%@: p50 %.2f ms, p99 %.2f ms, max %.2f ms, %d KB written a key", graphics.title, colours.isEmpty ? " (256 colours)" : "",
                    percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.max() ?? 0, perKey / 1024))
        }
        return "picture modes, every tile decoded, scrolled a line a key (\(width)x\(height) pty, 10x20 cells, \(presses) keys): "
            + lines.joined(separator: "; ")
    }

    /// `count` files of ~30-byte paths, a thousand a folder, nothing on disk.
    static func syntheticFolders(_ count: Int) -> [ImageFolder] {
        (0..<(count / 1000)).map { f in
            ImageFolder(
                path: ImagePath("/photos/folder-\(f)"),
                files: (0..<1000).map { i in
                    ImageFile(path: ImagePath("/photos/folder-\(f)/IMG_\(f * 1000 + i).jpg"), byteCount: 2_700_000, modified: 0, format: .jpeg)
                })
        }
    }

    /// Resident memory of a synthetic library of `count` items laid out and drawn.
    static func memory(items count: Int) -> String {
        let before = residentBytes()
        var state = GalleryState(library: Library(folders: syntheticFolders(count)), width: 160, height: 48)
        _ = state.initialEffects()
        _ = state.apply(.markAll)
        _ = state.apply(.move(.last))
        _ = GalleryView.frame(for: state)
        let after = residentBytes()
        return String(
            format: "synthetic library of %d items (paths of ~30 bytes), all marked: %.1f MB resident, %d bytes per item",
            count, Double(after - before) / 1e6, (after - before) / count)
    }

    /// A filter keystroke over a synthetic library of `count` items whose decisions and metadata
    /// were read: each character of a query typed one at a time, as the gallery applies it (the
    /// library filtered and laid out again, the screen drawn). Returns p50 / p99 / max in ms.
    static func filterKeystrokes(items count: Int) -> String {
        var state = GalleryState(library: Library(folders: syntheticFolders(count)), width: 160, height: 48)
        _ = state.initialEffects()
        let read = (0..<count).map { Decisions.ItemChange(id: ItemID($0), decision: Decision(rating: $0 % 7 - 1, labels: $0 % 5 == 0 ? [.red] : [])) }
        _ = state.apply(.decisionsRead(read))
        let metadata = (0..<count).map { number in
            var exif = ImageMetadata()
            (exif.make, exif.model) = sampleCameras[number % sampleCameras.count]
            exif.lens = sampleLenses[number / 3 % sampleLenses.count]
            exif.iso = [100, 400, 800, 3200, 6400][number % 5]
            exif.fNumber = [1.4, 2.8, 5.6, 8][number / 7 % 4]
            exif.focalLength = [23, 35, 50, 85][number / 11 % 4]
            exif.dateTaken = "2024:06:\(number % 28 + 10) 12:00:00"
            return MetadataResult(
                id: ItemID(number), metadata: exif, size: number % 3 == 0 ? PixelSize(width: 4000, height: 6000) : PixelSize(width: 6000, height: 4000))
        }
        _ = state.apply(.metadataRead(metadata))
        var latencies: [Double] = [], shown: [Int] = []
        for query in ["rating>=3 !label:red", "img_4 kind:photo", "camera:x100 iso>=800 f<2.8 orientation:portrait", "date:2024-06-12..2024-06-20 lens:35"] {
            _ = state.apply(.startFilter)
            for character in query {
                let start = now()
                _ = state.apply(.filterInput(String(character)))
                _ = GalleryView.frame(for: state)
                latencies.append(Double(now() - start) / 1e6)
            }
            shown.append(state.library.count)
            _ = state.apply(.cancelFilter)
        }
        return String(
            format:
                "a filter keystroke over %d items with their decisions and metadata (the library filtered and laid out, the screen drawn), %d keys of four queries: p50 %.2f ms, p99 %.2f ms, max %.2f ms; %@ shown at the end of each",
            count, latencies.count, percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.max() ?? 0,
            shown.map(String.init).joined(separator: ", "))
    }

    /// The streaming scan of a folder: how soon the first batch comes, how long the whole scan
    /// takes, and the memory of the whole library once laid out, marked and drawn.
    static func scan(folder: String) -> String {
        let before = residentBytes()
        let start = now()
        let scan = BackgroundScan(paths: [ImagePath(folder)])
        var state = GalleryState(library: Library(), width: 160, height: 48, isScanning: true)
        var firstBatch: Double?
        while state.isScanning {
            scan.waitForBatches(timeout: 10)
            let progress = scan.take()
            _ = state.apply(.scanned(progress.batches, isFinished: progress.isFinished))
            if firstBatch == nil && !state.library.isEmpty { firstBatch = Double(now() - start) / 1e9 }
        }
        let total = Double(now() - start) / 1e9
        _ = state.apply(.markAll)
        _ = state.apply(.move(.last))
        _ = GalleryView.frame(for: state)
        let after = residentBytes()
        let count = max(1, state.library.count)
        return String(
            format:
                "streaming scan of %d files in one folder: first items after %.2f s, all after %.2f s; then %.0f MB resident for the library laid out, all marked and drawn, %d bytes per item",
            state.library.count, firstBatch ?? 0, total, Double(after - before) / 1e6, (after - before) / count)
    }

    /// The EXIF thumbnails of a folder's JPEGs decoded by the app's own decoder and by
    /// libjpeg-turbo, at a half-block tile's scale and at the disk cache's: median per thumbnail.
    static func exifThumbnails(folder: String) -> String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        let thumbnails: [[UInt8]] = names.compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder + "/" + name).map({ Array($0.prefix(128 << 10)) }),
                let range = JPEGHeader(parsing: data)?.exifThumbnail
            else { return nil }
            return Array(data[range])
        }
        guard let first = thumbnails.first, let size = JPEGHeader(parsing: first) else { return "no EXIF thumbnails in \(folder)" }
        func median(_ decode: ([UInt8]) -> Bool) -> Double {
            var times: [Double] = []
            for _ in 0..<15 {
                for thumbnail in thumbnails {
                    let start = now()
                    precondition(decode(thumbnail))
                    times.append(Double(now() - start) / 1e3)
                }
            }
            return times.sorted()[times.count / 2]
        }
        var lines: [String] = []
        for box in [PixelSize(width: 26, height: 24), PixelSize(width: 128, height: 96)] {
            let ours = median { BaselineJPEGDecoder.decode($0, covering: box) != nil }
            let turbo = median {
                guard case .decoded = TurboJPEGDecoder.decode($0, width: size.width, height: size.height, covering: box, pixelLimit: 1 << 24) else {
                    return false
                }
                return true
            }
            lines.append(
                String(
                    format: "EXIF thumbnail (%dx%d) for a %dx%d box: our decoder %.1f µs, libjpeg-turbo %.1f µs (%.2fx)", size.width, size.height,
                    box.width, box.height, ours, turbo, ours / turbo))
        }
        return lines.joined(separator: "\n")
    }

    /// Layout of a million items in 1,000 sections in each mode, and the visible-range query.
    static func layout() -> String {
        let counts = Array(repeating: 1000, count: 1000)
        let aspects = (0..<1_000_000).map { [750, 1333, 500, 1000][$0 % 4] }
        let modes: [(String, () -> any TileLayout)] = [
            ("grid", { GridLayout(sectionCounts: counts, spec: .standard, width: 200) }),
            ("masonry", { MasonryLayout(sectionCounts: counts, aspects: aspects, spec: .standard, width: 200) }),
            ("strip", { StripLayout(sectionCounts: counts, spec: .standard, width: 200, height: 48) }),
        ]
        return modes.map { name, make in
            let start = now()
            let layout = make()
            let built = Double(now() - start) / 1e6
            let queries = 100_000
            var sink = 0
            let queryStart = now()
            for k in 0..<queries {
                let range = layout.visibleItems(offset: (k &* 7919) % layout.contentHeight, height: 48)
                sink &+= range.count
            }
            let perQuery = Double(now() - queryStart) / Double(queries)
            return String(
                format: "%@ layout of 1,000,000 items in 1,000 sections: %.2f ms to build, %.0f ns a visible-range query (%d)",
                name, built, perQuery, sink % 2)
        }.joined(separator: "\n- ")
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

extension Measurements {
    /// The index's replay of a library an earlier visit found, and the walk that checks it, each
    /// alone (no gallery), with the index in INDEX (the folder holding `index.sqlite`).
    static func replay(index folder: String, library: String) -> String {
        guard let index = LibraryIndex(folder: ImagePath(folder), mode: .read) else { return "no index in \(folder)" }
        var start = now()
        var replayed = 0, firstFolder: Double?
        // Kept, as the gallery keeps what it is handed (dropped at once, their memory was reused: a quarter faster).
        var kept: [LightboxThumbnails.Scanner.Batch] = []
        index.replay(under: ImagePath(library), pairs: true) { batch in
            replayed += batch.files.count
            kept.append(batch)
            if firstFolder == nil { firstFolder = Double(now() - start) / 1e9 }
            return true
        }
        let replay = Double(now() - start) / 1e9
        withExtendedLifetime(kept) {}
        var scanner = Scanner()
        scanner.index = index
        start = now()
        var walked = 0
        scanner.scan([ImagePath(library)]) { batch in
            walked += batch.files.count
            return true
        }
        let walk = Double(now() - start) / 1e9
        return String(
            format: "the index's replay of %d files: the first folder after %.3f s, all after %.3f s; the walk of %d files with the index: %.3f s",
            replayed, firstFolder ?? 0, replay, walked, walk)
    }
}

extension Measurements {
    /// A relaunch with the index as the gallery takes it, without a terminal: the index's replay
    /// on its thread, handed in the run loop's parts, each taken into a gallery sectioned by date
    /// (160x48) as the run loop takes it; when the whole library was there, and each take's time.
    static func relaunch(index folder: String, library: String) -> String {
        guard let index = LibraryIndex(folder: ImagePath(folder), mode: .read) else { return "no index in \(folder)" }
        let start = now()
        let limit = Scheduler.Pacing().scanTakeLimit
        let scan = BackgroundScan(source: .paths([ImagePath(library)]), replaying: index, replayPart: limit)
        var arrangement = Arrangement()
        arrangement.sections = .date
        var state = GalleryState(library: Library(arrangement: arrangement), width: 160, height: 48, isScanning: true)
        var takes: [Double] = [], firstScreen: Double?, landing = false
        while true {
            scan.waitForBatches(timeout: 10)
            let progress = scan.take(filesAtMost: limit)
            let before = now()
            if !progress.batches.isEmpty { _ = state.apply(.scanned(progress.batches, isFinished: progress.isFinished)) }
            // As the run loop says it: the index's parts still coming, then all taken.
            let isLanding = scan.isLandingIndex
            if isLanding != landing {
                landing = isLanding
                _ = state.apply(.indexLanding(landing))
            }
            guard !progress.batches.isEmpty || !landing else { continue }
            _ = GalleryView.frame(for: state)
            takes.append(Double(now() - before) / 1e6)
            if firstScreen == nil { firstScreen = Double(now() - start) / 1e6 }
            progress.release()
            if !landing { break }
        }
        let landed = Double(now() - start) / 1e6
        scan.stop()
        return String(
            format: "a relaunch of %d photos by date from the index: the first screen after %.0f ms, all there after %.0f ms; %d takes, %.0f ms in all (%@)",
            state.library.count, firstScreen ?? 0, landed, takes.count, takes.reduce(0, +), takes.map { String(format: "%.0f", $0) }.joined(separator: " "))
    }
}

extension Measurements {
    /// Four cameras (make, model) and four lenses, as their EXIF names them, for synthetic libraries' metadata.
    static let sampleCameras = [("FUJIFILM", "X100V"), ("Canon", "Canon EOS R5"), ("NIKON CORPORATION", "NIKON Z 6_2"), ("SONY", "ILCE-7M4")]
    static let sampleLenses = ["XF35mmF1.4 R", "RF24-70mm F2.8 L IS USM", "NIKKOR Z 50mm f/1.8 S", "FE 85mm F1.8"]

    /// The library's recording of `count` photos' metadata as a replay of the index hands it:
    /// with a camera, a lens and a date each (four of each), and with a date alone.
    /// A first visit by date: `count` photos' dates (spread over two years) coming from the
    /// metadata reader a thousand at a time, each batch arranged as the gallery arranges it.
    static func datesArriving(items count: Int) -> String {
        var times: [Double] = []
        for _ in 0..<3 {
            var library = Library(folders: syntheticFolders(count), arrangement: Arrangement(sections: .date, sort: .date))
            let batches = stride(from: 0, to: count, by: 1000).map { first in
                (first..<min(count, first + 1000)).map { number in
                    var exif = ImageMetadata()
                    exif.dateTaken = "202\(Int.random(in: 4...5)):0\(Int.random(in: 1...9)):1\(Int.random(in: 0...9)) 12:00:00"
                    return MetadataResult(id: ItemID(number), metadata: exif, size: PixelSize(width: 6000, height: 4000))
                }
            }
            let start = now()
            for batch in batches { library.record(batch) }
            times.append(Double(now() - start) / 1e9)
        }
        times.sort()
        return String(
            format: "%d photos' dates arriving a thousand at a time into a library by date, each batch arranged (three times): %.2f-%.2f s", count, times[0],
            times[2])
    }

    static func recordMetadata(items count: Int) -> String {
        func results(full: Bool) -> [MetadataResult] {
            (0..<count).map { number in
                var exif = ImageMetadata()
                if full {
                    (exif.make, exif.model) = sampleCameras[number / 1000 % sampleCameras.count]
                    exif.lens = sampleLenses[number / 3000 % sampleLenses.count]
                    exif.iso = 400
                    exif.fNumber = 2.8
                }
                exif.dateTaken = "2024:06:\(number % 28 + 10) 12:00:00"
                return MetadataResult(id: ItemID(number), metadata: exif, size: PixelSize(width: 6000, height: 4000))
            }
        }
        var times: [Bool: [Double]] = [:]
        for round in 0..<10 {
            let full = round % 2 == 0
            var library = Library(folders: syntheticFolders(count))
            let made = results(full: full)
            let start = now()
            _ = library.record(made, arranging: false)
            times[full, default: []].append(Double(now() - start) / 1e6)
        }
        func said(_ full: Bool) -> String {
            let sorted = times[full]!.sorted()
            return String(format: "%.1f-%.1f ms (median %.1f)", sorted.first!, sorted.last!, sorted[sorted.count / 2])
        }
        return "recording \(count) photos' metadata (five times each): with a camera, a lens and a date \(said(true)); a date alone \(said(false))"
    }
}
