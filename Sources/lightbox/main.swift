import LightboxApp
import LightboxTerminal
import LightboxThumbnails
import LightboxView

#if canImport(Glibc)
    import Glibc
#endif

/// The arguments as the bytes the kernel gave, so non-UTF-8 paths stay exact.
let rawArguments: [[UInt8]] = (1..<Int(CommandLine.argc)).map { i in
    guard let pointer = CommandLine.unsafeArgv[i] else { return [] }
    return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
}
/// Whether this process replaces a decoder fork (`--decode-worker`), not the app.
let isDecodeWorker = rawArguments.first == Array("--decode-worker".utf8)
// First, while there is one thread: the process the shell waits for, apart from the worker.
if !isDecodeWorker { ExitWatcher.split() }
let version = lightboxVersion
Timeline.begin()

/// `batch` without the files of formats this libvips cannot load (only WebP, TIFF, HEIF and
/// JPEG XL depend on the build; asking starts a `lightbox-decode`, so it is asked only when needed).
@Sendable func supportedOnly(_ batch: Scanner.Batch) -> Scanner.Batch {
    let optional = Set(ImageFormat.table.filter { $0.traits.vipsLoader != nil }.map(\.format))
    guard batch.files.contains(where: { optional.contains($0.format) }) else { return batch }
    let supported = Options.codecFormats
    // A pair whose picture this libvips cannot show stays: a broken tile says why, and its files are still picked.
    return batch.keeping { supported.contains($0.format) || !$0.companions.isEmpty }
}

/// Says that nothing was found, and why; exit code 2 when no path given could be read at all.
func reportNothingFound(_ problems: [String], unlisted: Int = 0, options: Options) -> Int32 {
    if options.exitsQuietlyWhenEmpty { return 1 }  // --exit-0
    for problem in problems { Output.error(problem) }
    if unlisted > 0 { Output.error("… and \(unlisted) more problems") }
    Output.error("no images found in \(options.sourceDescription)")
    return !options.paths.isEmpty && problems.count == options.paths.count ? 2 : 1
}

/// The settings file, `$XDG_CONFIG_HOME/lightbox/config` (or `~/.config/lightbox/config`), if any.
func loadConfiguration() -> Configuration {
    var configuration = Configuration()
    if let file = CommandRunner.configFolder?.appending(Array("config".utf8)) {
        switch FileReader.read(file, limit: Configuration.byteLimit) {
        case .success(let bytes): configuration = Configuration(parsing: String(decoding: bytes, as: UTF8.self))
        case .failure(let failure):
            // No settings file is the usual case; one that cannot be read is said, not passed over.
            if file.withCString({ access($0, F_OK) }) == 0 {
                configuration.problems.append("settings file \(file): \(failure.message); none of it is used")
            }
        }
    }
    return configuration
}

/// The UI's colours before the terminal is asked: the settings file's colours, `NO_COLOR`, and
/// light or dark as the settings say, else by `COLORFGBG` (`InteractiveSession` asks the terminal).
func startingTheme(_ configuration: Configuration) -> Theme {
    var theme = Theme.standard
    for (slot, rgb) in configuration.colors { theme.set(slot, to: .rgb(rgb.0, rgb.1, rgb.2)) }
    if EnvironmentVariable.bytes("NO_COLOR") != nil { theme.colorsText = false }
    let named = EnvironmentVariable.bytes("COLORFGBG").map { String(decoding: $0, as: UTF8.self) }
    return theme.following(background: configuration.background ?? RGB.background(colorFGBG: named))
}

/// Holds closed standard descriptors with /dev/null, so no file opened later becomes one: stdout
/// is held read-only, so printing the selection fails (and says so) rather than landing in a
/// file that happened to take descriptor 1.
func holdClosedStandardDescriptors() {
    for (fd, mode) in [(Int32(0), O_RDONLY), (1, O_RDONLY), (2, O_WRONLY)] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
        let null = open("/dev/null", mode)
        if null >= 0 && null != fd { dup2(null, fd); close(null) }
    }
}

