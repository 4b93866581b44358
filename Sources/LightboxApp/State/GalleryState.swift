import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

/// The whole state of the gallery. It changes only in `apply(_:)`.
public struct GalleryState: Sendable {
    public internal(set) var library: Library
    /// Whether the scan is still going on: more items may arrive, always after the ones there are.
    public internal(set) var isScanning: Bool
    /// How tiles are laid out: the mode, the column spec, collapsed sections, footers, the layout.
    public internal(set) var layoutState: LayoutState
    public var layout: any TileLayout { layoutState.current }
    public var spec: GridSpec { layoutState.spec }
    public var layoutMode: LayoutMode { layoutState.mode }
    /// Terminal size in cells; the grid takes all but the status line.
    public internal(set) var screen: Screen
    public var screenWidth: Int { screen.width }
    public var screenHeight: Int { screen.height }
    /// Where the user is: the cursor, the scroll offset, and how moves and scrolls go on.
    public internal(set) var viewport = Viewport()
    public var cursor: Int { viewport.cursor }
    /// Content line shown on the grid's top row.
    public var scrollOffset: Int { viewport.offset }
    /// What is picked: the marks, a pending range, the paths still to mark, the rules.
    public internal(set) var selection: Selection
    public var marks: MarkSet { selection.marks }
    /// Counts changes to the marks, so a marks file is written only when they change.
    public var marksVersion: Int { selection.version }
    /// Paths `--mark-from` listed that the scan has not found yet.
    public var pendingMarks: PathSet { selection.pending }
    /// Marked items the filter hides, by id.
    public var hiddenMarks: Set<ItemID> { selection.hidden }
    /// The filter line: its query and whether keys go to it.
    public internal(set) var filter = FilterState()
    /// The filter being typed or kept; empty for none.
    public var filterText: String { filter.text }
    /// How pictures are drawn: in pixels (kitty, sixel) or as symbols.
    public internal(set) var pictures: PictureMode
    public var graphics: Graphics { pictures.graphics }
    /// The modes `t` steps through: a pixel mode the terminal has, then the symbol sets.
    public var availableGraphics: [Graphics] { pictures.available }
    /// The colours the terminal shows; below true colour, cells are dithered to its palette.
    public var colorDepth: ColorDepth { pictures.colorDepth }
    /// One cell's size in pixels, for the boxes of the pixel modes.
    public var cellPixels: CellPixelSize { pictures.cellPixels }
    /// What the screen shows: the grid, the filter line, the help, the preview (see `Mode`).
    public internal(set) var mode = Mode.grid
    /// The full-screen preview, when it shows: the mode's, set through it.
    public internal(set) var preview: Preview? {
        get { if case .preview(let preview) = mode { preview } else { nil } }
        set {
            mode = newValue.map { .preview($0) } ?? .grid
            previewRevision &+= 1
        }
    }
    /// Counts changes to the preview, to name the pictures made for one of its frames.
    public internal(set) var previewRevision: UInt32 = 0
    /// A count typed before a move (`5j`), if any.
    public internal(set) var pendingCount: Int?
    /// Where the last jump (`G`, `g`, `n`, a section, a count) started, by id, for `'`.
    var jumpOrigin: ItemID?
    /// Where a pending range mark started.
    public var rangeAnchor: Int? { selection.anchor }
    /// The pictures the state has and wants: the thumbnail cache, failures, the demand.
    public internal(set) var store: PictureStore
    public var thumbnails: ThumbnailCache { store.cache }
    /// Why a file could not be decoded, by id (see `failure(at:)`).
    public var failures: [ItemID: String] { store.failures }
    /// Problems met while scanning (unreadable folders), for the status line: the first ones.
    public internal(set) var scanProblems: [String]
    /// Problems met past those listed, only counted.
    public internal(set) var unlistedScanProblems = 0
    /// How many problems the scan met in all.
    public var scanProblemCount: Int { scanProblems.count + unlistedScanProblems }
    /// A short message for the status line, cleared by the next key.
    public internal(set) var message: String?
    /// Sections collapsed to their headers, by title (so they stay collapsed as items arrive).
    public var collapsedTitles: Set<[UInt8]> { layoutState.collapsedTitles }
    /// Whether each section ends with a footer line of counts.
    public var showsFooters: Bool { layoutState.showsFooters }
    /// The key table in use: the standard keys and the user's bindings (the help shows it).
    public internal(set) var keyTable = KeyTable.standard
    /// Whether the info panel shows beside (or below) the grid.
    public var isShowingInfo: Bool { screen.isShowingInfo }
    /// Files' metadata: what was read lately (the info panel's), and what is asked for.
    public internal(set) var metadataState = MetadataState()
    /// What was read of files' metadata (the latest few hundred), by id.
    public var metadata: [ItemID: MetadataResult] { metadataState.results }
    /// Whether to prefetch beyond the viewport (off for snapshots).
    public internal(set) var prefetches = true
    /// What accept prints of a pair: every member, or the picture.
    public internal(set) var pairing = Pairing.together
    /// Reading the library ahead into the disk cache while the user looks.
    public internal(set) var readAhead = ReadAhead()
    /// The UI's colours (the settings, `NO_COLOR`, the terminal's background).
    public let theme: Theme
    /// The thumbnails the provider was last asked for.
    public var demand: [DecodeRequest] { store.demand }
    /// The column vertical moves aim for, kept while moving up and down through short rows.
    var stickyColumn: Int? { viewport.stickyColumn }
    /// Whether the user has acted yet; until then re-sorting keeps the view at the top.
    var hasUserActed = false
    /// Direction of the last scroll: +1 down, -1 up.
    var scrollDirection: Int { viewport.direction }

