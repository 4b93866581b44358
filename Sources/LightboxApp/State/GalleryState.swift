import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

/// The whole state of the gallery. It changes only in `apply(_:)`. Readers ask its parts
/// (`state.viewport.cursor`, `state.selection.marks`, `state.screen.width`): each value is said once.
public struct GalleryState: Sendable {
    public internal(set) var library: Library
    /// Whether the scan is still going on: more items may arrive, always after the ones there are.
    public internal(set) var isScanning: Bool
    /// Whether the walk is over while the scan still looks at the files of folders it took from
    /// the index (`Scanner.Batch.endsWalk`): nothing more is found, only files changed in place.
    public internal(set) var isWalkOver = false
    /// How tiles are laid out: the mode, the column spec, collapsed sections, footers, the layout.
    public internal(set) var layoutState: LayoutState
    /// The layout built from it, which every query of where a tile is reads.
    public var layout: any TileLayout { layoutState.current }
    /// Terminal size in cells; the grid takes all but the status line.
    public internal(set) var screen: Screen
    /// Where the user is: the cursor, the scroll offset, and how moves and scrolls go on.
    public internal(set) var viewport = Viewport()
    /// What is picked: the marks, a pending range, the paths still to mark, the rules.
    public internal(set) var selection: Selection
    /// The filter line's query (whether keys go to it is the mode).
    public internal(set) var filter = FilterState()
    /// How pictures are drawn: in pixels (kitty, sixel) or as symbols.
    public internal(set) var pictures: PictureMode
    /// What the screen shows: the grid, the filter line, the help, the preview (see `Mode`).
    public internal(set) var mode = Mode.grid
    /// The full-screen preview, when it shows: the mode's, set through it.
    public internal(set) var preview: Preview? {
        get { if case .preview(let preview) = mode { preview } else { nil } }
        set {
            mode = newValue.map { .preview($0) } ?? .grid
            previewRevision &+= 1
            if newValue == nil { slideshow = nil }
        }
    }
    /// Compare, when it shows: the mode's, set through it; the cursor follows its focused photo.
    public internal(set) var compare: Compare? {
        get { if case .compare(let compare) = mode { compare } else { nil } }
        set {
            mode = newValue.map { .compare($0) } ?? .grid
            previewRevision &+= 1
            if let newValue, case let position = library.position(of: newValue.focused), position >= 0 { viewport.cursor = position }
        }
    }
    /// The histogram and the clipping marks of the preview and compare.
    public internal(set) var exposure = ExposureView()
    /// Counts changes to the preview and compare, to name the pictures made for one of their frames.
    public internal(set) var previewRevision: UInt32 = 0
    /// Seconds each photo of a slideshow started with `s` stays.
    public internal(set) var slideshowDelay = 4.0
    /// Whether `--slideshow` waits for the first photos to be found.
    var slideshowIsPending = false
    /// The slideshow running (or paused) in the preview, if any.
    public internal(set) var slideshow: Slideshow?
    /// Quarter turns clockwise the user turned each photo's view by (`<`, `>`), kept until Lightbox quits.
    public internal(set) var viewTurns: [ItemID: Int] = [:]
    /// Where on a photo the last zoom looked (fractions of its width and height): the next 100%
    /// looks there, on this photo or the next (a burst's frames compared at one spot).
    public internal(set) var zoomCentre = (x: 0.5, y: 0.5)
    /// Whether the user zoomed or panned, so `zoomCentre` is theirs (else 100% goes to the focus point).
    var hasZoomCentre = false
    /// Whether 100% waits for the photo's size to be read.
    var wantsActualSize = false
    /// Which way the preview was last flipped: 1 to the next photo, -1 to the one before.
    public internal(set) var flipDirection = 1
    /// A count typed before a move (`5j`), if any.
    public internal(set) var pendingCount: Int?
    /// Where the last jump (`G`, `g`, `n`, a section, a count) started, by id, for `'`.
    var jumpOrigin: ItemID?
    /// The pictures the state has and wants: the thumbnail cache, failures, the demand.
    public internal(set) var store: PictureStore
    /// Problems met while scanning (unreadable folders), for the status line: the first ones.
    public internal(set) var scanProblems: [String]
    /// Problems met past those listed, only counted.
    public internal(set) var unlistedScanProblems = 0
    /// How many problems the scan met in all.
    public var scanProblemCount: Int { scanProblems.count + unlistedScanProblems }
    /// A short message for the status line, cleared by the next key.
    public internal(set) var message: String?
    /// Mounts where a read waits too long: said in the status line until they answer.
    public internal(set) var mountsNotAnswering: [String] = []
    /// Of `mountsNotAnswering`, the share's mount points seen without their share (not mounted).
    public internal(set) var mountsUnmounted: Set<String> = []
    /// The paths the scan was given (none for a list on standard input): those holding a mount, or
    /// on one, that the walk could not look at are walked again once it answers.
    public var scanRoots: [ImagePath] = []
    /// Mounts named not answering while the walk went on: it may have missed what is there.
    var mountsMissedByWalk: Set<String> = []
    /// Paths given (a list's) that the scan could not look at, their mount not answering
    /// (`Scanner.Batch.missed`): looked at again once it answers.
    var pathsMissed: [ImagePath] = []
    /// The key table in use: the standard keys and the user's bindings (the help shows it).
    public internal(set) var keyTable = KeyTable.standard
    /// Files' metadata: what was read lately (the info panel's), and what is asked for.
    public internal(set) var metadataState = MetadataState()
    /// Whether to prefetch beyond the viewport (off for snapshots).
    public internal(set) var prefetches = true
    /// What accept prints of a pair: every member, or the picture.
    public internal(set) var pairing = Pairing.together
    /// Reading the library ahead into the disk cache while the user looks.
    public internal(set) var readAhead = ReadAhead()
    /// The UI's colours (the settings, `NO_COLOR`, the terminal's background).
    public let theme: Theme
    /// Ratings, rejects and labels, and what `u` undoes.
    public internal(set) var decisions = Decisions()
    /// Whether digits rate and label in the grid (the cull keys, `c`) instead of counting.
    public internal(set) var cullKeys = false
    /// Whether a decision on the cursor's photo moves on to the next (in the preview and with the cull keys).
    public internal(set) var advances = true
    /// Whether the user has acted yet; until then re-sorting keeps the view at the top.
    var hasUserActed = false
    /// Whether the scan's end accepts a library of one item: until any command (`--select-1`).
    var selectsOnlyItem = false
    /// Whether the cursor goes on to the last item as the scan adds more: `G` before the scan
    /// ended asks for the end of the library, not of what was found by then. Any other command ends it.
    var followsEnd = false
    /// Whether what the index had is still coming (`Event.indexLanding`): the end `G` follows will move on.
    var isIndexLanding = false

