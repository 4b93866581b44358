import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

extension GalleryState {
    /// A command after a count: its row says whether the count repeats it (`5j`) or names the
    /// item to go to (`12G`); other commands ignore it.
    mutating func applyCounted(_ command: Command, count: Int) -> [Effect] {
        let traits = command.traits
        if traits.contains(.goesToCount) {
            let origin = library.id(at: viewport.cursor)
            moveCursor(to: min(max(0, count - 1), library.count - 1))
            if library.id(at: viewport.cursor) != origin { jumpOrigin = origin }
            return loadEffects()
        }
        guard traits.contains(.repeatsWithCount) else { return apply(command) }
        var effects: [Effect] = []
        for _ in 0..<min(count, 10_000) { effects = apply(command) }
        return effects
    }

    /// Applies a command in the grid (and while the filter is typed over it): a command that
    /// changes marks is held to the rules of marking first.
    mutating func applyGrid(_ command: Command) -> [Effect] {
        guard !library.isEmpty else {
            switch command {
            case .cancel: return [.cancel]
            case .suspend: return [.suspend]
            case .redraw: return [.redraw]
            default: return []
            }
        }
        guard command.traits.contains(.changesMarks) else { return applyToLibrary(command) }
        guard selection.allowsMarks else {
            message = Selection.markingIsOff
            return []
        }
        let before = selection.marks, hiddenBefore = selection.hidden
        let effects = applyToLibrary(command)
        markStacks(since: before)
        if let problem = selection.settle(since: before) {
            selection.hidden = hiddenBefore
            message = problem
        }
        return effects
    }