func main() -> Int32 {
    holdClosedStandardDescriptors()
    signal(SIGPIPE, SIG_IGN)  // a closed pipe (a reader gone, a decoder crashed) is an error to handle, not death
    // A replacement for a decoder fork (one that crashed or hung): JPEG, EXIF, RAW previews
    // and the disk cache, with no image library.
    if isDecodeWorker {
        guard let settings = DecoderSettings(parsing: Array(rawArguments.dropFirst())) else { return 2 }
        settings.serve(codecs: nil)
        return 0
    }
    var options: Options
    do {
        let configuration = loadConfiguration()
        options = try Options.parse(rawArguments, configuration: configuration)
        options.theme = startingTheme(configuration)
    } catch {
        Output.error("\(error)\nTry 'lightbox --help'.")
        return 2
    }
    if options.showsHelp { Output.write(Array((Options.usage + "\n").utf8)); return 0 }
    if options.showsVersion { Output.write(Array("lightbox \(version)\n".utf8)); return 0 }
    if options.showsManual { Output.write(Array(Documentation.manPage(version: version).utf8)); return 0 }
    if let shell = options.completionShell, let script = Documentation.completions(for: shell) { Output.write(Array(script.utf8)); return 0 }

    if options.writesSidecars { return SidecarSession.run(options: options) }
    if options.forgetsIndex { return forgetIndexed(options) }
    options.openIndex()
    // A list's first path tells how many reads go at once (many on a network mount).
    let peekBegan = InteractiveSession.now
    options.peekList()
    let peeked = InteractiveSession.now - peekBegan
    // What waits is written at the end, whatever the session was; what went wrong is said.
    defer {
        options.index?.flush()
        for problem in options.index?.takeProblems() ?? [] { Output.error(problem) }
    }
    if options.lists {
        guard !options.paths.isEmpty else {
            Output.error("--list: a filter expression first, as lightbox --list 'rating>=3' PATH")
            return 2
        }
        var listed = options
        let expression = String(decoding: listed.paths.removeFirst().bytes, as: UTF8.self)
        return ListSession.run(expression: expression, options: listed)
    }
    if options.warms {
        let notice = StallNotice()
        defer { notice.stop() }
        let scanner = options.scanner
        let scan =
            options.readsStandardInput ? scanner.scan(listIn: 0, separator: options.readsNul ? 0 : 10, prefix: options.listPrefix) : scanner.scan(options.paths)
        let files = scan.folders.flatMap { supportedOnly(Scanner.Batch(folder: $0.path, files: $0.files)).files }
        guard !files.isEmpty else { return reportNothingFound(scan.problems, unlisted: scan.unlistedProblems, options: options) }
        for problem in scan.problems { Output.error(problem) }
        if scan.unlistedProblems > 0 { Output.error("… and \(scan.unlistedProblems) more problems") }
        return WarmSession.run(files: files, options: options)
    }
    // Decoder processes start loading their libraries while the scan starts.
    // The gallery's decoders write cache entries when idle; a snapshot's must land before it ends.
    // On a network mount the gallery reads files many at once ahead of its decoders.
    let decoder = options.makeDecoder(
        prestartsDecoders: true, defersCacheWrites: options.snapshotSize == nil, readsAhead: options.snapshotSize == nil ? options.metadataReads : 1)
    var scanner = options.scanner
    // The screen's files read first: the scan narrows its reads while they are.
    if let stage = decoder.readStage { scanner.yielding = { stage.isBusy } }
    // The gallery shows what the index remembers at once, while the walk checks it (a
    // snapshot, and --select-1, wait for what the walk finds).
    let replays = options.snapshotSize == nil && !options.selectsOnlyItem
    // On a network mount, a folder's listing is shown before its files are read (in the scan's order only).
    scanner.listsFirst = replays && options.arrangement.keepsScanOrder
    // Folders taken whole from the index have their files looked at once the walk is over (in the background).
    scanner.checksTrustedFolders = replays
    let scan = BackgroundScan(
        source: options.scanSource, scanner: scanner, replaying: replays ? options.index : nil, replayPart: Scheduler.Pacing().scanTakeLimit,
        transform: supportedOnly)
    // A small folder is scanned before the first screen; a folder with nothing in it never opens the UI.
    // (Less the time the list's start was waited for: the UI opens within half a second either way.)
    scan.waitForImages(timeout: max(0.05, 0.5 - peeked))
    var first = scan.take()
    if options.selectsOnlyItem {
        // --select-1: the scan ends, or finds a second image, before the UI opens, for a moment
        // at most (a large tree, a mount that does not answer): then the UI opens, and a scan
        // that ends with one image, before any key, still prints it.
        let deadline = InteractiveSession.now + Options.selectOneWait
        while !first.isFinished && first.batches.reduce(0, { $0 + $1.files.count }) < 2 && InteractiveSession.now < deadline {
            scan.waitForBatches(timeout: max(0.01, deadline - InteractiveSession.now))
            let more = scan.take()
            first = BackgroundScan.Progress(batches: first.batches + more.batches, isFinished: more.isFinished)
        }
        let found = first.batches.flatMap(\.files)
        if first.isFinished && found.count == 1 {
            decoder.shutdown()
            return printAccepted([found[0].path], options: options)
        }
    }
    // (A snapshot says so itself, once it has asked the index whether a mount gone held them.)
    if first.isFinished && first.batches.allSatisfy({ $0.files.isEmpty }) && options.snapshotSize == nil {
        decoder.shutdown()
        return reportNothingFound(first.batches.flatMap(\.problems), unlisted: first.batches.reduce(0) { $0 + $1.unlistedProblems }, options: options)
    }
    if let size = options.snapshotSize {
        return SnapshotSession.run(scan: scan, first: first, options: options, decoder: decoder, size: size)
    }
    do {
        switch try InteractiveSession.run(scan: scan, first: first, options: options, decoder: decoder) {
        case .cancelled(let code):
            return code
        case .nothingFound(let problems, let unlisted):
            return reportNothingFound(problems, unlisted: unlisted, options: options)
        case .accepted(let paths):
            return printAccepted(paths, options: options)
        }
    } catch {
        Output.error("\(error)")
        return 2
    }
}

