import CNcurses
import LightboxTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// The ncurses screen on the controlling terminal: paints frames, reads input.
///
/// It opens `/dev/tty` itself, so stdout stays free for the chosen paths even when piped.
public final class CursesTerminal {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let input: UnsafeMutablePointer<FILE>
    /// ncurses' output stream: the terminal while curses starts, then `cellOutput`'s pipe.
    private let output: UnsafeMutablePointer<FILE>
    /// Where ncurses' updates go instead of the terminal, to be written as it takes them.
    private let cellOutput: CellOutput?
    /// The terminal's modes before curses and as curses set them, for leaving and coming back
    /// (ncurses' own calls would set them on its pipe).
    private var cookedModes = termios(), programModes = termios()
    private let screen: OpaquePointer
    private var pairs: ColorPairs
    public let colorMode: ColorMode
    /// Whether the terminal shows UTF-8; when not, frames are painted in ASCII.
    public let isUnicode: Bool
    private var isActive = true
    private var parser = InputParser()
    private var lastInput = 0.0
    /// Pictures in pixels: what the terminal holds and shows (see `ImagePainter`).
    public private(set) var images: ImagePainter
    /// Output waiting for the terminal to take it, cells and pictures, written between reads of input.
    public private(set) var pictures = PictureQueue()
    /// The terminal opened again, non-blocking: everything is written through it, so a
    /// terminal that stops reading never holds up the run loop.
    private let pictureDescriptor: Int32
    /// The newest frame, waiting for the terminal to take the cells of the one before.
    private var deferredFrame: Frame?
    /// The terminal's scrolling capabilities, kept while ncurses is not to use them.
    private var scrollingCapabilities: [UnsafeMutablePointer<CChar>?] = Array(repeating: nil, count: 9)
    /// Scrolls the terminal did for the app, and the lines they moved: what `--stats` reports.
    public private(set) var scrolls = 0, linesScrolled = 0
    /// The frame last painted, for finding a scroll in the next.
    private var lastFrame: Frame?
    /// How fast the terminal has taken pictures while they waited.
    public private(set) var throughput = LinkMeter()
    /// Makes the pictures of frames to come ready (`prepareAhead`), started at the first ask.
    private var encoder: PictureEncoder?
    /// Called when a picture made ahead is ready (the run loop's wake), set before the first ask.
    public var onPictureReady: @Sendable () -> Void = {}