    /// Applies a command to a library that has items.
    mutating func applyToLibrary(_ action: Command) -> [Effect] {
        // A count applies to the action after it, then is gone.
        if case .countDigit = action {
        } else if let count = pendingCount {
            pendingCount = nil
            return applyCounted(action, count: count)
        }
        let origin = library.id(at: viewport.cursor)
        defer {
            if action.traits.contains(.jumps), library.id(at: viewport.cursor) != origin { jumpOrigin = origin }
        }
        switch action {
        case .openPreview:
            preview = Preview()
            message = "h l: previous, next · + -: zoom · m: mark · Esc: back"
        case .slideshow: startSlideshow()
        case .compare: return openCompare()
        case .toggleStack: toggleStack()
        case .closePreview, .pan, .drag, .togglePlayback, .actualSize, .fillScreen, .focusPane, .panAlone, .dropFromCompare, .toggleHistogram, .toggleClipping:
            break
        case .countDigit(let digit):
            guard digit > 0 || pendingCount != nil else { break }
            pendingCount = min(9_999_999, (pendingCount ?? 0) * 10 + digit)
            message = "count \(pendingCount!)"
        case .nextMark, .previousMark:
            if let next = selection.marks.nextMarked(after: viewport.cursor, forward: action == .nextMark) {
                moveCursor(to: next)
            } else {
                message = action == .nextMark ? "no marked item after this one" : "no marked item before this one"
            }
        case .jumpBack:
            guard let origin = jumpOrigin, origin.rawValue < library.totalCount, library.position(of: origin) >= 0 else {
                message = "no jump to go back from"
                break
            }
            jumpOrigin = library.id(at: viewport.cursor)
            moveCursor(to: library.position(of: origin))
        case .move(.up): moveVertically(.up)
        case .move(.down): moveVertically(.down)
        case .move(let movement):
            moveCursor(to: layout.destination(from: viewport.cursor, movement))
            if movement == .last, isScanning { followsEnd = true }
        case .pageDown: moveVertically(.rowsDown(rowsPerPage))
        case .pageUp: moveVertically(.rowsUp(rowsPerPage))
        case .halfPageDown: moveVertically(.rowsDown(max(1, rowsPerPage / 2)))
        case .halfPageUp: moveVertically(.rowsUp(max(1, rowsPerPage / 2)))
        case .toggleMark: toggleMarkAtCursor()
        case .toggleMarkAndAdvance:
            toggleMarkAtCursor()
            moveCursor(to: layout.destination(from: viewport.cursor, .right))
        case .toggleSection:
            let section = layout.section(ofItem: viewport.cursor)
            layoutState.toggleCollapsed(library.sections[section].title)
            viewport.cursor = layout.items(inSection: section).lowerBound
            relayout()
        case .toggleAllSections:
            layoutState.toggleAllCollapsed(library.sections.map(\.title))
            viewport.cursor = layout.items(inSection: layout.section(ofItem: viewport.cursor)).lowerBound
            relayout()
        case .toggleRange:
            if let anchor = selection.anchor {
                selection.marks.set(min(anchor, viewport.cursor)..<(max(anchor, viewport.cursor) + 1), marked: true)
                selection.anchor = nil
            } else {
                selection.anchor = viewport.cursor
                message = "range mark: move, then v again"
            }
        case .markAll: selection.marks.set(0..<library.count, marked: true)
        case .markSection:
            let items = layout.items(inSection: layout.section(ofItem: viewport.cursor))
            selection.marks.set(items, marked: !selection.marks.containsAll(items))
        case .rate, .toggleReject, .toggleLabel, .undo: break  // decisions: GalleryState+Decisions
        case .rotate(let clockwise): turn(clockwise: clockwise)
        case .toggleCullKeys:
            cullKeys.toggle()
            message = cullKeys ? "cull keys: 0-5 rate, 6-9 label, r rejects, u undoes (c: digits count again)" : "digits count again (c: cull keys)"
        case .clearMarks:
            selection.marks.removeAll()
            selection.anchor = nil
        case .cycleSort:
            var arrangement = library.arrangement
            let sorts = Arrangement.Sort.allCases
            arrangement.sort = sorts[(sorts.firstIndex(of: arrangement.sort)! + 1) % sorts.count]
            rearrange { $0.arrange(by: arrangement) }
            message = "sorted by \(arrangement.sort.rawValue)\(arrangement.isReversed ? ", reversed" : "")"
            if arrangement.sort == .date && metadataState.requestedCount < library.totalCount { message! += " (reading dates…)" }
        case .toggleReverse:
            var arrangement = library.arrangement
            arrangement.isReversed.toggle()
            rearrange { $0.arrange(by: arrangement) }
            message = "sorted by \(arrangement.sort.rawValue)\(arrangement.isReversed ? ", reversed" : "")"
        case .zoomIn, .zoomOut:
            layoutState.rescale(by: action == .zoomIn ? Self.zoomStep : -Self.zoomStep)
            relayout()
        case .toggleHelp: mode = .help(page: 0)
        case .accept: return [.accept(acceptedPaths)]
        case .cancel: return [.cancel]
        case .suspend: return [.suspend]
        case .redraw: return [.redraw]
        case .click(let x, let y): click(x: x, y: y)
        case .doubleClick(let x, let y): doubleClick(x: x, y: y)
        case .shiftClick(let x, let y):
            if case .item(let item) = hit(x: x, y: y) {
                selection.marks.set(min(item, viewport.cursor)..<(max(item, viewport.cursor) + 1), marked: true)
                moveCursor(to: item)
            }
        case .controlClick(let x, let y):
            if case .item(let item) = hit(x: x, y: y) {
                selection.marks.toggle(item)
                moveCursor(to: item)
            }
        case .scroll(let lines): scroll(by: lines)
        case .startFilter, .filterInput, .filterBackspace, .acceptFilter, .cancelFilter, .pasted: break
        case .toggleInfo:
            screen.toggleInfo()
            relayout()
        case .exec(let template):
            guard !template.isEmpty else {
                message = "no command on x: start with --exec CMD, or bind keys with --bind KEY:exec:CMD"
                return []
            }
            return [.run(ShellCommand.expand(template, cursor: library[viewport.cursor].path, selection: acceptedPaths))]
        case .keyHandlerPrefix:
            mode = .handlerKey
            message = "key handler: press a key (Esc cancels)"
        case .keyHandler(let key):
            mode = .grid
            if key == Key.escape.name { return [] }
            return [.runKeyHandler(key: key, paths: acceptedPaths)]
        case .cycleGraphics:
            cycleGraphics()
        case .cycleLayout:
            layoutState.cycleMode()
            relayout()
            message = "\(layoutState.mode.rawValue) layout"
        }
        return loadEffects() + metadataEffects()
    }

    /// Adds what the scan found. Items only ever arrive after the existing ones, so the cursor,
    /// the scroll position and the marks stay where they are. The items whose decisions came
    /// with the index's library, ascending (their sidecars are checked, not recalled).
    /// - Complexity: O(*k* + *s*) for *k* new items, the layout being rebuilt once.
    mutating func addScanned(_ batches: [Scanner.Batch], isFinished: Bool) -> [ItemID] {
        for batch in batches {
            scanProblems += batch.problems
            unlistedScanProblems += batch.unlistedProblems
            pathsMissed += batch.missed
        }
        if isFinished { isScanning = false }
        let walkEnds = batches.contains { $0.endsWalk }
        if walkEnds { isWalkOver = true }
        let firstNew = ItemID(library.totalCount)  // ids are numbered in the order found
        defer {
            markPending(fromID: firstNew)
            if followsEnd, !library.isEmpty { moveCursor(to: layout.destination(from: viewport.cursor, .last)) }
            // --slideshow before anything was found: it starts with the first photos.
            if slideshowIsPending, !library.isEmpty {
                slideshowIsPending = false
                startSlideshow()
            }
        }
        // What the index had, and folders' listings, are shown at once, for the walk to confirm.
        let known = batches.filter { ($0.isFromIndex || $0.isListing) && !$0.files.isEmpty }
        let recalled = known.isEmpty ? [] : addFromIndex(known)
        addWalked(batches, isFinished: isFinished, walkEnds: walkEnds)
        return recalled
    }