/// `--index-forget PATH…`: what the index has of those paths goes; exit 1 when it had nothing.
func forgetIndexed(_ options: Options) -> Int32 {
    guard !options.paths.isEmpty else {
        Output.error("--index-forget: the paths to forget, as lightbox --index-forget /mnt/nas/photos")
        return 2
    }
    guard let folder = LibraryIndex.defaultFolder(),
        let index = LibraryIndex(folder: folder, mode: .on), index.isOpen
    else {
        Output.error("--index-forget: the index cannot be opened")
        return 2
    }
    let forgotten = options.paths.reduce(0) { $0 + index.forget(under: $1) }
    for problem in index.takeProblems() { Output.error(problem) }
    Output.error("\(forgotten) file\(forgotten == 1 ? "" : "s") forgotten from the index \(index.location)")
    return forgotten > 0 ? 0 : 1
}

/// Prints accepted paths; exit code 0, or 2 when a name cannot be printed newline-separated or
/// the paths cannot be written (a full disk, a closed pipe): the pick is not lost silently.
func printAccepted(_ paths: [ImagePath], options: Options) -> Int32 {
    switch Output.encode(paths, nulSeparated: options.printsNul) {
    case .success(let bytes):
        guard Output.write(bytes) else {
            let reason = String(cString: strerror(errno))
            let kept = options.marksFile.map { "; the marks are kept in \($0)" } ?? ""
            Output.error("cannot write the \(paths.count == 1 ? "accepted path" : "\(paths.count) accepted paths") to standard output: \(reason)\(kept)")
            return 2
        }
        return 0
    case .failure(let error):
        Output.error(error.description)
        return 2
    }
}

let code = main()
fflush(nil)  // what print wrote goes before the code is said
ExitWatcher.letGo()
ExitWatcher.report(code)
exit(code)