    /// Starts curses on `/dev/tty` (or another terminal device), choosing a direct-colour terminfo
    /// entry when `COLORTERM` says so.
    public init(environment: [String: String], device: String = "/dev/tty") throws {
        guard let termName = environment["TERM"], !termName.isEmpty, termName != "dumb" else {
            throw Failure(description: "TERM is not set to a terminal that can show a grid (TERM=\(environment["TERM"] ?? ""))")
        }
        // The user's locale says what the terminal shows: UTF-8, or ASCII only (LC_ALL=C).
        // A UTF-8 locale that is named but not installed falls back to C.UTF-8, or wide glyphs draw blank.
        if setlocale(LC_ALL, "") == nil {
            let named = environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? ""
            if named.lowercased().contains("utf-8") || named.lowercased().contains("utf8") { setlocale(LC_ALL, "C.UTF-8") }
        }
        isUnicode = Self.localeIsUTF8()
        // e: close-on-exec, kept from decoder processes.
        guard let tty = fopen(device, "re"), let ncursesOutput = fopen(device, "we") else {
            throw Failure(description: "no terminal: cannot open \(device)")
        }
        input = tty
        output = ncursesOutput
        // A file description of its own: O_NONBLOCK on it leaves ncurses' descriptors as they are.
        let again = open(device, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard again >= 0 else {
            fclose(tty)
            fclose(ncursesOutput)
            throw Failure(description: "no terminal: cannot open \(device) for writing")
        }
        pictureDescriptor = again
        tcgetattr(fileno(tty), &cookedModes)
        var candidates = [termName]
        if let colorTerm = environment["COLORTERM"], colorTerm == "truecolor" || colorTerm == "24bit",
            !termName.hasSuffix("-direct")
        {
            let base = termName.split(separator: "-").first.map(String.init) ?? termName
            candidates.insert(base + "-direct", at: 0)
        }
        var opened: OpaquePointer? = nil
        for name in candidates {
            opened = Self.quietly { newterm(name, ncursesOutput, tty) }
            if opened != nil { break }
        }
        guard let opened else {
            fclose(tty)
            fclose(ncursesOutput)
            close(again)
            throw Failure(description: "unknown terminal type '\(termName)' (is ncurses-term installed?)")
        }
        screen = opened
        set_term(opened)
        raw()
        noecho()
        nonl()
        keypad(lb_stdscr(), true)
        nodelay(lb_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        mousemask(lb_mouse_mask(), nil)
        mouseinterval(0)
        if has_colors() {
            start_color()
            use_default_colors()
            let colors = Int(lb_colors())
            colorMode = colors >= 1 << 24 ? .direct : colors >= 256 ? .indexed256 : colors >= 16 ? .basic16 : colors >= 8 ? .basic8 : .monochrome
        } else {
            colorMode = .monochrome
        }
        pairs = ColorPairs(capacity: Int(lb_color_pairs()))
        images = ImagePainter(inTmux: environment["TMUX"] != nil)
        tcgetattr(fileno(tty), &programModes)
        // From here on ncurses writes into memory, never to the terminal itself.
        cellOutput = CellOutput()
        if let cellOutput {
            dup2(cellOutput.writeEnd, fileno(ncursesOutput))
            close(cellOutput.writeEnd)
            _ = fcntl(fileno(ncursesOutput), F_SETFD, FD_CLOEXEC)
        }
        TerminalRescue.arm(descriptor: again, modes: cookedModes)
        write(Self.bracketedPasteOn)
    }

    /// What a cell shows when ncurses refuses its glyph.
    static let refusedGlyph: [wchar_t] = [wchar_t(UInt8(ascii: "?")), 0]

    /// Pastes come wrapped in `ESC [200~ … ESC [201~`, so they read as text, never as keys.
    static let bracketedPasteOn = Array("\u{1B}[?2004h".utf8)
    static let bracketedPasteOff = Array("\u{1B}[?2004l".utf8)

    /// Moves with a button held are reported (xterm's 1002, SGR-coded as ncurses asked), so a
    /// zoomed photo can be dragged; sent after ncurses' own mouse mode (1000), which it replaces.
    static let dragTrackingOn = Array("\u{1B}[?1002h".utf8)
    static let dragTrackingOff = Array("\u{1B}[?1002l".utf8)
    /// Whether the next paint turns drag tracking on (ncurses sends its mode with its first output).
    var dragTrackingPending = true

    /// Tells the crash rescue where stderr really goes while it is captured.
    public static func rescueRestoresStderr(to descriptor: Int32) { TerminalRescue.savedStderr = descriptor }

    deinit { restore() }

    /// Terminal size in cells.
    public var size: (width: Int, height: Int) { (Int(lb_cols()), Int(lb_lines())) }

    /// The cell size in pixels as the terminal's window size says, if it does.
    public var reportedCellPixels: CellPixelSize? {
        var width: Int32 = 0, height: Int32 = 0
        lb_cell_pixels(fileno(input), &width, &height)
        return width > 0 && height > 0 ? CellPixelSize(width: Int(width), height: Int(height)) : nil
    }

    /// After SIGWINCH: tells ncurses the terminal's size (its own handler is not installed: it
    /// would ask the pipe its output goes to); the next `readEvents` reports the resize.
    public func followWindowSize() {
        var columns: Int32 = 0, rows: Int32 = 0
        lb_window_size(fileno(input), &columns, &rows)
        guard isActive, columns > 0, rows > 0, Int(columns) != size.width || Int(rows) != size.height else { return }
        resizeterm(rows, columns)
    }

    /// Pictures through tmux's passthrough go to the pane at `origin` from now on (a split or a
    /// zoom moved it): all are painted again there.
    public func movePictures(to origin: PaneOrigin) {
        guard origin != images.paneOrigin else { return }
        settlePictures()
        images.paneOrigin = origin
        clearok(lb_stdscr(), true)
    }

    /// Shows pictures with `mode` from now on (nil: none); leaving kitty frees what it holds.
    public func setImageMode(_ mode: PixelProtocol?, cellPixels: CellPixelSize, colorRegisters: Int? = nil, reduction: Int = 1) {
        settlePictures()
        if images.mode == .kitty && mode != .kitty { write(images.forgetAll().joinedBytes) }
        // Pictures painted over the cells (sixel, iTerm2) are only replaced where cells change:
        // leaving such a mode, everything is repainted.
        if let old = images.mode, !old.showsThroughCells, mode != old { clearok(lb_stdscr(), true) }
        images.mode = mode
        images.cellPixels = cellPixels
        images.reduction = reduction
        if let colorRegisters { images.colorRegisters = colorRegisters }
        // A scroll ncurses chose on its own would move pictures painted over the cells without
        // the painter knowing: in those modes only the app's own scrolls (`scrollWithTerminal`).
        let picturesOverCells = mode.map { !$0.showsThroughCells } ?? false
        if picturesOverCells != ncursesScrollingIsOff {
            if picturesOverCells {
                var none: [UnsafeMutablePointer<CChar>?] = Array(repeating: nil, count: 9)
                canTurnOffScrolling =
                    lb_scrolling_capabilities(&scrollingCapabilities, 0) == 0
                    && lb_scrolling_capabilities(&none, 1) == 0
            } else if canTurnOffScrolling {
                _ = lb_scrolling_capabilities(&scrollingCapabilities, 1)
            }
            ncursesScrollingIsOff = picturesOverCells
        }
    }

    /// Whether ncurses' own scrolling is turned off (pictures are painted over the cells).
    private var ncursesScrollingIsOff = false
    /// Whether it could be: ncurses keeps its capabilities where ncurses 6 does. When not, the
    /// app does not scroll either, and every moved picture is painted again.
    private var canTurnOffScrolling = false

    /// Makes the pictures of frames likely to come next ready in the background (the preview's
    /// neighbours, as `GalleryView.picturesAhead` lists them), in this order: encoded for this
    /// terminal now, and for kitty sent ahead while nothing else waits, so showing one writes
    /// only what is already made, or only its cells. Over a slow link nothing is sent ahead.
    public func prepareAhead(_ ahead: [FrameImage]) {
        guard isActive, images.mode != nil else { return }
        let encoding = images.encoding
        let jobs = ahead.compactMap { image in images.wantsReady(image).map { PictureEncoder.Job(key: $0, image: image, encoding: encoding) } }
        if encoder == nil && !jobs.isEmpty { encoder = PictureEncoder(onMade: onPictureReady) }
        encoder?.want(Array(jobs.prefix(ImagePainter.readyLimit - 1)))
    }

    /// Takes the pictures made ahead; sends kitty's when nothing else waits and the link keeps up.
    public func takeReadyPictures() {
        guard let made = encoder?.take(), !made.isEmpty else { return }
        images.takeReady(made)
        if pictures.isEmpty && (throughput.kilobitsPerSecond ?? .max) >= Self.sendAheadSpeed { pictures.enqueue(images.sendAhead()) }
        writePictures()
    }

    /// The slowest link (kbit/s, as measured) kitty pictures are sent ahead over: below it, the
    /// link is kept for what the user looks at.
    static let sendAheadSpeed = 50_000

    /// Deletes kitty images the app no longer has; ones still waiting are never sent.
    public func forgetImages(_ ids: [UInt32]) {
        let gone = Set(ids)
        for write in pictures.drop(where: { $0.image.map { gone.contains($0.id) } ?? false }) { images.unsent(write) }
        pictures.enqueue(images.forget(ids))
    }

    /// Whether output (cells or pictures) is waiting: poll `pictureOutputDescriptor` for room
    /// and call `writePictures()`.
    public var hasPicturesWaiting: Bool { !pictures.isEmpty }

    /// The descriptor all output is written to, for polling.
    public var pictureOutputDescriptor: Int32 { pictureDescriptor }

    /// Writes waiting output until the terminal would block or `limit` bytes went; once the
    /// cells are all taken, paints the frame that waited for them.
    /// - Complexity: O(bytes written).
    public func writePictures(limit: Int = 65536) {
        guard isActive else { return }
        pumpPictures(limit: limit)
        if !pictures.hasCellsWaiting, let frame = deferredFrame {
            deferredFrame = nil
            paint(frame)
        }
    }

    /// Moves what ncurses wrote so far into the queue, after everything waiting.
    private func takeCells() { pictures.enqueueCells(cellOutput?.take() ?? []) }

    /// One round of writing, measured for the link's speed.
    private func pumpPictures(limit: Int) {
        takeCells()
        let result = pictures.pump(limit: limit, into: writePictureBytes)
        throughput.record(bytes: result.written, blocked: result.blocked, at: monotonicSeconds())
    }

    /// Writes what the terminal takes now of `bytes` without waiting; 0 when it would block.
    func writePictureBytes(_ bytes: ArraySlice<UInt8>) -> Int {
        let count = bytes.withUnsafeBufferPointer { Glibc.write(pictureDescriptor, $0.baseAddress, $0.count) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EINTR { return 0 }
        return bytes.count  // the terminal is gone: nothing to wait for
    }

    /// Forgets every picture waiting but a begun one, which is finished before any later cells
    /// (before the screen is cleared, the mode changes, a suspend or the end).
    func settlePictures() {
        for write in pictures.dropAll() { images.unsent(write) }
    }

    /// Writes what waits, giving up once the terminal took nothing for `stall` seconds or
    /// `limit` seconds went (a terminal that reads nothing cannot be given back, and must not
    /// keep the program alive); a picture still begun then is abandoned, its string ended.
    func flushOutput(limit: Double, stall: Double) {
        let start = monotonicSeconds()
        var lastProgress = start
        while true {
            let before = pictures.bytesWaiting
            pumpPictures(limit: .max)
            let now = monotonicSeconds()
            if pictures.bytesWaiting < before { lastProgress = now }
            if pictures.isEmpty || now - start >= limit || now - lastProgress >= stall { break }
            var fd = pollfd(fd: pictureDescriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&fd, 1, Int32(max(1, min(limit - (now - start), stall - (now - lastProgress)) * 1000)))
        }
        if let begun = pictures.abandonBegun() {
            images.unsent(begun)
            pumpPictures(limit: .max)
        }
    }

    /// Seconds the terminal is given to take the last output when it is handed back: in all,
    /// and without taking a byte.
    static let handBackLimit = 1.0, handBackStall = 0.25

    /// Writes bytes to the terminal after everything waiting, between ncurses' updates.
    func write(_ bytes: [UInt8]) {
        guard isActive, !bytes.isEmpty else { return }
        takeCells()
        pictures.enqueueCells(bytes)
    }

    /// The descriptor to poll for input.
    public var inputDescriptor: Int32 { fileno(input) }

    /// Paints `frame`; ncurses sends only what changed.
    /// - Complexity: O(*w* × *h*).
    public func paint(_ unicodeFrame: Frame) {
        guard isActive else { return }
        // The terminal has not taken the last frame's cells: this one waits (the newest only),
        // so what waits in memory stays one frame however long it reads nothing.
        guard !pictures.hasCellsWaiting else {
            deferredFrame = unicodeFrame
            return
        }
        deferredFrame = nil
        let frame = isUnicode ? unicodeFrame : unicodeFrame.asciiOnly()
        // Each cell's colour pair, worked out once a run of cells of one style (most of a row).
        var cellKeys: [ColorPairs.Key] = []
        cellKeys.reserveCapacity(frame.cells.count)
        var keys = Set<ColorPairs.Key>(), lastStyle: CellStyle?, lastKey = ColorPairs.Key(foreground: -1, background: -1)
        for cell in frame.cells {
            if cell.style != lastStyle {
                lastStyle = cell.style
                lastKey = pairKey(cell.style)
                keys.insert(lastKey)
            }
            cellKeys.append(lastKey)
        }
        pairs.prepare(keys)
        // Cells go first, but never inside a picture: one begun is finished (to a kitty chunk's end).
        for write in pictures.replan(for: frame) { images.unsent(write) }
        var forcedRows: [Int] = []
        if let scroll = scrollWithTerminal(to: frame) { forcedRows = images.scrolled(scroll) }
        var repaintRows = Array(Set(images.repaintRows(for: frame) + forcedRows)).sorted()
        if images.mode?.isErasedByText == false && !repaintRows.isEmpty {
            // A picture left, and text will not erase it: the screen is cleared and all painted again.
            settlePictures()
            clearok(lb_stdscr(), true)
            images.invalidate()
            repaintRows = []
        }
        let width = min(frame.width, size.width), height = min(frame.height, size.height)
        var glyph: [wchar_t] = []
        var pairedKey: ColorPairs.Key?, lastPair: Int32 = 0
        for y in 0..<height {
            for x in 0..<width {
                let cell = frame[x, y]
                if cell.isContinuation { continue }
                glyph.removeAll(keepingCapacity: true)
                for scalar in cell.glyph.unicodeScalars { glyph.append(wchar_t(bitPattern: scalar.value)) }
                glyph.append(0)
                let key = cellKeys[y * frame.width + x]
                if key != pairedKey { (pairedKey, lastPair) = (key, pairs.pair(for: key)) }
                let attributes = attributes(cell.style), pair = lastPair
                // A glyph ncurses refuses still covers its cell: nothing of an earlier frame stays.
                if lb_put(Int32(y), Int32(x), glyph, attributes, pair) == -2 {
                    _ = lb_put(Int32(y), Int32(x), Self.refusedGlyph, attributes, pair)
                }
            }
        }
        // Rows a sixel picture left are rewritten in full, so none of its pixels stay.
        for row in repaintRows where row >= 0 && row < height { _ = lb_redraw_line(Int32(row)) }
        wnoutrefresh(lb_stdscr())
        doupdate()
        takeCells()
        if dragTrackingPending {
            pictures.enqueueCells(Self.dragTrackingOn)
            dragTrackingPending = false
        }
        lastFrame = frame
        pictures.enqueue(images.writes(for: frame, repaintedRows: repaintRows))
        _ = pictures.replan(for: frame)  // the new ones in the frame's order too
        writePictures()
    }

    /// When `frame` is the last one with a band of rows moved by whole lines and pictures move
    /// with the text (sixel), has the terminal scroll that band, and ncurses' copy of the screen
    /// with it: the pictures there move, and only the rows that came in are painted.
    func scrollWithTerminal(to frame: Frame) -> LineScroll? {
        guard images.mode?.scrollsWithText == true, canTurnOffScrolling, let last = lastFrame, frame.width == size.width, frame.height == size.height,
            let scroll = frame.scroll(from: last)
        else { return nil }
        let (top, bottom) = (scroll.rows.lowerBound, scroll.rows.upperBound - 1)
        guard lb_scrolled_screen(Int32(top), Int32(bottom), Int32(scroll.lines)) != lb_err() else { return nil }
        // Plain attributes, so the rows coming in are blank as ncurses thinks; the cursor and
        // attributes restored after, as ncurses left them.
        let move = scroll.lines > 0 ? "\(scroll.lines)S" : "\(-scroll.lines)T"
        write(Array("\u{1B}7\u{1B}[0m\u{1B}[\(top + 1);\(bottom + 1)r\u{1B}[\(move)\u{1B}[r\u{1B}8".utf8))
        scrolls += 1
        linesScrolled += abs(scroll.lines)
        return scroll
    }

    /// Forces the next paint to redraw every cell (after a suspend, or garbage on screen).
    public func invalidate() {
        lastFrame = nil
        deferredFrame = nil
        settlePictures()
        clearok(lb_stdscr(), true)
        images.invalidate()
    }

    func pairKey(_ style: CellStyle) -> ColorPairs.Key {
        ColorPairs.Key(foreground: colorMode.number(for: style.foreground), background: colorMode.number(for: style.background))
    }

    func attributes(_ style: CellStyle) -> attr_t {
        var value: attr_t = 0
        if style.attributes.contains(.bold) { value |= lb_a_bold() }
        if style.attributes.contains(.reverse) { value |= lb_a_reverse() }
        if style.attributes.contains(.underline) { value |= lb_a_underline() }
        if style.attributes.contains(.dim) { value |= lb_a_dim() }
        return value
    }

    /// Every event waiting, without blocking.
    public func readEvents() -> [InputEvent] {
        var events: [InputEvent] = []
        var ch: wint_t = 0
        var readAny = false
        while isActive {
            let kind = wget_wch(lb_stdscr(), &ch)
            if kind == lb_err() { break }
            readAny = true
            if kind == KEY_CODE_YES {
                if Int32(ch) == lb_key_mouse() {
                    for event in mouseEvents() { events += parser.feed(.event(event)) }
                } else if let event = functionKey(Int32(ch)) {
                    events += parser.feed(.event(event))
                }
            } else if let scalar = Unicode.Scalar(UInt32(ch)) {
                events += parser.feed(.character(scalar))
            }
        }
        let now = monotonicSeconds()
        if readAny {
            lastInput = now
        } else if parser.isAfterEscape && now - lastInput >= escapeDelay {
            events += parser.endOfInput()  // nothing followed the Esc in time: the Esc key
        } else if parser.isInsideSequence && now - lastInput > Self.sequenceTimeout {
            events += parser.abandon()  // a sequence, string or paste never finished must not swallow every key
        }
        return events
    }

    /// Seconds until input waiting to be completed is due (a lone Esc becomes the Esc key, an
    /// open sequence is dropped): the run loop wakes then and reads events again.
    public var inputWait: Double? {
        let since = monotonicSeconds() - lastInput
        if parser.isAfterEscape { return max(0, escapeDelay - since) }
        if parser.isInsideSequence { return max(0, Self.sequenceTimeout - since) }
        return nil
    }

    /// How long an Esc waits for the rest of a sequence (`InputParser.escapeDelay`).
    public var escapeDelay = InputParser.floor

    /// Seconds a sequence, string or paste may stay open with nothing more arriving.
    static let sequenceTimeout = 1.0

    func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    func functionKey(_ code: Int32) -> InputEvent? {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_ENTER: return .key(.enter)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_F0 + 1...KEY_F0 + 12: return .key(.function(Int(code - KEY_F0)))
        case lb_key_resize(): return .resize(width: size.width, height: size.height)
        default: return nil
        }
    }

    /// The mouse events one KEY_MOUSE brings, oldest first: ncurses runs the events that were
    /// waiting together (a double click read in one go) into one KEY_MOUSE and keeps the rest
    /// in its queue, where `getmouse` gives the newest first; so the queue is read to its end.
    func mouseEvents() -> [InputEvent] {
        var events: [InputEvent] = []
        var event = MEVENT()
        for _ in 0..<Self.mouseQueueLength {
            guard getmouse(&event) == OK else { break }
            if let mouse = Self.mouseEvent(event) { events.append(mouse) }
        }
        return events.reversed()
    }

    /// ncurses' mouse queue holds at most this many events.
    static let mouseQueueLength = 8

    static func mouseEvent(_ event: MEVENT) -> InputEvent? {
        switch lb_mouse_kind(event.bstate) {
        case 1:
            let modifiers = lb_mouse_modifiers(event.bstate)
            return .mouse(
                MouseEvent(
                    kind: .press, x: Int(event.x), y: Int(event.y),
                    isShift: modifiers & 1 != 0, isControl: modifiers & 2 != 0))
        case 4: return .mouse(MouseEvent(kind: .wheelUp, x: Int(event.x), y: Int(event.y)))
        case 5: return .mouse(MouseEvent(kind: .wheelDown, x: Int(event.x), y: Int(event.y)))
        case 6: return .mouse(MouseEvent(kind: .drag, x: Int(event.x), y: Int(event.y)))
        case 7: return .mouse(MouseEvent(kind: .release, x: Int(event.x), y: Int(event.y)))
        default: return nil
        }
    }

    /// Leaves curses for a suspend; `resume()` comes back.
    public func suspend() {
        guard isActive else { return }
        handBack(extra: Self.dragTrackingOff + Self.bracketedPasteOff)
    }

    /// Returns to curses after a suspend, repainting everything on the next paint.
    public func resume() {
        guard isActive else { return }
        lastFrame = nil
        deferredFrame = nil
        tcsetattr(fileno(input), TCSANOW, &programModes)
        keypad(lb_stdscr(), true)  // ncurses sends it again only when it set the modes itself
        followWindowSize()  // resized while stopped
        write(Self.bracketedPasteOn)
        dragTrackingPending = true
        clearok(lb_stdscr(), true)
        images.invalidate()
    }

    /// Leaves curses: pictures not begun are forgotten, `extra` and ncurses' own farewell
    /// written as far as the terminal takes them in time, and the modes put back.
    private func handBack(extra: [UInt8]) {
        settlePictures()
        deferredFrame = nil
        write(extra)
        endwin()
        flushOutput(limit: Self.handBackLimit, stall: Self.handBackStall)
        // At once, not after the output drains (as ncurses would): it may never drain.
        tcsetattr(fileno(input), TCSANOW, &cookedModes)
    }

    /// Gives the terminal back as it was, as far as it takes it. Safe to call more than once.
    public func restore() {
        guard isActive else { return }
        encoder?.stop()
        handBack(extra: images.forgetAll().joinedBytes + Self.dragTrackingOff + Self.bracketedPasteOff)
        isActive = false
        TerminalRescue.disarm()
        close(pictureDescriptor)
        delscreen(screen)
        fclose(input)
        fclose(output)
    }

    /// Gives the terminal back from a signal handler, without waiting: what a process that
    /// must end now can do.
    public static func rescueFromSignalHandler() { TerminalRescue.rescue() }

    static func localeIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// Runs `body` with stderr silenced: newterm prints its own complaint for unknown entries.
    static func quietly<T>(_ body: () -> T) -> T {
        let saved = dup(2)
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 { dup2(null, 2); close(null) }
        let result = body()
        if saved >= 0 { dup2(saved, 2); close(saved) }
        return result
    }
}
