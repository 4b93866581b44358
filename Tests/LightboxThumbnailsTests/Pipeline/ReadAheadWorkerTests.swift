import Foundation
import LightboxTestSupport
import LightboxThumbnails
import Testing

/// A warm function that counts its calls and takes `seconds` each, like a decode.
final class CountingWarm: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    private var inHand = 0, mostInHand = 0
    let seconds: Double
    init(seconds: Double) { self.seconds = seconds }
    var count: Int { lock.lock(); defer { lock.unlock() }; return calls }
    /// Starts counting afresh.
    func reset() { lock.lock(); calls = 0; mostInHand = 0; lock.unlock() }
    /// The most calls that were under way at once.
    var mostAtOnce: Int { lock.lock(); defer { lock.unlock() }; return mostInHand }
    func warm(_ file: ImageFile, _ size: FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome {
        lock.lock(); inHand += 1; mostInHand = max(mostInHand, inHand); lock.unlock()
        Thread.sleep(forTimeInterval: seconds)
        lock.lock(); calls += 1; inHand -= 1; lock.unlock()
        return .written
    }
}

@Test func theReadAheadStopsOnAKeyAndResumesAtIdlePriority() throws {
    let warm = CountingWarm(seconds: 0.01)
    let worker = ReadAheadWorker(warm: { warm.warm($0, $1) }, onResult: {})
    defer { worker.stop() }
    let requests = readAheadRequests(200)
    worker.enqueue(requests)
    // At idle priority it runs when nothing else wants the cores: on a busy machine (a build
    // beside the tests) that may be a while, so it is waited for, not given a fixed time.
    waitLong { warm.count > 3 }
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
    waitLong { warm.count > atKey + 3 }
    #expect(warm.count > atKey + 3)
    let results = worker.takeResults()
    #expect(results.count == warm.count && results.allSatisfy { $0.outcome == .written })
    // Its thread runs at nice 19 in the idle I/O class.
    #expect(worker.threadIDs.count == 1 && IdlePriority.isIdle(worker.threadIDs[0]))
}

/// Waits until `condition` holds, ten seconds at most.
private func waitLong(_ condition: () -> Bool) {
    for _ in 0..<1000 where !condition() { usleep(10_000) }
}

func readAheadRequests(_ count: Int) -> [ReadAheadRequest] {
    (0..<count).map {
        ReadAheadRequest(id: ItemID($0), file: ImageFile(path: ImagePath("f\($0).jpg"), byteCount: 1, modified: 0, format: .jpeg), size: .normal)
    }
}

/// On mains it reads ahead with every thread; on battery with one, decided each time work is given.
@Test func theReadAheadUsesOneWorkerOnBattery() throws {
    final class Power: @unchecked Sendable {
        var onBattery = false
        let lock = NSLock()
        var askedOn: Set<Int32> = []
        func workers() -> Int {
            lock.lock()
            defer { lock.unlock() }
            askedOn.insert(IdlePriority.currentThreadID)
            return onBattery ? 1 : 2
        }
    }
    let power = Power()
    let warm = CountingWarm(seconds: 0.02)
    let worker = ReadAheadWorker(threads: 2, workers: { power.workers() }, warm: { warm.warm($0, $1) }, onResult: {})
    defer { worker.stop() }
    /// Twenty files given, a pause once six are done (waited for: idle priority on a busy
    /// machine): the files done meanwhile, and the most at once.
    func run() -> (done: Int, atOnce: Int) {
        warm.reset()
        worker.enqueue(readAheadRequests(20))
        waitLong { warm.count >= 6 }
        _ = worker.pause()
        Thread.sleep(forTimeInterval: 0.05)
        return (warm.count, warm.mostAtOnce)
    }
    let mains = run()
    #expect(mains.atOnce == 2 && worker.activeThreads == 2)
    #expect(worker.threadIDs.count == 2 && worker.threadIDs.allSatisfy(IdlePriority.isIdle))
    power.onBattery = true
    let battery = run()
    #expect(battery.atOnce == 1 && worker.activeThreads == 1)
    // How many each did in the time is the machine's load's to say (a CI run beside a build did
    // 8 with two): one at a time, never two, is what holds.
    // Asked on the read-ahead's own threads (reading the power supply), never on the caller's.
    #expect(!power.askedOn.isEmpty && power.askedOn.isSubset(of: Set(worker.threadIDs)))
}

/// A fake `/sys/class/power_supply`: each supply a folder of one-line files.
func powerSupplies(_ supplies: [String: [String: String]]) throws -> TemporaryDirectory {
    let root = try TemporaryDirectory("power-supply")
    for (name, files) in supplies {
        try FileManager.default.createDirectory(atPath: "\(root.path)/\(name)", withIntermediateDirectories: true)
        for (file, text) in files { try (text + "\n").write(toFile: "\(root.path)/\(name)/\(file)", atomically: true, encoding: .utf8) }
    }
    return root
}

@Test func aLaptopUnpluggedIsOnBattery() throws {
    var made: [TemporaryDirectory] = []
    defer { made.forEach { $0.remove() } }
    func supplies(_ list: [String: [String: String]]) throws -> String { made.append(try powerSupplies(list)); return made.last!.path }
    let unplugged = try supplies(["AC": ["type": "Mains", "online": "0"], "BAT0": ["type": "Battery", "status": "Discharging", "scope": "System"]])
    #expect(PowerSupply.isOnBattery(root: unplugged))
    let plugged = try supplies(["AC": ["type": "Mains", "online": "1"], "BAT0": ["type": "Battery", "status": "Discharging"]])
    #expect(!PowerSupply.isOnBattery(root: plugged))
    let charging = try supplies(["BAT0": ["type": "Battery", "status": "Charging"]])
    #expect(!PowerSupply.isOnBattery(root: charging))
    // A wireless mouse's battery is not the machine's.
    let mouse = try supplies(["hidpp_battery_0": ["type": "Battery", "status": "Discharging", "scope": "Device"]])
    #expect(!PowerSupply.isOnBattery(root: mouse))
    // A desktop or server: nothing listed, or no such folder.
    #expect(!PowerSupply.isOnBattery(root: try supplies([:])))
    #expect(!PowerSupply.isOnBattery(root: "/nonexistent/power_supply"))
}
