import LightboxLayout
import LightboxThumbnails

extension GalleryState {
    /// Whether the order or the sections depend on dates taken.
    var needsDatesTaken: Bool { library.arrangement.datesDecideOrder }

    /// Whether what the scan finds lands after everything shown without re-laying the library:
    /// scan order, and not masonry (whose columns take new tiles anywhere along the bottom).
    public var scanBatchesAreCheap: Bool { library.arrangement.keepsScanOrder && layoutMode != .masonry }

    /// Whether every file's metadata is read: for dates, or for the masonry layout's picture shapes.
    public var needsAllMetadata: Bool { needsDatesTaken || layoutMode == .masonry }

    /// What metadata to read next: every file not yet asked for when dates decide the order, and
    /// the cursor item's first when the info panel shows it.
    /// - Complexity: O(*k*) in the number of files not yet asked for.
    mutating func metadataEffects() -> [Effect] {
        var effects: [Effect] = []
        metadataRequested.grow(to: library.totalCount)
        if isShowingInfo, !library.isEmpty {
            let id = library.id(at: cursor)
            if metadata[id] == nil && !urgentMetadataIDs.contains(id) {
                urgentMetadataIDs.insert(id)
                effects.append(.readMetadata([MetadataRequest(id: id, file: library[cursor])], isUrgent: true))
            }
        }
        if layoutMode == .masonry && !library.isEmpty {
            // Shapes on screen first, so the tiles in view settle before the rest.
            var urgent: [MetadataRequest] = []
            for item in visibleItems where library.aspect(of: library.id(at: item)) == 0 {
                let id = library.id(at: item)
                guard metadata[id] == nil, urgentMetadataIDs.insert(id).inserted else { continue }
                urgent.append(MetadataRequest(id: id, file: library[item]))
            }
            if !urgent.isEmpty { effects.append(.readMetadata(urgent, isUrgent: true)) }
        }
        if needsAllMetadata && metadataRequested.count < library.totalCount {
            var requests: [MetadataRequest] = []
            // (A mark set by id number: which files have been asked for.)
            for number in 0..<library.totalCount where !metadataRequested.contains(number) {
                let id = ItemID(number)
                requests.append(MetadataRequest(id: id, file: library.file(id)))
                metadataRequested.set(number, marked: true)
            }
            effects.append(.readMetadata(requests, isUrgent: false))
        }
        return effects
    }

    /// Records metadata read in the background: dates go to the library (which re-sorts when they
    /// decide the order), the rest to a small cache for the info panel.
    mutating func addMetadata(_ results: [MetadataResult]) {
        for result in results {
            urgentMetadataIDs.remove(result.id)
            if metadata.updateValue(result, forKey: result.id) == nil { metadataOrder.append(result.id) }
        }
        // Keep the latest few hundred: the panel shows one at a time.
        if metadataOrder.count > 512 {
            for id in metadataOrder.prefix(metadataOrder.count - 256) { metadata[id] = nil }
            metadataOrder.removeFirst(metadataOrder.count - 256)
        }
        library.setSizes(results.compactMap { result in result.size.map { (id: result.id, size: $0) } })
        let dates = results.map { (id: $0.id, seconds: $0.metadata?.dateTakenSeconds) }
        if needsDatesTaken {
            rearrange { $0.setDatesTaken(dates) }
        } else {
            library.setDatesTaken(dates)
            if layoutMode == .masonry { settleLayout() }
        }
    }

    /// Rebuilds the layout as pictures' shapes become known, keeping the cursor tile on its screen line.
    mutating func settleLayout() {
        let line = cursorLine
        layout = makeLayout()
        if hasUserActed { keepCursor(atLine: line) } else { scrollOffset = 0 }
    }

    /// Switches the layout mode, keeping the cursor item in view.
    public mutating func setLayoutMode(_ mode: LayoutMode) {
        layoutMode = mode
        relayout()
    }

    /// Rebuilds the layout for the current screen and panels, keeping the cursor in view.
    mutating func relayout() {
        layout = makeLayout()
        stickyColumn = nil
        scrollCursorIntoView()
    }
}
