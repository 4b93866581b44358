import LightboxLayout
import LightboxThumbnails

extension GalleryState {
    /// Whether the order, the sections or the filter depend on what files' metadata says.
    var needsDetails: Bool { library.arrangement.datesDecideOrder || library.filter.readsDetails }

    /// Whether what the scan finds lands after everything shown without re-laying the library:
    /// scan order, and not masonry (whose columns take new tiles anywhere along the bottom).
    public var scanBatchesAreCheap: Bool { library.arrangement.keepsScanOrder && layoutState.mode != .masonry }

    /// How far the files' details are read while the filter waits for them (the status line
    /// says "reading details…"); nil when the filter does not ask them or all are read.
    public var detailsProgress: (done: Int, total: Int)? {
        guard library.filter.readsDetails, library.detailsReadCount < library.totalCount else { return nil }
        return (library.detailsReadCount, library.totalCount)
    }

    /// Whether every file's metadata is read: for dates, or for the masonry layout's picture shapes.
    public var needsAllMetadata: Bool { needsDetails || layoutState.mode == .masonry || library.arrangement.stacks == .burst }

    /// What metadata to read next: every file not yet asked for when dates decide the order, and
    /// the cursor item's first when the info panel shows it.
    /// - Complexity: O(*k*) in the number of files not yet asked for.
    mutating func metadataEffects() -> [Effect] {
        var effects: [Effect] = []
        if screen.isShowingInfo || wantsActualSize, !library.isEmpty,
            let request = metadataState.urgentRequest(for: library.id(at: viewport.cursor), file: library[viewport.cursor])
        {
            effects.append(.readMetadata([request], isUrgent: true))
        }
        let comparing = compareMetadataRequests()
        if !comparing.isEmpty { effects.append(.readMetadata(comparing, isUrgent: true)) }
        if !library.isEmpty {
            // Shapes on screen first in masonry, so the tiles in view settle before the rest; and
            // the videos and animations on screen, whose durations and frame counts go in their labels.
            let masonry = layoutState.mode == .masonry
            let urgent = visibleItems.filter {
                let format = library[$0].format
                return format.isVideo || format.mayAnimate || masonry && library.aspect(of: library.id(at: $0)) == 0
            }
            .compactMap { metadataState.urgentRequest(for: library.id(at: $0), file: library[$0]) }
            if !urgent.isEmpty { effects.append(.readMetadata(urgent, isUrgent: true)) }
        }
        if needsAllMetadata {
            let requests = metadataState.requestsForAll(in: library)
            if !requests.isEmpty { effects.append(.readMetadata(requests, isUrgent: false)) }
        }
        return effects
    }

    /// Records metadata read in the background: shapes, dates and the filter's details go to
    /// the library (which re-arranges when they decide the order or the filter), the whole of it
    /// to the metadata part for the info panel.
    /// `recorded`: the library has them already, arranged (`addFromIndex`).
    mutating func addMetadata(_ results: [MetadataResult], recorded: Bool = false) {
        metadataState.record(results)
        let cursor = library.isEmpty ? nil : library.id(at: viewport.cursor)
        takeMetadata(answeringCursor: cursor.map { id in results.contains { $0.id == id } } ?? false, recorded: recorded) { $0.record(results) }
    }

    /// As `addMetadata(_:recorded:)`, for metadata as the index kept it (`addFromIndex`), for
    /// the items `answered`: the library reads it from its bytes; the metadata part keeps the
    /// latest few and the cursor's, decoded.
    mutating func addMetadata(indexed runs: [Library.IndexedRun], answered: [ItemID], recorded: Bool = false) {
        let cursor = library.isEmpty ? nil : library.id(at: viewport.cursor)
        func result(_ id: ItemID) -> MetadataResult? { runs.lazy.compactMap { $0.metadata(of: id) }.first?.result(for: id) }
        var shown = answered.suffix(MetadataState.kept).compactMap(result)
        let answersCursor = cursor.map { id in runs.contains { $0.metadata(of: id) != nil } } ?? false
        if answersCursor, let cursor, !shown.contains(where: { $0.id == cursor }), let kept = result(cursor) { shown.append(kept) }
        metadataState.record(answered: answered, keeping: shown)
        takeMetadata(answeringCursor: answersCursor, recorded: recorded) { $0.record(indexed: runs, answered: answered) }
    }

    /// What follows metadata read for the library: recorded by `record` (which says whether it
    /// arranged the library), unless `recorded` already; the preview's 100% and zoom, which
    /// waited for the cursor's photo's size (`answeringCursor`: among them); stacks opened for
    /// what the user looks at.
    private mutating func takeMetadata(answeringCursor: Bool, recorded: Bool, record: (inout Library) -> Bool) {
        // 100% waited for the photo's size.
        if wantsActualSize, preview != nil, answeringCursor {
            zoomToActualSize()
        } else if preview?.zoom ?? 1 > 1, answeringCursor {
            // Its size known, a zoomed photo larger than a decode gets its part at full resolution.
            keepDetailInView()
        }
        // The photos looked at full-screen or compared stay in view if they go into a stack.
        let looking = library.isEmpty ? [] : preview != nil ? [library.id(at: viewport.cursor)] : compare?.shown ?? []
        if recorded {
            if layoutState.mode == .masonry { settleLayout() }
        } else if needsDetails {
            rearrange { _ = record(&$0) }
        } else if library.arrangement.stacks == .burst {
            // Frames that make a burst become one stack: arranged only then.
            rearrangeIfChanged { record(&$0) }
            if layoutState.mode == .masonry { settleLayout() }
        } else {
            _ = record(&library)
            if layoutState.mode == .masonry { settleLayout() }
        }
        keepInView(looking)
    }

    /// Opens the stacks that took any of `ids` (the preview's photo, compare's) out of view as
    /// their times came, so what the user looks at stays; the preview stays on its photo.
    mutating func keepInView(_ ids: [ItemID]) {
        let closed = Set(ids.filter { library.position(of: $0) < 0 }.compactMap { library.stackOf[$0] }).filter { !library.isOpen($0) }
        guard !closed.isEmpty else { return }
        rearrange { library in for shown in closed { library.toggleStack(shown) } }
        if preview != nil, let id = ids.first, case let position = library.position(of: id), position >= 0 { viewport.cursor = position }
        if let compare { self.compare = compare }  // the cursor on its focused photo again
    }

    /// Rebuilds the layout as pictures' shapes become known, keeping the cursor tile on its screen line.
    mutating func settleLayout() {
        let line = cursorLine
        rebuildLayout()
        if hasUserActed { keepCursor(atLine: line) } else { viewport.offset = 0 }
    }

    /// Rebuilds the layout for the library, the grid's area and the layout settings.
    /// - Complexity: see `LayoutState.rebuild(for:width:height:)`.
    mutating func rebuildLayout() {
        layoutState.rebuild(for: library, width: screen.gridAreaWidth - 2 * Self.gridInset, height: screen.gridHeight)
    }

    /// Rebuilds the layout for the current screen and panels, keeping the cursor in view.
    mutating func relayout() {
        rebuildLayout()
        viewport.stickyColumn = nil
        scrollCursorIntoView()
    }
}
