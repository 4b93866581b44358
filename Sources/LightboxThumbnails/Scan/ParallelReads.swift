import CSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Work that waits on the file system more than on the CPU (opening and sniffing files, reading
/// their metadata), several at once on threads of their own so that a network mount's round
/// trips overlap: on a local disk one at a time does as well.
public enum ParallelReads {
    /// Reads in flight on a network mount unless the user says otherwise (`--reads`).
    public static let networkDefault = 32
    /// The most a user may ask for.
    public static let limit = 64
    /// Reads a background `map` keeps in flight while `yielding` says more wanted ones wait
    /// (the screen's files being read): the rest of its threads pause between files.
    public static let yieldingWidth = 4

    /// `0..<count` in parts taken in turn, the first of `first`, each next twice the last up
    /// to `most`: the first files come soon, and later parts, each waiting for its slowest
    /// file, wait less often.
    /// - Complexity: O(log *count*) parts until they reach `most`, then O(*count* / `most`).
    public static func parts(of count: Int, first: Int, most: Int = 1024) -> [Range<Int>] {
        var parts: [Range<Int>] = [], start = 0, size = max(1, min(first, most))
        while start < count {
            parts.append(start..<min(count, start + size))
            start = parts[parts.count - 1].upperBound
            size = min(most, size * 2)
        }
        return parts
    }

    /// `transform` of each of `0..<count`, in order, at most `width` running at once (the
    /// caller's thread among them); one at a time on the caller's thread when `width` is 1.
    /// While `yielding` says so, no more than `yieldingWidth` run (it is asked between files).
    /// - Complexity: `count` calls of `transform`.
    public static func map<T>(_ count: Int, width: Int, yielding: (@Sendable () -> Bool)? = nil, _ transform: (Int) -> T) -> [T] {
        let width = min(max(1, width), count)
        guard width > 1 else { return (0..<count).map(transform) }
        return withoutActuallyEscaping(transform) { transform in
            let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
            results.initialize(repeating: nil)
            defer { results.deallocate() }
            let shared = Shared(results: results, transform: transform, count: count)
            shared.yielding = yielding
            let finished = DispatchSemaphore(value: 0)
            for number in 1..<width {
                let thread = Thread {
                    shared.work(number)
                    finished.signal()
                }
                thread.name = "lightbox-reads"
                thread.start()
            }
            shared.work(0)
            for _ in 1..<width { finished.wait() }
            // The threads may still hold `shared` a moment after their signal: not the closure.
            shared.transform = nil
            return results.map { $0! }
        }
    }

    /// What the threads of one `map` share: the next index to take and where results go.
    private final class Shared<T>: @unchecked Sendable {
        let results: UnsafeMutableBufferPointer<T?>
        var transform: ((Int) -> T)?
        let count: Int
        var next = 0
        let lock = NSLock()
        var yielding: (@Sendable () -> Bool)?

        init(results: UnsafeMutableBufferPointer<T?>, transform: @escaping (Int) -> T, count: Int) {
            self.results = results
            self.transform = transform
            self.count = count
        }

        /// Takes files until none is left; thread `number` pauses while it is one too many of a yielding map.
        func work(_ number: Int) {
            while true {
                if number >= ParallelReads.yieldingWidth, let yielding {
                    while yielding() { usleep(5000) }
                }
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < count else { return }
                results[index] = transform!(index)
            }
        }
    }

    /// How many reads a scan of the folder open as `fd` keeps in flight: `stated` when the user
    /// set it, else `networkDefault` on a network or FUSE mount and one on a local disk.
    public static func width(for fd: Int32, stated: Int?) -> Int {
        if let stated { return min(limit, max(1, stated)) }
        return isNetworkMount(fd) ? networkDefault : 1
    }

    /// The same for the file or folder at `path`, told by the mount table, so a mount that
    /// does not answer holds nothing up (nothing there is looked at).
    public static func width(for path: ImagePath, stated: Int?) -> Int {
        if let stated { return min(limit, max(1, stated)) }
        return isOnNetworkMount(path) ? networkDefault : 1
    }

    /// Whether `path` is on a network or FUSE mount, told by the mount table (nothing there is looked at).
    public static func isOnNetworkMount(_ path: ImagePath) -> Bool {
        isNetworkMount(type: mountType(of: path.absoluteBytes, among: recentMounts()))
    }

    /// Whether a file system is mounted at `path` (the mount table says so; nothing there is looked at).
    /// - Complexity: O(*m*) in the mounts.
    public static func isMountPoint(_ path: ImagePath) -> Bool {
        let key = path.absoluteBytes
        return recentMounts().contains { $0.point == key }
    }

    /// How long a reading of the mount table serves `isOnNetworkMount` (asked once a photo by a
    /// decision read; a share mounted meanwhile is seen within it).
    static let mountTableLife = 1.0
    private nonisolated(unsafe) static var mountTable: (read: Double, mounts: [(point: [UInt8], type: [UInt8])])?
    private static let mountTableLock = NSLock()

    /// The mount table, read again when `mountTableLife` old.
    static func recentMounts() -> [(point: [UInt8], type: [UInt8])] {
        let now = ProcessInfo.processInfo.systemUptime
        return mountTableLock.withLock {
            if let table = mountTable, now - table.read < mountTableLife { return table.mounts }
            let mounts = ReadWatch.mounts()
            mountTable = (now, mounts)
            return mounts
        }
    }

    /// The file system type of the longest of `mounts` that holds `path` (whole components).
    static func mountType(of path: [UInt8], among mounts: [(point: [UInt8], type: [UInt8])]) -> [UInt8] {
        ReadWatch.longestMount(holding: path, among: mounts.map(\.point)).map { mounts[$0].type } ?? []
    }

    /// Whether a mount table's file system type is one of `networkFileSystems`' (FUSE of any kind, as `statfs` says).
    static func isNetworkMount(type: [UInt8]) -> Bool {
        let name = String(decoding: type, as: UTF8.self)
        return ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "afs", "coda", "fuse", "fuseblk"].contains(name) || name.hasPrefix("fuse.")
    }

    /// File systems whose every open and read may cost a round trip: NFS, SMB/CIFS, FUSE (sshfs,
    /// rclone), 9P, Ceph, AFS, Coda; `statfs`'s magic numbers.
    static let networkFileSystems: Set<UInt> = [
        0x6969, 0x517B, 0xFF53_4D42, 0xFE53_4D42, 0x6573_5546, 0x0102_1997, 0x00C3_6400, 0x5346_414F, 0x7375_7245,
    ]

    /// Whether the file system holding `fd` is one of `networkFileSystems`.
    public static func isNetworkMount(_ fd: Int32) -> Bool {
        networkFileSystems.contains(UInt(lb_file_system_type(fd)))
    }
}
