import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

extension GalleryState {
    /// Applies a command in the mode it arrives in and returns what the outside world must do.
    /// Its row's traits say what happens around it (the message, the filter, the modes); the mode
    /// that does it is the preview's, the help's or the grid's.
    public mutating func apply(_ command: Command) -> [Effect] {
        let traits = command.traits
        followsEnd = false
        selectsOnlyItem = false
        if !traits.contains(.keepsMessage) { message = nil }
        if case .pasted(let text) = command { return applyPaste(text) }
        if traits.contains(.editsFilter) { return applyFilter(command) }
        if !traits.contains(.keepsViewAtTop) { hasUserActed = true }
        if traits.contains(.inEveryMode) { return applyGrid(command) }
        if traits.contains(.decides) || command == .undo {
            // The help closes first; with nothing to act on there is nothing to decide.
            if isShowingHelp { return applyHelp(command) }
            return library.isEmpty ? [] : decide(command)
        }
        switch mode {
        case .help: return applyHelp(command)
        case .preview where !library.isEmpty: return applyPreview(command)
        case .compare where !library.isEmpty: return applyCompare(command)
        default: return applyGrid(command)
        }
    }

    /// Applies what the world reports: it never counts as the user acting, and leaves the mode.
    public mutating func apply(_ event: Event) -> [Effect] {
        switch event {
        case .decoded(let request, let result):
            guard !library.isEmpty else { return [] }
            let evicted = store.record(request, result, current: request.id.rawValue < library.totalCount ? library.file(request.id) : nil)
            // Compare's crops are named by the revision: one made from the picture that came is a new one.
            if let compare, compare.shown.contains(request.id) { previewRevision &+= 1 }
            // So are the zoomed preview's, made over a part of the photo that came.
            if preview != nil, request.region != nil { previewRevision &+= 1 }
            let forget: [Effect] = evicted.isEmpty ? [] : [.forgetImages(evicted.map(imageID(serial:)))]
            return forget + loadEffects() + metadataEffects()
        case .tick(let now):
            // The clock moves an animation on; it is not the user acting, and clears no message.
            return preview == nil || library.isEmpty ? [] : applyTick(now)
        case .notice(let text):
            message = text
            return []
        case .indexLanding(let landing):
            isIndexLanding = landing
            return loadEffects()
        case .mountsNotAnswering(let mounts, let unmounted):
            mountsUnmounted = unmounted.intersection(mounts)
            if isScanning { mountsMissedByWalk.formUnion(mounts) }
            // A mount that answers again: what was left for it is asked for once more.
            let answering = mountsNotAnswering.contains { !mounts.contains($0) }
            mountsNotAnswering = mounts
            let walks = walkAgainWhereMissed()
            guard answering, !store.offline.isEmpty else { return walks }
            store.retryOffline()
            return walks + loadEffects()
        case .decisionsRead(let read):
            return takeDecisions(read) ? loadEffects() : []
        case .decisionsStored(let storages):
            if let reason = decisions.stored(storages).first {
                message = "not beside the photo (\(reason)): kept in Lightbox's state folder; lightbox --write-sidecars writes it beside later"
            }
            return []
        case .idle:
            return readAheadEffects()
        case .readAheadDone(let outcomes):
            let hadProblem = readAhead.cacheProblem != nil
            readAhead.finished(outcomes.map { ($0.id, $0.outcome) })
            // Said once, when it is first met; the read-ahead has stopped.
            if !hadProblem, let problem = readAhead.cacheProblem { message = problem + "; reading ahead stopped" }
            // Stand-ins on a slow link whose files are now in the disk cache whole: the sharp pictures.
            let written = outcomes.filter { $0.outcome == .written }.map(\.id)
            return store.readWhole(written) ? loadEffects() : []
        case .readAheadDropped(let ids):
            readAhead.abandoned(ids)
            return []
        case .picturesWaiting(let count, let speed):
            pictures.setOutput(waiting: count, measuredLinkSpeed: speed)
            return []
        case .cellSizeChanged(let size):
            guard pictures.setCellPixels(size) else { return [] }
            return loadEffects()
        case .scanned(let batches, let isFinished):
            let firstNew = library.totalCount
            let recalled = addScanned(batches, isFinished: isFinished)
            // --select-1 as fzf has it: the only item, found before any key, is the pick.
            if selectsOnlyItem, !isScanning, library.totalCount == 1, library.count == 1 { return [.accept(acceptedPaths)] }
            // Listed files' pictures made before the walk read them are kept; their sidecars are read now.
            let read = library.takeNewlyRead()
            store.keepListedPictures(of: read) { library.file($0) }
            let effects =
                walkAgainWhereMissed() + loadEffects() + metadataEffects() + decisionReads(from: firstNew, recalled: recalled) + decisionReads(of: read)
            // Nothing there, as a first visit would say, also when the index had photos that are all gone.
            return !isScanning && library.foundCount == 0 ? [.foundNothing] : effects
        case .metadataRead(let results):
            addMetadata(results)
            return loadEffects() + metadataEffects()
        case .resize(let width, let height):
            message = nil
            screen.resize(width: width, height: height)
            relayout()
            if preview != nil, !library.isEmpty { clampPan() }
            return library.isEmpty ? [] : loadEffects() + metadataEffects()
        }
    }

    /// A load of what is wanted now, when that changed.
    mutating func loadEffects() -> [Effect] {
        // Compare's parts at full resolution follow its views (zoom, pans, sizes read, the screen).
        keepCompareDetailsInView()
        return updatedDemand().map { [.load($0)] } ?? []
    }
}
