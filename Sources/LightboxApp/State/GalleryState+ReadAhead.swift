import LightboxThumbnails

extension GalleryState {
    /// Files the read-ahead takes at a time: few, so a key stops it soon.
    static let readAheadBatch = 8

    /// The next files to read ahead, nearest the cursor first, at the disk cache size that holds
    /// the grid's thumbnails; none while the preview is open or the grid's boxes are larger than
    /// the cache keeps.
    mutating func readAheadEffects() -> [Effect] {
        // Listed files are not read yet: the read-ahead waits for the walk.
        guard preview == nil, compare == nil, !isTooSmall, !library.isEmpty, !library.hasListedItems else { return [] }
        let box = thumbnailKey(ofItem: viewport.cursor).box
        guard let size = FreedesktopCache.Size.covering(max(box.width, box.height)) else { return [] }
        let positions = readAhead.next(Self.readAheadBatch, library: library, cursor: viewport.cursor, screen: visibleItems.count)
        guard !positions.isEmpty else { return [] }
        return [.readAhead(positions.map { ReadAheadRequest(id: library.id(at: $0), file: library[$0], size: size) })]
    }

    /// How far the read-ahead is, as done of total; nil when it is off, stopped (the disk cache
    /// takes nothing), or the library is empty.
    public var readAheadProgress: (done: Int, total: Int)? {
        guard readAhead.cacheProblem == nil else { return nil }
        let total = readAhead.total(libraryCount: library.count, screen: visibleItems.count)
        return total > 0 ? (min(readAhead.doneCount, total), total) : nil
    }
}
