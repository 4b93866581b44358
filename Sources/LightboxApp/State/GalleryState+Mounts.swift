import LightboxThumbnails

extension GalleryState {
    /// Once the scan is over: the paths it was given that hold a mount it could not look at
    /// (named not answering while it walked, and problems met there), or lie on one, and the
    /// paths of a list it could not look at there (`pathsMissed`), walked again when that mount
    /// answers; what the gallery shows of them is checked as the index's copies are (the cursor
    /// and the marks stay; what is new comes in its place; what is gone goes). The problems the
    /// walk met there are said again if they still are.
    /// - Complexity: O(*n* · *r*) for *r* paths walked again, when any is.
    mutating func walkAgainWhereMissed() -> [Effect] {
        guard !isScanning else { return [] }
        let back = mountsMissedByWalk.filter { !mountsNotAnswering.contains($0) }
        guard !back.isEmpty else { return [] }
        mountsMissedByWalk.subtract(back)
        let mounts = back.map { Array($0.utf8) }
        // Where the walk met problems (it could not look; a mount that only stalled was waited for).
        let roots = scanRoots.filter { root in
            let bytes = root.absoluteBytes
            return mounts.contains { ReadWatch.mount($0, holds: bytes) || ReadWatch.mount(bytes, holds: $0) }
                && scanProblems.contains { problem in Self.names(of: root).contains { problem.utf8.names(path: $0) } }
        }
        // A list's paths it could not look at there, but those a root walked again holds.
        let rootFolders = roots.map(\.absoluteBytes)
        let isBack = { (path: ImagePath) in mounts.contains { ReadWatch.mount($0, holds: path.absoluteBytes) } }
        let missed = pathsMissed.filter(isBack).filter { path in !rootFolders.contains { ReadWatch.mount($0, holds: path.absoluteBytes) } }
        pathsMissed.removeAll(where: isBack)
        var seen = Set<ImagePath>()
        let again = (roots + missed).filter { seen.insert($0).inserted }
        guard !again.isEmpty else { return [] }
        let folders = again.map(\.absoluteBytes)
        let named = again.flatMap(Self.names)
        scanProblems.removeAll { problem in named.contains { problem.utf8.names(path: $0) } }
        isScanning = true
        isWalkOver = false
        library.startChecking(under: folders)
        return [.walkAgain(again)]
    }

    /// How a problem's text may name `root` or what is under it: as given (relative, say) or in full.
    static func names(of root: ImagePath) -> [[UInt8]] { [trimmed(root.bytes), root.absoluteBytes] }

    /// `bytes` without a trailing slash (but the root's).
    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return bytes
    }
}

extension String.UTF8View {
    /// Whether the text names `path` or what is under it: the path, then a slash, a colon, a
    /// space or the end (a problem's text: "cannot open PATH: why").
    /// - Complexity: O(*n* · *k*).
    fileprivate func names(path: [UInt8]) -> Bool {
        let bytes = Array(self), ends: Set<UInt8> = [UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: " ")]
        guard !path.isEmpty, bytes.count >= path.count else { return false }
        return (0...(bytes.count - path.count)).contains { start in
            let end = start + path.count
            return bytes[start..<end].elementsEqual(path) && (end == bytes.count || ends.contains(bytes[end]))
        }
    }
}
