import Foundation

/// A file whose metadata the app wants, by the item's id.
public struct MetadataRequest: Hashable, Sendable {
    public var id: ItemID
    public var file: ImageFile

    public init(id: ItemID, file: ImageFile) {
        self.id = id
        self.file = file
    }
}

/// What was read of one file: its EXIF (nil without any) and its pixel size from the header.
public struct MetadataResult: Hashable, Sendable {
    public var id: ItemID
    public var metadata: ImageMetadata?
    public var size: PixelSize?

    public init(id: ItemID, metadata: ImageMetadata?, size: PixelSize?) {
        self.id = id
        self.metadata = metadata
        self.size = size
    }
}

/// Reads files' metadata (the first 64 KB of each) on threads of its own, in the order asked,
/// with urgent requests first; results are collected with `take()` when `wakeDescriptor` is readable.
public final class MetadataReader: @unchecked Sendable {
    /// Enough for a JPEG's EXIF block (at most 64 KB) and most headers.
    public static let prefixLength = 65_536 + 1024

    /// The files asked for, in order, and the urgent ones, under the queue's lock.
    struct Schedule: WorkSchedule {
        typealias Result = MetadataResult
        var queue: [MetadataRequest] = []
        /// How many of `queue` were taken (the rest are read in order).
        var taken = 0
        var urgent: [MetadataRequest] = []
        /// Files of a mount that did not answer, not read: asked again once it answers (`retryParked`).
        var parked: [MetadataRequest] = []

        mutating func next() -> MetadataRequest? {
            if !urgent.isEmpty { return urgent.removeFirst() }
            guard taken < queue.count else { return nil }
            defer {
                taken += 1
                if taken == queue.count { queue.removeAll(); taken = 0 }
            }
            return queue[taken]
        }

        /// No result: the file's mount was not answering, so it waits with the parked ones.
        mutating func finished(_ job: MetadataRequest, with result: MetadataResult?) -> Bool {
            guard result != nil else {
                parked.append(job)
                return false
            }
            return true
        }

        mutating func removeAll() {
            queue.removeAll()
            taken = 0
            urgent.removeAll()
            parked.removeAll()
        }
    }

    private let wake: WakePipe
    private let queue: WorkQueue<Schedule>

    /// Readable when there are results to `take()`.
    public var wakeDescriptor: Int32 { wake.readEnd }

    /// A reader of `threads` files at once (more than one where each read waits on a network),
    /// taking from `index` what it knows of a file at its size and time, and keeping there what
    /// it reads. A file on a mount `watch` says is not answering is not read (its thread would
    /// wait with the others there) but parked until `retryParked()`; the index still answers for it.
    public init(threads: Int = 1, index: LibraryIndex? = nil, watch: ReadWatch = .shared) {
        let wake = WakePipe()
        self.wake = wake
        queue = WorkQueue(
            Schedule(), threads: threads, name: "lightbox-metadata", onResult: { wake.signal() },
            perform: { request, _ in
                if watch.notAnswering(holding: request.file.path) != nil, index?.metadata(of: request.file) == nil { return nil }
                return Self.answer(request, watch: watch) { Self.read(request, index: index) }
            })
    }

    /// What `read` found of `request`'s file, unless it failed as the file's mount went away (its
    /// failing open named the mount, or a look at the file does: `ReadWatch.notAnswering(afterLookAt:)`,
    /// as a tile's failed decode asks): then nothing, and the file is parked with the others
    /// there, to be read again once it answers, rather than shown as having no date for the rest of the visit.
    static func answer(_ request: MetadataRequest, watch: ReadWatch, read: () -> MetadataResult) -> MetadataResult? {
        let result = read()
        guard result.metadata == nil, result.size == nil, watch.notAnswering(afterLookAt: request.file.path) != nil else { return result }
        return nil
    }

    /// Asks again for the files parked while their mount did not answer (call when one answers again).
    public func retryParked() {
        queue.change { schedule, _ in
            schedule.urgent += schedule.parked
            schedule.parked.removeAll()
        }
    }

    /// Files parked on a mount that does not answer.
    public var parkedCount: Int { queue.read { schedule, _, _ in schedule.parked.count } }

    /// Starts a thread in place of each of the reader's among `stuck` (caught in a read of a mount
    /// that stopped answering), so the files elsewhere and those the index knows go on.
    @discardableResult
    public func standIn(for stuck: Set<pthread_t>) -> Int { queue.standIn(for: stuck) }

    deinit { wake.close() }

    /// Adds requests to the end of the queue.
    public func enqueue(_ requests: [MetadataRequest]) {
        guard !requests.isEmpty else { return }
        queue.change { schedule, _ in schedule.queue += requests }
    }

    /// Reads `request` before anything queued (the item the info panel shows).
    public func readFirst(_ request: MetadataRequest) {
        queue.change { schedule, _ in schedule.urgent.append(request) }
    }

    /// The results since the last call.
    public func take() -> [MetadataResult] {
        wake.drain()
        return queue.takeResults()
    }

    /// Whether every request so far has its result taken or waiting.
    public var isIdle: Bool {
        queue.read { schedule, _, inHand in schedule.urgent.isEmpty && schedule.taken == schedule.queue.count && inHand == 0 }
    }

    /// Stops after the current file. A read that hangs keeps its thread, never the caller.
    public func stop() { queue.stop(waitingAtMost: 0) }

    /// Reads one file's metadata: from `index` when it has it for the file's size and time,
    /// else from the file (and then kept in `index`; a file that could not be read is not).
    public static func read(_ request: MetadataRequest, index: LibraryIndex? = nil) -> MetadataResult {
        if let known = index?.metadata(of: request.file) { return known.result(for: request.id) }
        let read = FileBytes.reading(request.file.path) { file in
            let metadata = request.file.format.traits.metadata(file)
            return MetadataResult(id: request.id, metadata: metadata, size: shownSize(of: file, format: request.file.format, metadata: metadata))
        }
        guard let result = try? read.get() else { return MetadataResult(id: request.id, metadata: nil, size: nil) }
        index?.remember(request.file, metadata: IndexedMetadata(metadata: result.metadata, shownSize: result.size))
        return result
    }

    /// The picture's size as shown: its header's (a RAW's largest preview's), turned a quarter
    /// when its orientation says so; a video's as its container says.
    static func shownSize(of file: FileBytes, format: ImageFormat, metadata: ImageMetadata?) -> PixelSize? {
        if let size = metadata?.video?.size { return size }
        var stored = ImageHeader.dimensions(of: file.prefix, format: format)
        var orientation = metadata?.orientation ?? 1
        if stored == nil, format == .cameraRaw {
            let (previews, rawOrientation) = CameraRaw.sizedPreviews(in: file, byteLimit: .max)
            stored = previews.max { $0.width * $0.height < $1.width * $1.height }.map { ($0.width, $0.height) }
            if metadata?.orientation == nil { orientation = rawOrientation }
        }
        guard let (width, height) = stored else { return nil }
        return orientation >= 5 ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
    }
}
