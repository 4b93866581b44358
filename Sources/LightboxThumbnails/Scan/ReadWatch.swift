import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The app's reads of users' files in flight, and since when, so a mount that stops answering is
/// noticed: a read there older than `limit` names its mount (`notAnswering`), unless another read
/// there got an answer within `limit` (a busy link is slow, not stalled). The reads are
/// never cut short (one sent to a server cannot be called back); the gallery says why its tiles
/// wait, and quitting never waits for them (`ExitWatcher`).
public final class ReadWatch: @unchecked Sendable {
    /// The one the app's readers report to.
    public static let shared = ReadWatch()
    /// Seconds a read may take before its mount counts as not answering.
    public static let limit = 3.0

    private let lock = NSLock()
    /// Each thread's read (a watched read inside another counts as the outer one) and since when
    /// it last moved.
    private var reads: [pthread_t: (path: ImagePath, since: Double, depth: Int)] = [:]
    /// When a read in each folder last got an answer (it moved or ended).
    private var answered: [ImagePath: Double] = [:]
    /// Folders `answered` holds at most before the old answers are let go.
    static let answersKept = 512

    /// `body` as a read of `path`, watched while it runs.
    public func watching<T>(_ path: ImagePath, _ body: () -> T) -> T {
        let thread = pthread_self()
        let now = ProcessInfo.processInfo.systemUptime
        lock.lock()
        if let outer = reads[thread] {
            reads[thread]?.depth = outer.depth + 1
        } else {
            reads[thread] = (path, now, 1)
        }
        lock.unlock()
        defer {
            lock.lock()
            if let read = reads[thread], read.depth > 1 { reads[thread]?.depth = read.depth - 1 } else { reads[thread] = nil }
            noteAnswer(in: path, at: ProcessInfo.processInfo.systemUptime)
            lock.unlock()
        }
        return body()
    }

    /// Keeps when a read of `path` got an answer (the lock held). When many folders answer at
    /// once (a fast walk), the older answers are let go; all of them when that frees too little.
    /// - Complexity: amortized O(1).
    private func noteAnswer(in path: ImagePath, at now: Double) {
        if answered.count >= Self.answersKept {
            answered = answered.filter { now - $0.value <= Self.limit }
            if answered.count > Self.answersKept / 2 { answered.removeAll(keepingCapacity: true) }
        }
        answered[path.parent] = max(now, answered[path.parent] ?? now)
    }

    /// Mounts a look (`answers`, `probe`) is in flight on.
    private var looking: Set<String> = []
    /// When a probe of each mount last began.
    private var probed: [String: Double] = [:]

    /// Looks at `path`'s mount (a watched `lstat` of `path`) on a thread of its own, unless a look
    /// is in flight there or began within `interval`; never waits. Called as a read only another
    /// process watches (a decoder's) begins, so a mount whose only traffic is such reads is named
    /// once the look is `limit` late, not after those reads time out (9 s at the decoder's limit).
    public func probe(_ path: ImagePath, atMostEvery interval: Double = 1) {
        let mount = Self.mountPoint(of: path.absoluteBytes, among: ParallelReads.recentMounts().map(\.point))
        let now = ProcessInfo.processInfo.systemUptime
        lock.lock()
        let starts = !looking.contains(mount) && now - (probed[mount] ?? -.infinity) >= interval
        if starts {
            looking.insert(mount)
            probed[mount] = now
        }
        lock.unlock()
        if starts { look(at: path, on: mount) {} }
    }