    /// What the options, the settings file and the terminal decide before the gallery opens.
    /// The state starts from them; what changes later (the mode with `t`, the cell size on a
    /// resize, the marks found) changes through commands and events.
    public struct Settings: Sendable {
        public var allowsMarks = true
        public var markLimit: Int?
        public var pendingMarks = PathSet()
        public var graphics = Graphics.half
        public var availableGraphics = Graphics.symbolModes
        public var colorDepth = ColorDepth.trueColor
        public var cellPixels = CellPixelSize.standard
        public var showsFooters = false
        public var layoutMode = LayoutMode.grid
        public var keyTable = KeyTable.standard
        /// Whether about a screen ahead is decoded too (not for `--snapshot`).
        public var prefetches = true
        /// A message for the status line when the gallery opens.
        public var notice: String?
        /// Whether accept prints a pair's every member (`--pairs together`) or its picture only.
        public var pairing = Pairing.together
        /// The link to the terminal in kbit/s (`--link-speed`), when known.
        public var linkSpeed: Int?
        /// How far the library is read ahead at idle (`--read-ahead`).
        public var readAhead = ReadAhead.Extent.all
        /// The UI's colours.
        public var theme = Theme.standard
        /// Whether digits rate and label in the grid from the start (`--cull`).
        public var cullKeys = false
        /// Whether a decision moves on to the next photo (`--no-advance`).
        public var advances = true
        /// Seconds each photo of a slideshow stays (`--slideshow`, which starts one at once).
        public var slideshowDelay = 4.0
        /// The levels clipping marks start at (`--clipping`).
        public var clipping = ClippingThresholds()
        public var startsSlideshow = false
        /// Whether a library that turns out to hold one item, before any key, is that item
        /// accepted (`--select-1` when the scan took longer than its wait before the UI).
        public var selectsOnlyItem = false

        public init() {}
    }

