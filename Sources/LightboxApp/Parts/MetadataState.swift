import LightboxThumbnails

/// The state's part for files' metadata: what was read (the latest few hundred, for the info
/// panel), which files are being read first, and which have been asked for at all. Its own
/// reducer: the state asks it for requests and hands it results.
public struct MetadataState: Sendable {
    /// What was read, by id: the latest few hundred.
    public private(set) var results: [ItemID: MetadataResult] = [:]
    /// Ids of `results`, oldest first.
    private var order: [ItemID] = []
    /// Ids asked for first and not answered yet.
    private var urgent: Set<ItemID> = []
    /// Which files (by id number) have been asked for in the background.
    private var requested = MarkSet(capacity: 0)

    /// Results kept once trimmed, and the count that trims them.
    static let kept = 256
    static let trimmedAt = 512

    public init() {}

    /// How many files have been asked for in the background.
    public var requestedCount: Int { requested.count }

    /// A request to read `file` (id `id`) first, unless it was read or asked for already.
    /// It counts as asked in the background too, so the background does not read it again.
    mutating func urgentRequest(for id: ItemID, file: ImageFile) -> MetadataRequest? {
        // A listed file (not read yet) is asked for once the walk has read it.
        guard !file.isListed, results[id] == nil, urgent.insert(id).inserted else { return nil }
        requested.grow(to: id.rawValue + 1)
        requested.set(id.rawValue, marked: true)
        return MetadataRequest(id: id, file: file)
    }

    /// Requests for every file of `library` not asked for yet, in the order found.
    /// - Complexity: O(*k*) in the files not yet asked for.
    mutating func requestsForAll(in library: Library) -> [MetadataRequest] {
        requested.grow(to: library.totalCount)
        guard requested.count < library.totalCount else { return [] }
        var requests: [MetadataRequest] = []
        for number in 0..<library.totalCount where !requested.contains(number) {
            let id = ItemID(number)
            if library.file(id).isListed { continue }
            requested.set(number, marked: true)
            if library.isGone(id) { continue }
            requests.append(MetadataRequest(id: id, file: library.file(id)))
        }
        return requests
    }

    /// Forgets what was read of these files (changed since): they are asked for again.
    /// - Complexity: O(*k* + *r*) in the ids and the results kept.
    mutating func forget(_ ids: [ItemID]) {
        guard !ids.isEmpty else { return }
        let forgotten = Set(ids)
        for id in ids {
            results[id] = nil
            urgent.remove(id)
            if id.rawValue < requested.capacity { requested.set(id.rawValue, marked: false) }
        }
        order.removeAll { forgotten.contains($0) }
    }

    /// Records what was read (never asked for again in the background); past `trimmedAt`
    /// results, only the latest `kept` stay.
    /// - Complexity: O(*k*) for *k* results.
    mutating func record(_ newResults: [MetadataResult]) {
        // By index: a result's id without a copy of all it holds.
        record(answered: newResults.indices.lazy.map { newResults[$0].id }, keeping: newResults.suffix(Self.kept))
    }

    /// Records that the files `ids` were read (never asked for again in the background), and
    /// `newResults` for the info panel; past `trimmedAt` results, only the latest `kept` stay.
    /// - Complexity: O(*k*) for *k* ids and results.
    mutating func record(answered ids: some Collection<ItemID>, keeping newResults: some Collection<MetadataResult>) {
        if let largest = ids.lazy.map(\.rawValue).max() { requested.grow(to: largest + 1) }
        for id in ids {
            if !urgent.isEmpty { urgent.remove(id) }
            requested.set(id.rawValue, marked: true)
        }
        for result in newResults where results.updateValue(result, forKey: result.id) == nil {
            order.append(result.id)
        }
        if order.count > Self.trimmedAt {
            for id in order.prefix(order.count - Self.kept) { results[id] = nil }
            order.removeFirst(order.count - Self.kept)
        }
    }
}