    /// What the options, the settings file and the terminal decide before the gallery opens.
    /// The state starts from them; what changes later (the mode with `t`, the cell size on a
    /// resize, the marks found) changes through actions.
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
        setGraphics(settings.graphics)
    }

    /// Cells left free on each side of the grid, so the cursor's side bars show beside edge tiles.
    public static let gridInset = 1
    /// Cells `+` and `-` add to or take from each column's width.
    public static let zoomStep = 4
    /// Most characters the filter holds.
    public static let filterLimit = FilterState.limit

    /// Whether item `item`'s tile shows on screen.
    public func isOnScreen(_ item: Int) -> Bool { layout.isVisible(item, offset: scrollOffset, height: viewportLength) }

    /// Lines available to the grid (see `Screen.gridHeight`).
    public var gridHeight: Int { screen.gridHeight }

    /// Lines the help overlay has: the grid's, but for the scan's problems listed below it.
    public var helpHeight: Int { gridHeight - (scanProblems.isEmpty ? 0 : min(scanProblems.count + 1, gridHeight / 3)) }

    /// The help as it is laid out on this screen.
    public var helpPages: HelpPages { HelpPages(keyTable, width: screenWidth, height: helpHeight) }

    /// Columns available to the grid (see `Screen.gridAreaWidth`).
    public var gridAreaWidth: Int { screen.gridAreaWidth }

    /// Where the info panel goes when shown (see `Screen.infoPanel`).
    public var infoPanel: Rect? { screen.infoPanel }

    /// Whether the terminal is too small to show one tile under a header.
    public var isTooSmall: Bool {
        if layout.axis == .horizontal { return gridAreaWidth < layout.pinnedHeaderLength + 8 || gridHeight < layout.tileHeight }
        return gridAreaWidth < 8 || gridHeight < layout.tileHeight + layout.metrics.headerHeight
    }

    /// Items whose tiles show on screen.
    public var visibleItems: Range<Int> { layout.visibleItems(offset: scrollOffset, height: viewportLength) }

    /// The pixel box an item's thumbnail must fit: its box in the terminal's pixels in the pixel
    /// modes, in the pixels chafa renders a cell from for cells, else two pixels a cell vertically;
    /// never over `PixelSize.maxSide` a side.
    public func pixelBox(ofItem item: Int) -> PixelSize {
        let box = layout.boxFrame(ofItem: item), cell = pixelsPerCell
        return PixelSize(width: box.width * cell.width, height: box.height * cell.height).limitedToMaxSide
    }

    /// The cache key of an item's thumbnail at the current size.
    public func thumbnailKey(ofItem item: Int) -> ThumbnailKey {
        ThumbnailKey(file: library[item], box: pixelBox(ofItem: item))
    }

    /// Whether every tile on screen shows its thumbnail or why it has none.
    /// - Complexity: O(*v*) in the tiles in the window.
    public var isScreenComplete: Bool {
        visibleItems.allSatisfy { item in
            !isOnScreen(item) || failure(at: item) != nil || thumbnails.peek(thumbnailKey(ofItem: item)) != nil
        }
    }

    /// Items the provider was asked for (on screen, then the ring ahead) still waiting for their thumbnail.
    public var loadingCount: Int {
        demand.count { thumbnails.peek($0.key) == nil && failures[$0.id] == nil }
    }

    /// Whether every visible item has its thumbnail or a failure.
    public var isVisibleComplete: Bool {
        // A screen too small for a tile shows none: nothing to wait for.
        isTooSmall || visibleItems.allSatisfy { !isOnScreen($0) || failure(at: $0) != nil || thumbnails.contains(thumbnailKey(ofItem: $0)) }
    }

    /// Why the item at `position` could not be decoded, if it could not.
    public func failure(at position: Int) -> String? { failures[library.id(at: position)] }

    /// The paths accept prints: marked items in display order, or else the cursor item; a pair's
    /// members after its picture (unless `--pairs picture`).
    public var acceptedPaths: [ImagePath] {
        if markedCount > 0 && selection.allowsMarks { return markedPaths }
        return library.isEmpty ? [] : paths(of: library[cursor])
    }

    /// The paths an item stands for: its picture, then a pair's other members.
    func paths(of file: ImageFile) -> [ImagePath] { pairing == .together ? file.memberPaths : [file.path] }

    /// How many items are marked, shown or hidden by the filter.
    public var markedCount: Int { selection.count }

    /// Puts a message in the status line until the next key.
    mutating func show(_ message: String) { self.message = message }

    /// The marked paths in display order.
    public var markedPaths: [ImagePath] {
        guard !hiddenMarks.isEmpty else { return marks.sorted.flatMap { paths(of: library[$0]) } }
        // Some are hidden by the filter: all of them, in the order they were found.
        let ids = (marks.sorted.map { library.id(at: $0) } + hiddenMarks).sorted()
        return ids.flatMap { paths(of: library.file($0)) }
    }
}