    public init(
        library: Library, spec: GridSpec = .standard, width: Int, height: Int,
        cacheBudget: Int = 128 << 20, scanProblems: [String] = [], isScanning: Bool = false, settings: Settings = Settings()
    ) {
        self.library = library
        self.isScanning = isScanning
        screen = Screen(width: width, height: height)
        layoutState = LayoutState(
            mode: settings.layoutMode, spec: spec, showsFooters: settings.showsFooters, library: library,
            width: screen.gridAreaWidth - 2 * Self.gridInset, height: screen.gridHeight)
        selection = Selection(
            capacity: library.count, allowsMarks: settings.allowsMarks, limit: settings.markLimit,
            pending: settings.pendingMarks)
        store = PictureStore(budget: cacheBudget)
        self.scanProblems = scanProblems
        pictures = PictureMode(
            graphics: settings.graphics, available: settings.availableGraphics, colorDepth: settings.colorDepth,
            cellPixels: settings.cellPixels, linkSpeed: settings.linkSpeed)
        keyTable = settings.keyTable
        prefetches = settings.prefetches
        pairing = settings.pairing
        readAhead = ReadAhead(extent: settings.prefetches ? settings.readAhead : .off)
        message = settings.notice
        theme = settings.theme
        cullKeys = settings.cullKeys
        selectsOnlyItem = settings.selectsOnlyItem
        advances = settings.advances
        slideshowDelay = settings.slideshowDelay
        exposure.thresholds = settings.clipping
        if settings.startsSlideshow {
            if library.isEmpty { slideshowIsPending = true } else { startSlideshow() }
        }
        setGraphics(settings.graphics)
    }

    /// Cells left free on each side of the grid, so the cursor's side bars show beside edge tiles.
    public static let gridInset = 1
    /// Cells `+` and `-` add to or take from each column's width.
    public static let zoomStep = 4
    /// Most characters the filter holds.
    public static let filterLimit = FilterState.limit

    /// Whether item `item`'s tile shows on screen.
    public func isOnScreen(_ item: Int) -> Bool { layout.isVisible(item, offset: viewport.offset, height: viewportLength) }

    /// Lines the help overlay has: the grid's, but for the scan's problems listed below it.
    public var helpHeight: Int { screen.gridHeight - (scanProblems.isEmpty ? 0 : min(scanProblems.count + 1, screen.gridHeight / 3)) }

    /// The help as it is laid out on this screen.
    public var helpPages: HelpPages { HelpPages(keyTable, width: screen.width, height: helpHeight) }

    /// The quarter turns the photo at `position` is viewed at.
    public func turns(at position: Int) -> Int { viewTurns[library.id(at: position)] ?? 0 }

    /// Turns the view of the marked photos (or the cursor's) a quarter: their pictures come again turned.
    mutating func turn(clockwise: Bool) {
        let targets = decisionTargets
        for id in targets {
            let turns = ((viewTurns[id] ?? 0) + (clockwise ? 1 : 3)) % 4
            viewTurns[id] = turns == 0 ? nil : turns
        }
        let turns = viewTurns[targets[0]] ?? 0
        message = (turns == 0 ? "as the file shows it" : "turned \(turns * 90)°") + onPhotos(targets) + " (< > turn it; the file is never changed)"
    }

    /// Whether the terminal is too small to show one tile under a header.
    public var isTooSmall: Bool {
        if layout.axis == .horizontal { return screen.gridAreaWidth < layout.pinnedHeaderLength + 8 || screen.gridHeight < layout.tileHeight }
        return screen.gridAreaWidth < 8 || screen.gridHeight < layout.tileHeight + layout.metrics.headerHeight
    }

    /// Items whose tiles show on screen.
    public var visibleItems: Range<Int> { layout.visibleItems(offset: viewport.offset, height: viewportLength) }

    /// The pixel box an item's thumbnail must fit: its box in the terminal's pixels in the pixel
    /// modes, in the pixels chafa renders a cell from for cells, else two pixels a cell vertically;
    /// never over `PixelSize.maxSide` a side.
    public func pixelBox(ofItem item: Int) -> PixelSize {
        let box = layout.boxFrame(ofItem: item), cell = pixelsPerCell
        return PixelSize(width: box.width * cell.width, height: box.height * cell.height).limitedToMaxSide
    }

    /// The cache key of an item's thumbnail at the current size.
    public func thumbnailKey(ofItem item: Int) -> ThumbnailKey {
        ThumbnailKey(file: library[item], box: pixelBox(ofItem: item), turns: turns(at: item))
    }

