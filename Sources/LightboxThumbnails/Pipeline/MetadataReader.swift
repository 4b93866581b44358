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

/// Reads files' metadata (the first 64 KB of each) on a thread of its own, in the order asked,
/// with urgent requests first; results are collected with `take()` when `wakeDescriptor` is readable.
public final class MetadataReader: @unchecked Sendable {
    /// Enough for a JPEG's EXIF block (at most 64 KB) and most headers.
    public static let prefixLength = 65_536 + 1024

    private let condition = NSCondition()
    private var queue: [MetadataRequest] = []
    private var next = 0
    private var urgent: [MetadataRequest] = []
    private var results: [MetadataResult] = []
    private var stopped = false
    private let wake = WakePipe()

    /// Readable when there are results to `take()`.
    public var wakeDescriptor: Int32 { wake.readEnd }

    public init() {
        let thread = Thread { [self] in work() }
        thread.name = "lightbox-metadata"
        thread.start()
    }

    deinit { wake.close() }

    /// Adds requests to the end of the queue.
    public func enqueue(_ requests: [MetadataRequest]) {
        guard !requests.isEmpty else { return }
        condition.lock()
        queue += requests
        condition.broadcast()
        condition.unlock()
    }

    /// Reads `request` before anything queued (the item the info panel shows).
    public func readFirst(_ request: MetadataRequest) {
        condition.lock()
        urgent.append(request)
        condition.broadcast()
        condition.unlock()
    }

    /// The results since the last call.
    public func take() -> [MetadataResult] {
        wake.drain()
        condition.lock()
        defer { condition.unlock() }
        let taken = results
        results.removeAll()
        return taken
    }

    /// Whether every request so far has its result taken or waiting.
    public var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return urgent.isEmpty && next == queue.count
    }

    /// Stops after the current file. A read that hangs keeps its thread, never the caller.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            while urgent.isEmpty && next == queue.count && !stopped { condition.wait() }
            if stopped { break }
            let request: MetadataRequest
            if !urgent.isEmpty {
                request = urgent.removeFirst()
            } else {
                request = queue[next]
                next += 1
                if next == queue.count { queue.removeAll(); next = 0 }
            }
            condition.unlock()
            let result = Self.read(request)
            condition.lock()
            results.append(result)
            condition.unlock()
            wake.signal()
            condition.lock()
        }
        condition.unlock()
    }

    /// Reads one file's metadata.
    public static func read(_ request: MetadataRequest) -> MetadataResult {
        let read = FileBytes.reading(request.file.path) { file in
            let metadata = request.file.format.traits.metadata(file)
            let size = ImageHeader.dimensions(of: file.prefix, format: request.file.format).map { PixelSize(width: $0.width, height: $0.height) }
            return MetadataResult(id: request.id, metadata: metadata, size: size ?? metadata?.video?.size)
        }
        return (try? read.get()) ?? MetadataResult(id: request.id, metadata: nil, size: nil)
    }
}
