import LightboxThumbnails

/// A video plays in the preview as clips of frames the decoder processes make, one after
/// another: the clip playing and the next are decoded ahead, each forgotten once played.
extension GalleryState {
    /// Seconds between looks for the next clip while it is still being decoded.
    static let clipWait = 0.05

    /// Whether the cursor item is a video (it plays in the preview).
    var cursorIsVideo: Bool { !library.isEmpty && library[viewport.cursor].format.isVideo }

    /// The cache key of the cursor video's clip from `start` milliseconds, at the preview's size.
    func clipKey(_ start: Int) -> ThumbnailKey {
        ThumbnailKey(file: library[viewport.cursor], box: previewBox, turns: turns(at: viewport.cursor), clipStart: start)
    }

    /// The clip of the cursor video the preview plays, once decoded.
    var videoClip: Thumbnail? {
        guard let preview, cursorIsVideo else { return nil }
        return store.cache.peek(clipKey(preview.clipStart))
    }

    /// The cursor video's length in milliseconds, as its container says.
    var videoLength: Int? {
        guard let seconds = metadataState.results[library.id(at: viewport.cursor)]?.metadata?.video?.duration, seconds > 0 else { return nil }
        return Int(seconds * 1000)
    }

    /// Where the clip after `clip` (from `start`) begins: from the start again after the last.
    func clipStart(after start: Int, _ clip: Thumbnail) -> Int {
        let next = start + clip.delays.reduce(0, +)
        if next == start { return 0 }
        if let length = videoLength, next >= length { return 0 }
        return store.failedParts.contains(clipKey(next)) ? 0 : next
    }

    /// The clips the preview wants decoded: the one playing, then the next.
    var clipDemand: [DecodeRequest] {
        guard cursorIsVideo, let preview, preview.zoom == 1, failure(at: viewport.cursor) == nil else { return [] }
        var starts = [preview.clipStart]
        if let clip = videoClip { starts.append(clipStart(after: preview.clipStart, clip)) }
        return starts.filter { store.isWanted(clipKey($0)) }.map { start in
            var request = decodeRequest(item: viewport.cursor, box: previewBox, symbolsAllowed: false)
            request.clipStart = start
            return request
        }
    }

    /// The clock moves the video on: through its clip, then to the next once decoded (the one
    /// played is forgotten), waiting on the last frame while it is not.
    mutating func playVideo(now: Double) -> [Effect] {
        guard var current = preview, let clip = videoClip else { return [] }
        guard current.playClip(clip.delays, now: now) else {
            preview = current
            return []
        }
        let next = clipStart(after: current.clipStart, clip)
        guard let nextClip = store.cache.peek(clipKey(next)) else {
            // A video whose start cannot be decoded again stops on its last frame.
            if next == 0, store.failedParts.contains(clipKey(0)) { current.isPaused = true }
            current.nextFrameAt = now + Self.clipWait
            preview = current
            return loadEffects()
        }
        if next != current.clipStart { store.cache.remove(clipKey(current.clipStart)) }
        if next == 0 { current.hasPlayedThrough = true }
        // The clock goes on from where the clip ended, unless it waited for the next.
        let ended = current.nextFrameAt ?? now
        current.clipStart = next
        current.frame = 0
        current.nextFrameAt = (now - ended > Self.clipWait * 2 ? now : ended) + Double(nextClip.delays.first ?? 0) / 1000
        preview = current
        let evicted = store.cache.takeEvicted()
        return (evicted.isEmpty ? [] : [.forgetImages(evicted.map(imageID(serial:)))]) + loadEffects()
    }

    /// `1:05 / 3:20`: how far the video has played, and how long it is.
    public var playedText: String? {
        guard let preview, let clip = videoClip else { return nil }
        func time(_ milliseconds: Int) -> String {
            let seconds = milliseconds / 1000
            return seconds >= 3600
                ? "\(seconds / 3600):" + String(format: "%02d:%02d", seconds / 60 % 60, seconds % 60)
                : "\(seconds / 60):" + String(format: "%02d", seconds % 60)
        }
        return time(preview.playedTime(clip.delays)) + (videoLength.map { " / " + time($0) } ?? "")
    }
}

extension GalleryState {
    /// Whether the cursor video can play: its still decoded or coming, its start not refused.
    var videoPlays: Bool {
        cursorIsVideo && failure(at: viewport.cursor) == nil && !store.failedParts.contains(clipKey(0))
    }
}
