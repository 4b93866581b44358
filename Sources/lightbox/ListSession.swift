import Foundation
import LightboxApp
import LightboxThumbnails

/// `--list EXPR PATH…`: the paths the filter `EXPR` keeps, in the grid's order, printed as
/// accept prints them (`-0`, byte for byte), without opening the terminal: what the gallery
/// would show after typing `EXPR` into `/`.
enum ListSession {
    static func run(expression text: String, options: Options) -> Int32 {
        let expression: FilterExpression
        switch FilterExpression.parse(text) {
        case .success(let parsed): expression = parsed
        case .failure(let error):
            Output.error("--list: \(error.message)")
            return 2
        }
        var scanner = options.scanner
        scanner.readsMetadata = expression.readsDetails || options.arrangement.datesDecideOrder
        // A mount that stops answering holds the list: said on standard error, not in silence.
        let notice = StallNotice()
        defer { notice.stop() }
        let scan =
            options.readsStandardInput ? scanner.scan(listIn: 0, separator: options.readsNul ? 0 : 10, prefix: options.listPrefix) : scanner.scan(options.paths)
        for problem in scan.problems + (options.index?.takeProblems() ?? []) { Output.error(problem) }
        let folders = scan.folders.map { folder in
            ImageFolder(path: folder.path, files: supportedOnly(Scanner.Batch(folder: folder.path, files: folder.files)).files)
        }
        var library = Library(folders: folders, arrangement: options.arrangement)
        let ids = library.ids
        let files = ids.map { library.file($0) }
        if expression.readsDetails || options.arrangement.datesDecideOrder {
            // As many at once as the gallery's reader: round trips overlap on a network mount.
            let width = max(ProcessInfo.processInfo.activeProcessorCount, options.metadataReads)
            library.record(
                ParallelReads.map(ids.count, width: width) {
                    MetadataReader.read(MetadataRequest(id: ids[$0], file: files[ids[$0].rawValue]), index: options.index)
                })
        }
        if expression.readsDecisions || options.arrangement.sort == .rating || options.arrangement.sections == .rating {
            // Through lightbox-decode, as the gallery reads them: Exempi runs there only.
            let pool = options.makeSidecarPool()
            defer { pool.shutdown() }
            // Every member of a pair: a later answer (the RAW's sidecar) wins, as in the gallery;
            // what the index holds stands for files unchanged since.
            let read = ParallelReads.map(ids.count, width: max(ProcessInfo.processInfo.activeProcessorCount, DecisionKeeper.readsInFlight)) { index in
                let id = ids[index]
                return DecisionKeeper.readNow(
                    DecisionKeeper.Read(id: id, item: files[id.rawValue]), pool: pool, policy: options.sidecarPolicy, index: options.index,
                    problem: { Output.error($0) })?.now.decision
            }
            library.setDecisions(zip(ids, read).compactMap { id, decision in decision.map { Decisions.ItemChange(id: id, decision: $0) } })
        }
        library.setFilter(expression)
        guard !library.isEmpty else { return 1 }
        let paths = (0..<library.count).flatMap { options.pairing == .together ? library[$0].memberPaths : [library[$0].path] }
        return printAccepted(paths, options: options)
    }
}