    /// Whether every tile on screen shows its thumbnail or why it has none.
    /// - Complexity: O(*v*) in the tiles in the window.
    public var isScreenComplete: Bool {
        visibleItems.allSatisfy { item in
            !isOnScreen(item) || failure(at: item) != nil || store.cache.peek(thumbnailKey(ofItem: item)) != nil
        }
    }

    /// Whether the screen is full of items (more are past it) and only its pictures are missing.
    /// A screen of listed files (not read yet) is shown at once: its pictures are seconds away.
    /// - Complexity: O(*v*) in the tiles in the window.
    public var screenWaitsForPictures: Bool {
        !library.isEmpty && !isTooSmall && visibleItems.upperBound < layout.itemCount && !isScreenComplete
            && !(library.hasListedItems && visibleItems.contains { isOnScreen($0) && library[$0].isListed })
    }

    /// Items the provider was asked for (on screen, then the ring ahead) still waiting for their
    /// thumbnail, and listed ones on screen waiting for the scan to read them, unless their mount
    /// is not answering: those wait for it, their tiles saying they are offline.
    /// - Complexity: O(*v* + *d*) in the tiles in the window and the requests out.
    public var loadingCount: Int {
        let listed = library.hasListedItems ? visibleItems.count { isOnScreen($0) && !isDecodable($0) && !isOffline(at: $0) } : 0
        return listed
            + store.demand.count { store.cache.peek($0.key) == nil && store.failures[$0.id] == nil && !isOffline($0.file.path) }
    }

    /// Whether every visible item has its thumbnail or a failure.
    public var isVisibleComplete: Bool {
        // A screen too small for a tile shows none: nothing to wait for.
        isTooSmall || visibleItems.allSatisfy { !isOnScreen($0) || failure(at: $0) != nil || store.cache.contains(thumbnailKey(ofItem: $0)) }
    }

    /// Why the item at `position` could not be decoded, if it could not.
    public func failure(at position: Int) -> String? { store.failures[library.id(at: position)] }

    /// Whether the file at `position` is on a mount that is not answering: its tile says it is
    /// offline while it has no picture (it loads again when the mount answers).
    /// - Complexity: O(*m*) in the mounts not answering, plus the path's length.
    public func isOffline(at position: Int) -> Bool { isOffline(library[position].path) }

    /// Whether `path` is on a mount that is not answering.
    /// - Complexity: O(*m*) in the mounts not answering, plus the path's length.
    func isOffline(_ path: ImagePath) -> Bool {
        guard !mountsNotAnswering.isEmpty else { return false }
        let bytes = path.absoluteBytes
        return mountsNotAnswering.contains { ReadWatch.mount(Array($0.utf8), holds: bytes) }
    }

    /// The paths accept prints: marked items in display order, or else the cursor item; a pair's
    /// members after its picture (unless `--pairs picture`).
    public var acceptedPaths: [ImagePath] {
        if markedCount > 0 && selection.allowsMarks { return markedPaths }
        guard !library.isEmpty else { return [] }
        // A closed stack stands for every frame in it.
        let id = library.id(at: viewport.cursor)
        if let frames = library.stacks[id], !library.isOpen(id) { return frames.flatMap { paths(of: library.file($0)) } }
        return paths(of: library[viewport.cursor])
    }

    /// The paths an item stands for: its picture, then a pair's other members.
    func paths(of file: ImageFile) -> [ImagePath] { pairing == .together ? file.memberPaths : [file.path] }

    /// How many items are marked, shown or hidden by the filter.
    public var markedCount: Int { selection.count }

    /// Puts a message in the status line until the next key.
    mutating func show(_ message: String) { self.message = message }

    /// The marked items' ids: those shown in display order, then those the filter hides.
    /// - Complexity: O(*m*) in the marks.
    var markedIDs: [ItemID] { selection.marks.sorted.map { library.id(at: $0) } + selection.hidden }

    /// The marked paths in display order.
    public var markedPaths: [ImagePath] {
        guard !selection.hidden.isEmpty else { return selection.marks.sorted.flatMap { paths(of: library[$0]) } }
        // Some are hidden by the filter: all of them, in the order they were found.
        let ids = markedIDs.sorted()
        return ids.flatMap { paths(of: library.file($0)) }
    }
}