    /// Adds what the walk found (or confirms it, where the index's library is shown).
    mutating func addWalked(_ batches: [Scanner.Batch], isFinished: Bool, walkEnds: Bool) {
        let added = batches.filter { !$0.isFromIndex && !$0.isListing && !$0.isChanged && !$0.files.isEmpty }.map { (files: $0.files, folder: $0.folder) }
        // Files rewritten in place since the index had them: where they are, read again.
        let changed = batches.filter(\.isChanged).flatMap(\.files)
        if !changed.isEmpty { refreshChanged(changed) }
        if library.isChecking {
            // What the index had is on screen: the walk only changes what it finds otherwise.
            if !added.isEmpty { rearrangeIfChanged { $0.appendChecked(added) } }
            for batch in batches where batch.endsListing { rearrangeIfChanged { $0.settleListing(of: batch.folder) } }
            // What the walk did not find is gone once it is over, not after the look at files in place.
            // Those of a mount not answering (gone, or stalled) stay: the walk could not look there.
            if isFinished || walkEnds { rearrangeIfChanged { [mountsNotAnswering] in $0.finishChecking(keepingUnder: mountsNotAnswering) } }
            return
        }
        guard !added.isEmpty else { return }
        guard library.arrangement.keepsScanOrder else {
            // Sorted otherwise, new items can land anywhere: everything shown keeps its place on screen.
            return rearrange { $0.append(added) }
        }
        library.append(added)
        selection.marks.grow(to: library.count)
        rebuildLayout()
    }

    /// Puts files found changed in place where they were, and forgets what was read of them and
    /// why they could not be shown: their pictures, metadata and sidecars are asked for again.
    mutating func refreshChanged(_ files: [ImageFile]) {
        let first = library.newlyRead.count
        rearrangeIfChanged { $0.replaceChanged(files) }
        let ids = Array(library.newlyRead[first...])
        for id in ids { store.failures[id] = nil }
        metadataState.forget(ids)
    }

    /// Shows what the index remembers of the library, with its metadata and decisions, before the
    /// walk checks it; the items whose decisions came with it, ascending.
    /// Arranged once for the files and their metadata (twice cost a 100,000-photo replay by date twice as much).
    mutating func addFromIndex(_ batches: [Scanner.Batch]) -> [ItemID] {
        let added = batches.map { (files: $0.files, folder: $0.folder) }
        // The batches' metadata as they hold it, by runs of ids: none of it copied a photo at a time.
        var runs: [Library.IndexedRun] = [], answered: [ItemID] = [], decided: [Decisions.ItemChange] = [], kept: [Decisions.Storage] = []
        var recalled: [ItemID] = []
        var id = library.totalCount
        for batch in batches {
            if batch.indexed.count == batch.files.count {
                runs.append(Library.IndexedRun(first: ItemID(id), metadata: batch.indexed))
                for offset in batch.indexed.indices where batch.indexed[offset] != nil { answered.append(ItemID(id + offset)) }
            }
            // Each item's decision as the index's copies say it, shown now, where it said one; checked later.
            if batch.indexedDecisions.count == batch.files.count {
                for (offset, known) in batch.indexedDecisions.enumerated() {
                    guard let known else { continue }
                    let item = ItemID(id + offset)
                    recalled.append(item)
                    guard !known.decision.isEmpty else { continue }
                    decided.append(Decisions.ItemChange(id: item, decision: known.decision))
                    if known.isKept { kept.append(Decisions.Storage(id: item, isKept: true)) }
                }
            }
            id += batch.files.count
        }
        defer {
            _ = decisions.stored(kept)
            if !decided.isEmpty { _ = takeDecisions(decided) }
        }
        if library.arrangement.keepsScanOrder {
            library.appendFromIndex(added)
            selection.marks.grow(to: library.count)
            rebuildLayout()
            if !answered.isEmpty { addMetadata(indexed: runs, answered: answered) }
        } else {
            rearrange { library in
                library.appendFromIndex(added, arranging: false)
                _ = library.record(indexed: runs, answered: answered, arranging: false)
                library.arrange()
            }
            if !answered.isEmpty { addMetadata(indexed: runs, answered: answered, recorded: true) }
        }
        return recalled
    }