    /// A watched `lstat` of `path` on a thread of its own, `mount` (in `looking`) let go and
    /// `done` called once it answers (it may never).
    private func look(at path: ImagePath, on mount: String, then done: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            lookAt(path)
            lock.lock()
            looking.remove(mount)
            lock.unlock()
            done()
        }
    }

    /// Whether `path`'s mount answers a look at `path` (an `lstat` of it, itself a watched read)
    /// within `limit` and a half second: asked when a read elsewhere (a decoder's) got no
    /// answer, so that a mount whose only traffic is such reads is named too. A look without an
    /// answer is left waiting on a thread of its own (one a mount), and names the mount until
    /// it answers. Blocks for that long at most.
    public func answers(_ path: ImagePath) -> Bool {
        let mount = Self.mountPoint(of: path.absoluteBytes, among: Self.mountPoints())
        lock.lock()
        let starts = looking.insert(mount).inserted
        lock.unlock()
        let wait = Self.limit + 0.5
        if starts {
            let done = DispatchSemaphore(value: 0)
            look(at: path, on: mount) { done.signal() }
            if done.wait(timeout: .now() + wait) == .success {
                lock.lock()
                defer { lock.unlock() }
                return !gone.contains(mount)
            }
        } else {
            Thread.sleep(forTimeInterval: wait)
        }
        return notAnswering(holding: path) == nil
    }

    /// Says this thread's read has moved (a read call returned): its wait starts again at `now`.
    public func progressed(at now: Double = ProcessInfo.processInfo.systemUptime) {
        let thread = pthread_self()
        lock.lock()
        if let read = reads[thread] {
            reads[thread]?.since = now
            noteAnswer(in: read.path, at: now)
        }
        lock.unlock()
    }

    /// The mount points holding a read older than `limit` at `now` and none that got an answer
    /// within `limit`, and those gone (`noteFailure`), in order.
    /// - Complexity: O((*r* + *a*) · *m*) for *r* reads in flight, *a* folders answered and *m* mounts, reading the mount table when a read is late.
    public func notAnswering(at now: Double = ProcessInfo.processInfo.systemUptime) -> [String] {
        lock.lock()
        let late = reads.values.filter { now - $0.since > Self.limit }.map(\.path)
        let recent = late.isEmpty ? [] : answered.filter { now - $0.value <= Self.limit }.map(\.key)
        let gone = self.gone
        lock.unlock()
        guard !late.isEmpty else { return gone.sorted() }
        let mounts = Self.mountPoints()
        let answering = Set(recent.map { Self.mountPoint(of: $0.absoluteBytes, among: mounts) })
        return Set(late.map { Self.mountPoint(of: $0.absoluteBytes, among: mounts) }).subtracting(answering).union(gone).sorted()
    }

    /// Mounts whose server went away (`noteFailure`): they count as not answering until a look
    /// at their mount point gets an answer that is not such an error.
    private var gone: Set<String> = []

    /// What a call that failed with these says: the file system's server or connection went away
    /// (sshfs ended: ENOTCONN; NFS and SMB: the host or network), not that the file is bad.
    static let goneErrors: Set<Int32> = [ENOTCONN, ETIMEDOUT, EHOSTDOWN, EHOSTUNREACH, ENETDOWN, ENETUNREACH, ECONNRESET, ECONNABORTED]

    /// Told, right after a call about `path` failed, its `errno`: when it says the mount went
    /// away, the mount counts as not answering (its tiles wait offline; what the index had there
    /// stays) and is looked at every `interval` seconds on a thread of its own until it answers.
    /// Returns whether it went away.
    @discardableResult
    public func noteFailure(_ path: ImagePath, errno error: Int32 = errno, lookingEvery interval: Double = 1) -> Bool {
        guard Self.goneErrors.contains(error) else { return false }
        // The caller's message says why next.
        defer { errno = error }
        let mount = Self.mountPoint(of: path.absoluteBytes, among: Self.mountPoints())
        lock.lock()
        let isNew = gone.insert(mount).inserted
        lock.unlock()
        // Back once mounted there (unmounted, its folder is empty: its files are not gone) and a
        // look at it gets an answer that is not such an error.
        if isNew {
            letGo(mount, lookingEvery: interval) { [self] in
                guard Self.mountPoints().contains(Array(mount.utf8)) else { return false }
                var info = stat()
                return watching(ImagePath(mount), { mount.withCString { lstat($0, &info) } }) == 0 || !Self.goneErrors.contains(errno)
            }
        }
        return true
    }

    /// Looks every `interval` seconds, on a thread of its own, whether `isBack`; then `name` is
    /// no longer gone.
    private func letGo(_ name: String, lookingEvery interval: Double, once isBack: @escaping @Sendable () -> Bool) {
        Thread.detachNewThread { [self] in
            repeat { Thread.sleep(forTimeInterval: interval) } while !isBack()
            lock.lock()
            gone.remove(name)
            unmounted.remove(name)
            lock.unlock()
        }
    }

    /// Folders of `gone` that are a share's mount point seen without its share (`noteUnmounted`).
    private var unmounted: Set<String> = []

    /// The folders named gone because they look like a share's mount point without its share
    /// (`noteUnmounted`), not because a read there failed.
    public var unmountedFolders: Set<String> { lock.withLock { unmounted } }

    /// Told that the folder at `path` looks like a share's mount point seen while its share is
    /// not mounted (`Scanner.looksUnmounted`): it counts as a mount gone (its tiles wait offline;
    /// what the index had there stays) until it is a mount point, or its device or time moves
    /// (something put in it moves its time), looked at every `interval` seconds on a thread of its own.
    public func noteUnmounted(_ path: ImagePath, lookingEvery interval: Double = 1) {
        let folder = path.absoluteBytes
        let name = String(decoding: folder, as: UTF8.self)
        var info = stat()
        guard lstat(name, &info) == 0 else { return }
        let seen = (device: info.st_dev, seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
        lock.lock()
        let isNew = gone.insert(name).inserted
        if isNew { unmounted.insert(name) }
        lock.unlock()
        guard isNew else { return }
        letGo(name, lookingEvery: interval) {
            var now = stat()
            guard lstat(name, &now) == 0 else { return false }
            return (now.st_dev, now.st_mtim.tv_sec, now.st_mtim.tv_nsec) != seen || Self.mountPoints().contains(folder)
        }
    }

    /// The mount point holding `path` when a read there is older than `limit` at `now`, else nil.
    /// - Complexity: O(*r*) for *r* reads in flight; reads the mount table only when one is late.
    public func notAnswering(holding path: ImagePath, at now: Double = ProcessInfo.processInfo.systemUptime) -> String? {
        let late = notAnswering(at: now)
        guard !late.isEmpty else { return nil }
        let bytes = path.absoluteBytes
        return late.filter { Self.mount(Array($0.utf8), holds: bytes) }.max { $0.utf8.count < $1.utf8.count }
    }

    /// The mount holding `path` when it does not answer or went away, asked once a call about
    /// `path` failed: a look at the file (a watched `lstat`) names a mount gone (`noteFailure`)
    /// where the failure's own error did not reach the watch (a decoder's, in its own process).
    public func notAnswering(afterLookAt path: ImagePath) -> String? {
        lookAt(path)
        return notAnswering(holding: path)
    }

    /// A watched `lstat` of `path`: a mount whose server went away answers at once, with an
    /// error, and is named gone (`noteFailure`, told the error the call itself set).
    private func lookAt(_ path: ImagePath) {
        var info = stat()
        let error = watching(path) { path.withCString { lstat($0, &info) == 0 ? 0 : errno } }
        if error != 0 { noteFailure(path, errno: error) }
    }

    /// The threads whose read is older than `limit` at `now`: their work waits on a mount.
    public func lateThreads(at now: Double = ProcessInfo.processInfo.systemUptime) -> Set<pthread_t> {
        lock.lock()
        defer { lock.unlock() }
        return Set(reads.filter { now - $0.value.since > Self.limit }.keys)
    }

    /// The longest of `mounts` that holds `path` (whole components), as text.
    static func mountPoint(of path: [UInt8], among mounts: [[UInt8]]) -> String {
        String(decoding: longestMount(holding: path, among: mounts).map { mounts[$0] } ?? Array("/".utf8), as: UTF8.self)
    }

    /// Where in `mounts` the longest that holds `path` is; of equal ones the last (a mount over another).
    static func longestMount(holding path: [UInt8], among mounts: [[UInt8]]) -> Int? {
        var found: Int?
        for (i, mount) in mounts.enumerated() where Self.mount(mount, holds: path) && mount.count >= (found.map { mounts[$0].count } ?? 0) {
            found = i
        }
        return found
    }

    /// Whether the mount point `mount` holds `path`, both absolute (whole components: `/mnt/a` does not hold `/mnt/ab`).
    public static func mount(_ mount: [UInt8], holds path: [UInt8]) -> Bool {
        mount == [UInt8(ascii: "/")] || (path.starts(with: mount) && (path.count == mount.count || path[mount.count] == UInt8(ascii: "/")))
    }

    /// The mount points of `mounts` strictly inside the folder at the absolute `path` (whole components).
    /// - Complexity: O(*m*) for *m* mounts.
    static func mounts(inside path: [UInt8], among mounts: [[UInt8]]) -> [[UInt8]] {
        mounts.filter { $0.count > path.count && mount(path, holds: $0) }
    }

    /// The mount points in `/proc/self/mountinfo` (its fifth field, octal escapes undone).
    static func mountPoints() -> [[UInt8]] { mounts().map(\.point) }

    /// The mounts in `/proc/self/mountinfo`: each one's mount point (its fifth field, octal
    /// escapes undone) and file system type (the field after the ` - `).
    static func mounts() -> [(point: [UInt8], type: [UInt8])] {
        guard let table = FileReader.readToEnd("/proc/self/mountinfo") else { return [] }
        return table.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard fields.count > 4 else { return nil }
            let type = fields.firstIndex(of: [UInt8(ascii: "-")]).flatMap { $0 + 1 < fields.count ? Array(fields[$0 + 1]) : nil } ?? []
            return (unescaped(Array(fields[4])), type)
        }
    }

    /// A mountinfo field with its `\NNN` escapes (space, tab, newline, backslash) undone.
    static func unescaped(_ field: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while i < field.count {
            if field[i] == UInt8(ascii: "\\"), i + 3 < field.count,
                let value = UInt8(String(decoding: field[(i + 1)...(i + 3)], as: UTF8.self), radix: 8)
            {
                out.append(value)
                i += 4
            } else {
                out.append(field[i])
                i += 1
            }
        }
        return out
    }
}
