import LightboxThumbnails

/// The state's part for the pictures it has and wants: the memory cache of thumbnails, why files
/// could not be decoded, and the requests out (the demand). Its own reducer takes decode results
/// and new demands.
public struct PictureStore: Sendable {
    /// Decoded thumbnails, bounded in bytes.
    public internal(set) var cache: ThumbnailCache
    /// Why a file could not be decoded, by id.
    public internal(set) var failures: [ItemID: String] = [:]
    /// Parts of photos (zoomed views) and clips of videos that could not be decoded: the whole
    /// picture, or the still, shows instead.
    public internal(set) var failedParts: Set<ThumbnailKey> = []
    /// Parts and clips whose decoder crashed or timed out, and how often: that says nothing of
    /// the file, so they are asked again, `partAttempts` times in all, before they are failed.
    var partRetries: [ThumbnailKey: Int] = [:]
    static let partAttempts = 3
    /// Files not tried because their mount was not answering: not asked again until it answers.
    public internal(set) var offline: Set<ItemID> = []
    /// What is asked of the provider now, most wanted first.
    public internal(set) var demand: [DecodeRequest] = []
    /// Pictures that are a smaller source scaled up (`Thumbnail.isStandIn`, a slow link's), by key.
    public internal(set) var standIns: [ThumbnailKey: ItemID] = [:]
    /// Items with a stand-in whose file the read-ahead has since read whole into the disk cache:
    /// asked for again, the sharp picture replaces the stand-in.
    public internal(set) var upgradable: Set<ItemID> = []
    /// Stand-ins replaced so.
    public internal(set) var upgradedCount = 0
    /// Pictures made of files only listed when asked for (`ImageFile.isListed`), by id: the key
    /// they are kept under and the file as it was read, until the scan reads the file too.
    public internal(set) var madeWhileListed: [ItemID: (key: ThumbnailKey, file: ImageFile)] = [:]
    /// Stand-ins remembered past which those no longer in the cache are forgotten.
    static let standInsKept = 4096

    init(budget: Int) { cache = ThumbnailCache(budget: budget) }

    /// Records what became of `request`: the thumbnail kept, or why not. Returns the cache serials
    /// of the thumbnails it pushed out, when the terminal keeps pictures (so they can be deleted there).
    /// A picture of a listed file is kept for the file as `current` (the library's now) has it,
    /// when the scan has read that file meanwhile and found it as the picture's was read.
    mutating func record(_ request: DecodeRequest, _ result: DecodeResult, current: ImageFile? = nil) -> [UInt32] {
        switch result {
        case .decoded(let thumbnail):
            cache.insert(thumbnail, for: request.key)
            noteStandIn(thumbnail.isStandIn, for: request)
            if request.file.isListed, let read = thumbnail.readFile {
                madeWhileListed[request.id] = (request.key, read)
                if let current, !current.isListed { keepListedPictures(of: [request.id]) { _ in current } }
            }
            return cache.takeEvicted()
        case .failed(let failure) where failure.kind == .offline:
            offline.insert(request.id)
            return []
        case .failed(let failure) where request.region != nil || request.clipStart != nil:
            if failure.kind == .decoder, partRetries[request.key, default: 0] + 1 < Self.partAttempts {
                partRetries[request.key, default: 0] += 1
                demand = []  // the wish list is sent again, and the provider queues the part anew
                return []
            }
            failedParts.insert(request.key)
            return []
        case .failed(let failure):
            failures[request.id] = failure.message
            return []
        }
    }

    /// The scan has read the files of `ids` (`file` says each as it found it): a picture made of
    /// one while it was only listed is kept for it when the scan found the file as the picture's
    /// was read (its size, time and kind), so it is not decoded again; otherwise it is.
    /// - Complexity: O(*k*) in the ids.
    mutating func keepListedPictures(of ids: [ItemID], file: (ItemID) -> ImageFile) {
        guard !madeWhileListed.isEmpty else { return }
        for id in ids {
            guard let made = madeWhileListed.removeValue(forKey: id) else { continue }
            let found = file(id)
            guard found.byteCount == made.file.byteCount, found.modified == made.file.modified, found.format == made.file.format else { continue }
            var key = made.key
            key.byteCount = found.byteCount
            key.modified = found.modified
            cache.rekey(made.key, to: key)
        }
    }

    /// Keeps track of the stand-ins: a sharp picture for a stand-in's key replaces it; a stand-in
    /// again after the read-ahead's read is left (asking again would bring the same).
    private mutating func noteStandIn(_ isStandIn: Bool, for request: DecodeRequest) {
        let wasUpgradable = upgradable.remove(request.id) != nil
        if isStandIn {
            standIns[request.key] = request.id
            if standIns.count > Self.standInsKept { standIns = standIns.filter { cache.contains($0.key) } }
        } else if standIns.removeValue(forKey: request.key) != nil, wasUpgradable {
            upgradedCount += 1
        }
    }

    /// The read-ahead wrote these items' files whole to the disk cache: those with a stand-in
    /// are asked for again. Whether any is.
    /// - Complexity: O(*s* + *k*) in the stand-ins and the items.
    mutating func readWhole(_ ids: [ItemID]) -> Bool {
        guard !standIns.isEmpty else { return false }
        let standing = Set(standIns.values)
        let upgrades = ids.filter { standing.contains($0) }
        upgradable.formUnion(upgrades)
        return !upgrades.isEmpty
    }

    /// Whether the picture cached under `key` (item `id`'s) is a stand-in to be replaced now.
    func replaces(_ key: ThumbnailKey, of id: ItemID) -> Bool { upgradable.contains(id) && standIns[key] == id }

    /// Asks again for the files left because their mount was not answering (one answers again).
    mutating func retryOffline() { offline.removeAll() }

    /// Whether the part or clip under `key` is still to be decoded: not come, and not failed.
    func isWanted(_ key: ThumbnailKey) -> Bool { cache.peek(key) == nil && !failedParts.contains(key) }

    /// Asks for `requests` from now on; nil when that is what is asked already.
    mutating func want(_ requests: [DecodeRequest]) -> [DecodeRequest]? {
        guard requests != demand else { return nil }
        demand = requests
        return requests
    }

    /// Whether thumbnails pushed out of the cache are told of (the terminal keeps pictures).
    mutating func recordEvictions(_ records: Bool) { cache.recordsEvictions = records }
}
