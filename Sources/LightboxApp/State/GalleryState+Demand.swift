import LightboxLayout
import LightboxThumbnails

extension GalleryState {
    /// Thumbnails to decode: the cursor's tile, the other visible tiles top to bottom, then about
    /// one screen ahead in the scroll direction, nearest first (once the index's library is all
    /// in); cached and failed ones left out.
    /// Nil when unchanged. (On a slow link the files come in this order: the cursor's first.)
    /// - Complexity: O(*v*) in the number of tiles in the window.
    mutating func updatedDemand() -> [DecodeRequest]? {
        if preview != nil { return store.want(previewDemand.filter { !store.offline.contains($0.id) }) }
        if compare != nil { return store.want(compareDemand.filter { !store.offline.contains($0.id) }) }
        guard !isTooSmall else { return store.want([]) }
        // `G` while the index lands: the screens it passes on the way to the end are not decoded.
        guard !(followsEnd && isIndexLanding) else { return store.want([]) }
        let visible = visibleItems
        let (layout, offset, height) = (self.layout, viewport.offset, viewportLength)
        var order = visible.filter { layout.isVisible($0, offset: offset, height: height) }
        let onScreen = Set(order)
        if let at = order.firstIndex(of: viewport.cursor), at > 0 { order.insert(order.remove(at: at), at: 0) }
        // The screen ahead waits while the index's library lands: that is the two cores' work then.
        if prefetches && !isIndexLanding {
            let ahead =
                viewport.direction > 0
                ? layout.visibleItems(offset: viewport.offset + height, height: height)
                : layout.visibleItems(offset: max(0, viewport.offset - height), height: height)
            let extra = ahead.filter { !visible.contains($0) }
            order += viewport.direction > 0 ? extra : extra.reversed()
        }
        var requests: [DecodeRequest] = []
        for item in order where layout.isShown(item) && failure(at: item) == nil && !store.offline.contains(library.id(at: item)) && isDecodable(item) {
            let key = thumbnailKey(ofItem: item)
            // Cached (and, for symbols, rendered in the current set) needs nothing; this also marks it used.
            // A slow link's stand-in, read whole since by the read-ahead, is asked for again (it stays shown meanwhile).
            if let cached = store.cache.thumbnail(for: key), isReady(cached), !store.replaces(key, of: library.id(at: item)) { continue }
            // Requests name the file's id: results that arrive after a re-sort still find it.
            var request = decodeRequest(item: item, box: key.box)
            request.isAhead = !onScreen.contains(item)
            requests.append(request)
        }
        return store.want(requests)
    }

    /// Whether the item's file may be decoded now: read by the scan, or only listed (named like
    /// an image, not read yet) and of a kind read whole, so its first bytes say what it is
    /// (`NearSources`); a listed RAW or video waits for the scan.
    func isDecodable(_ item: Int) -> Bool {
        let file = library[item]
        return !file.isListed || file.format.traits.decoding.readsWhole
    }

    /// Starts the first demand (before any action).
    public mutating func initialEffects() -> [Effect] {
        updatedDemand().map { [.load($0)] } ?? []
    }
}
