import Foundation
import Testing
import LightboxThumbnails

/// A warm function that counts its calls and takes `seconds` each, like a decode.
final class CountingWarm: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    let seconds: Double
    init(seconds: Double) { self.seconds = seconds }
    var count: Int { lock.lock(); defer { lock.unlock() }; return calls }
    func warm(_ file: ImageFile, _ size: FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome {
        Thread.sleep(forTimeInterval: seconds)
        lock.lock(); calls += 1; lock.unlock()
        return .written
    }
}

@Test func theReadAheadStopsOnAKeyAndResumesAtIdlePriority() throws {
    let warm = CountingWarm(seconds: 0.01)
    let worker = ReadAheadWorker(warm: { warm.warm($0, $1) }, onResult: {})
    defer { worker.stop() }
    let requests = (0..<200).map { ReadAheadRequest(id: ItemID($0), file: ImageFile(path: ImagePath("f\($0).jpg"), byteCount: 1, modified: 0, format: .jpeg), size: .normal) }
    worker.enqueue(requests)
    Thread.sleep(forTimeInterval: 0.2)
    // A key: it stops after the file in hand and gives back the rest.
    let given = worker.pause()
    let atKey = warm.count
    #expect(atKey > 3 && atKey < 200, "\(atKey) done before the key")
    #expect(given.count >= 200 - atKey - 1 && given.count <= 200 - atKey)
    Thread.sleep(forTimeInterval: 0.2)
    #expect(warm.count <= atKey + 1, "nothing more while keys come: \(warm.count) after \(atKey)")
    #expect(worker.isIdle)
    // Given them again, it goes on.
    worker.enqueue(requests.filter { given.contains($0.id) })
    Thread.sleep(forTimeInterval: 0.2)
    #expect(warm.count > atKey + 3)
    let results = worker.takeResults()
    #expect(results.count == warm.count && results.allSatisfy { $0.outcome == .written })
    // Its thread runs at nice 19 in the idle I/O class.
    #expect(worker.threadID > 0 && IdlePriority.isIdle(worker.threadID))
}
