import LightboxApp
import LightboxCurses
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// Carries out what the state asks of the outside world: thumbnails and metadata to read,
/// commands and the key handler to run on the terminal (the grid steps aside meanwhile), a stop,
/// kitty images to delete. What comes back (a resize on return, a command's failure) comes back
/// as actions; an effect that ends the session gives how it ended.
struct EffectRunner {
    let terminal: CursesTerminal
    let provider: ThumbnailProvider
    let reader: MetadataReader
    /// Where `.readAhead` goes (nil when the read-ahead is off).
    let readAhead: ReadAheadWorker?
    /// Where decisions are written and read.
    let keeper: DecisionKeeper
    /// Where folders are walked again.
    let scan: BackgroundScan
    /// Whether the key handler gets its paths NUL-separated (`-0`).
    let printsNul: Bool

    /// Carries out `effects` in order; the session's outcome when one of them ends it.
    func perform(_ effects: [Effect], on state: inout GalleryState) -> InteractiveSession.Outcome? {
        for effect in effects {
            switch effect {
            case .load(let requests): provider.request(requests)
            case .readMetadata(let requests, let isUrgent):
                if isUrgent { requests.forEach(reader.readFirst) } else { reader.enqueue(requests) }
            case .accept(let paths): return .accepted(paths)
            case .cancel: return .cancelled(exitCode: 130)
            case .foundNothing: return .nothingFound(state.scanProblems, unlisted: state.unlistedScanProblems)
            case .run(let command):
                if let outcome = stepAside(&state, { CommandRunner.run([Array("/bin/sh".utf8), Array("-c".utf8), command]) }) { return outcome }
            case .runKeyHandler(let key, let paths):
                guard let handler = CommandRunner.keyHandlerPath, handler.withCString({ access($0, X_OK) }) == 0 else {
                    let path = CommandRunner.keyHandlerPath?.description ?? "$XDG_CONFIG_HOME/lightbox/key-handler"
                    if let outcome = perform(state.apply(.notice("no key handler: make \(path) executable")), on: &state) { return outcome }
                    continue
                }
                let separator: UInt8 = printsNul ? 0 : 10
                let input = paths.flatMap { $0.bytes + [separator] }
                if let outcome = stepAside(&state, { CommandRunner.run([handler.bytes, Array(key.utf8)], input: input).map { "key handler: " + $0 } }) {
                    return outcome
                }
            case .suspend:
                if let outcome = stepAside(
                    &state,
                    {
                        Signals.stopSelf(); return nil
                    })
                {
                    return outcome
                }
            case .redraw: terminal.invalidate()
            case .forgetImages(let ids): terminal.forgetImages(ids)
            case .readAhead(let requests): readAhead?.enqueue(requests)
            case .saveDecisions(let writes): keeper.write(writes)
            case .readDecisions(let reads): keeper.read(reads)
            case .walkAgain(let roots): scan.walkAgain(roots)
            }
        }
        return nil
    }

    /// Leaves the screen for `body` (a command, a stop), then comes back at the terminal's size
    /// and shows what `body` had to say (after the resize, which clears the status line).
    func stepAside(_ state: inout GalleryState, _ body: () -> String?) -> InteractiveSession.Outcome? {
        terminal.suspend()
        let problem = body()
        terminal.resume()
        let size = terminal.size
        let cell = terminal.reportedCellPixels.map { state.apply(.cellSizeChanged($0)) } ?? []
        if let outcome = perform((cell + state.apply(.resize(width: size.width, height: size.height))).coalesced, on: &state) { return outcome }
        return problem.flatMap { perform(state.apply(.notice($0)), on: &state) }
    }
}
