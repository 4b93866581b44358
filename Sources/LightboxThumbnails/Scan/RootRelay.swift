import Foundation

/// Walks the paths given on several mounts, one group of paths a mount, each group on a thread
/// of its own, and hands out what they find in the order given, except that a group whose
/// mount stops answering is left waiting while the next groups are walked: what it finds once
/// it answers comes after theirs. Nothing handed out moves (batches only add to the end).
///
/// One group walks at a time (the others have not started, or are left waiting), so the order
/// is the walk's whenever every mount answers. Once every group has walked, or waits, the
/// groups' checks (`Scanner.checksTrustedFolders`) may start.
final class RootRelay: @unchecked Sendable {
    /// What a group's walk is told: where its batches go, and when it may check.
    final class Port: @unchecked Sendable {
        fileprivate let relay: RootRelay
        fileprivate let number: Int

        fileprivate init(relay: RootRelay, number: Int) {
            self.relay = relay
            self.number = number
        }

        /// Hands `batch` on (at once, or once its turn comes); false when the scan was stopped.
        func hand(_ batch: Scanner.Batch) -> Bool { relay.hand(batch, from: number) }

        /// The walk has found all it will: the next group's turn. `checking`: its trusted folders'
        /// files are looked at next (then the relay says when every walk is over, `Batch.endsWalk`).
        func walked(checking: Bool = false) {
            relay.update {
                $0.groups[number].isWalked = true
                if checking { $0.checks = true }
            }
        }

        /// Waits until checks may start: every group walked, or waiting on its mount. False when stopped.
        func waitForChecks() -> Bool {
            relay.condition.lock()
            defer { relay.condition.unlock() }
            while !relay.state.checksMayStart && !relay.state.isStopped { relay.condition.wait() }
            return !relay.state.isStopped
        }
    }

    /// One group's walk as the relay sees it.
    struct Group {
        var isStarted = false
        var isWalked = false
        var isEnded = false
        /// Left waiting on its mount; its batches come after the groups walked meanwhile.
        var isDeferred = false
        /// What it found and is not handed out yet.
        var waiting: [Scanner.Batch] = []
    }

    /// The groups and whose turn it is (under `condition`'s lock).
    struct State {
        var groups: [Group]
        /// The group whose batches are handed out now.
        var turn: Int?
        var checksMayStart = false
        /// Whether some group will look at its trusted folders' files, and whether the end of every walk was handed out.
        var checks = false, walkEndHanded = false
        var isStopped = false

        /// The next group to take the turn: the first not started, else the first left waiting.
        var nextTurn: Int? {
            groups.firstIndex { !$0.isStarted } ?? groups.firstIndex { $0.isDeferred }
        }

        /// Whether every group has ended and every batch been handed out.
        var isOver: Bool { turn == nil && groups.allSatisfy { $0.isEnded && $0.waiting.isEmpty } }
    }

    /// How often the group whose turn it is is asked whether it waits on a mount that stopped answering, in seconds.
    let checkInterval: Double
    /// Whether group *n*'s mount has stopped answering (`ReadWatch`).
    let isStalled: (Int) -> Bool
    fileprivate let condition = NSCondition()
    fileprivate var state: State

    init(groups: Int, checkInterval: Double = 0.25, isStalled: @escaping (Int) -> Bool) {
        state = State(groups: Array(repeating: Group(), count: groups))
        self.checkInterval = checkInterval
        self.isStalled = isStalled
    }

    /// Runs `walk` for each group on a thread of its own, in turn, handing their batches to `emit`
    /// in order; returns when every group has ended, or at once when `emit` returns false (the
    /// walks then stop at their next file; one held by a mount is left behind).
    /// - Complexity: one thread a group; the caller's thread hands out the batches.
    func run(emit: (Scanner.Batch) -> Bool, walk: @escaping @Sendable (Int, Port) -> Void) {
        func start(_ number: Int) {
            state.groups[number].isStarted = true
            state.turn = number
            let port = Port(relay: self, number: number)
            let thread = Thread {
                walk(number, port)
                self.update {
                    $0.groups[number].isWalked = true
                    $0.groups[number].isEnded = true
                }
            }
            thread.name = "lightbox-scan-root"
            thread.start()
        }
        condition.lock()
        start(0)
        while !state.isOver {
            var handing: [Scanner.Batch] = []
            if let turn = state.turn {
                handing = state.groups[turn].waiting
                state.groups[turn].waiting = []
                if state.groups[turn].isWalked {
                    state.groups[turn].isDeferred = false
                    state.turn = nil
                }
            }
            // A group walked in its turn hands out its checks' batches (they replace, not add) whenever they come.
            for number in state.groups.indices
            where number != state.turn && state.groups[number].isWalked && !state.groups[number].isDeferred && !state.groups[number].waiting.isEmpty {
                handing += state.groups[number].waiting
                state.groups[number].waiting = []
            }
            // Every walk over (none left waiting): when checks follow, the gallery hears of it now.
            if state.checks, !state.walkEndHanded, state.turn == nil, state.nextTurn == nil, state.groups.allSatisfy(\.isWalked) {
                state.walkEndHanded = true
                handing.append(Scanner.walkEnd)
            }
            var turnChanged = false
            if state.turn == nil, let next = state.nextTurn {
                if state.groups[next].isStarted { state.turn = next } else { start(next) }
                turnChanged = true
            }
            let checksMayStart = state.groups.allSatisfy { $0.isWalked || $0.isDeferred }
            if checksMayStart && !state.checksMayStart {
                state.checksMayStart = true
                condition.broadcast()
            }
            if !handing.isEmpty {
                condition.unlock()
                let going = handing.allSatisfy(emit)
                condition.lock()
                guard going else {
                    state.isStopped = true
                    condition.broadcast()
                    break
                }
                continue
            }
            if turnChanged || state.isOver { continue }
            if !condition.wait(until: Date(timeIntervalSinceNow: checkInterval)), let turn = state.turn, state.groups.contains(where: { !$0.isStarted }) {
                // No word from the group whose turn it is: when its mount has stopped answering, the next group goes.
                condition.unlock()
                let stalled = isStalled(turn)
                condition.lock()
                if stalled, state.turn == turn, !state.groups[turn].isWalked {
                    state.groups[turn].isDeferred = true
                    state.turn = nil
                }
            }
        }
        condition.unlock()
    }

    /// Keeps `batch` from group `number` for its turn, and wakes the caller's thread.
    fileprivate func hand(_ batch: Scanner.Batch, from number: Int) -> Bool {
        update { state in
            guard !state.isStopped else { return false }
            state.groups[number].waiting.append(batch)
            return true
        }
    }

    /// `change` applied to the state under the lock, the caller's thread woken.
    fileprivate func update<T>(_ change: (inout State) -> T) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return change(&state)
    }
}

/// The folders a scan has walked, by identity: shared by the threads walking its paths.
final class FolderVisits: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = Set<FileIdentity>()

    /// Adds `folder`; whether it was not there before.
    func insert(_ folder: FileIdentity) -> Bool { lock.withLock { seen.insert(folder).inserted } }
}