    /// Marks the files from id `first` on whose paths `--mark-from` listed.
    /// - Complexity: O(*k*) in the number of new files.
    mutating func markPending(fromID first: ItemID) {
        guard !selection.pending.isEmpty, selection.allowsMarks else { return }
        for number in first.rawValue..<library.totalCount {
            let id = ItemID(number)
            if selection.isFull { break }  // the rest stay pending
            // A pair is marked when any of its members was listed; the others are found with it.
            let members = library.file(id).memberPaths
            guard members.map({ selection.pending.remove($0) }).contains(true) else { continue }
            selection.markFound(id, at: library.position(of: id))
        }
    }

    /// Marks or unmarks the cursor item, or its whole section when that is collapsed to its header.
    mutating func toggleMarkAtCursor() {
        let section = layout.section(ofItem: viewport.cursor)
        guard layout.collapsed[section] else { return selection.marks.toggle(viewport.cursor) }
        let items = layout.items(inSection: section)
        selection.marks.set(items, marked: !selection.marks.containsAll(items))
    }

    /// Rows of tiles in one screen, at least one.
    var rowsPerPage: Int { max(1, (viewportLength - layout.pinnedHeaderLength) / layout.rowPitch) }

    /// Moves to `item`, forgetting the column vertical moves aimed for.
    mutating func moveCursor(to item: Int) {
        viewport.cursor = item
        viewport.stickyColumn = nil
        scrollCursorIntoView()
    }

    /// Moves up or down keeping the column the user chose, even through short rows.
    mutating func moveVertically(_ movement: Movement) {
        let column = viewport.stickyColumn ?? layout.column(ofItem: viewport.cursor)
        viewport.cursor = layout.destination(from: viewport.cursor, movement, column: column)
        viewport.stickyColumn = column
        scrollCursorIntoView()
    }

    /// What is at a screen cell: a tile, or a section's header.
    enum Hit: Equatable {
        case item(Int)
        case header(Int)
    }

    /// The tile or header at screen cell (x, y), if any; the pinned header covers what is under it.
    func hit(x: Int, y: Int) -> Hit? {
        guard y >= 0, y < screen.gridHeight, x >= 0, x < screen.gridAreaWidth, !isTooSmall, !library.isEmpty else { return nil }
        let along = layout.axis == .vertical ? y : x - Self.gridInset
        if let pinned = layout.pinnedHeader(atOffset: viewport.offset), along >= pinned.y, along < pinned.y + layout.pinnedHeaderLength {
            return .header(pinned.section)
        }
        let contentX = layout.axis == .vertical ? x - Self.gridInset : viewport.offset + x - Self.gridInset
        let contentY = layout.axis == .vertical ? viewport.offset + y : y
        if let item = layout.item(atX: contentX, y: contentY) { return .item(item) }
        if let s = layout.section(atOffset: layout.axis == .vertical ? contentY : contentX) {
            let header = layout.headerFrame(ofSection: s)
            if contentY >= header.y && contentY < header.maxY && contentX >= header.x - Self.gridInset && contentX < header.maxX { return .header(s) }
        }
        return nil
    }

    mutating func click(x: Int, y: Int) {
        switch hit(x: x, y: y) {
        case .item(let item): moveCursor(to: item)
        case .header(let s): moveCursor(to: layout.items(inSection: s).lowerBound)
        case nil: break
        }
    }

    /// Double click: a tile opens full-screen; a header collapses or expands its section.
    mutating func doubleClick(x: Int, y: Int) {
        switch hit(x: x, y: y) {
        case .item(let item):
            moveCursor(to: item)
            preview = Preview()
        case .header(let s):
            viewport.cursor = layout.items(inSection: s).lowerBound
            layoutState.toggleCollapsed(library.sections[s].title)
            relayout()
        case nil: break
        }
    }

    /// Marking a closed stack's tile marks every frame in it; unmarking it, every one. Frames
    /// of an open stack are marked one by one.
    /// - Complexity: O(*s*) in the stacks.
    mutating func markStacks(since before: MarkSet) {
        for (shown, frames) in library.stacks where !library.isOpen(shown) {
            let position = library.position(of: shown)
            guard position >= 0, before.contains(position) != selection.marks.contains(position) else { continue }
            for frame in frames.dropFirst() {
                if selection.marks.contains(position) { selection.hidden.insert(frame) } else { selection.hidden.remove(frame) }
            }
        }
    }

    /// `b`: opens the cursor's stack in place, its frames after it, or closes the stack the
    /// cursor is in (the cursor on its tile).
    mutating func toggleStack() {
        let id = library.id(at: viewport.cursor)
        guard let shown = library.stacks[id] != nil ? id : library.stackOf[id], let frames = library.stacks[shown] else {
            message = "not a stack (a burst's frames are one: --stacks)"
            return
        }
        let opening = !library.isOpen(shown)
        rearrange { $0.toggleStack(shown) }
        if !opening, case let position = library.position(of: shown), position >= 0 { moveCursor(to: position) }
        message = opening ? "stack of \(frames.count) opened: b closes it" : "stack of \(frames.count) closed"
    }
}
