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
    private let output: UnsafeMutablePointer<FILE>
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
    /// Picture output waiting for the terminal to take it, written between reads of input.
    public private(set) var pictures = PictureQueue()
    /// The terminal opened again, non-blocking, for pictures: ncurses' cells keep a blocking one.
    private let pictureDescriptor: Int32
    /// The terminal's scrolling capabilities, kept while ncurses is not to use them.
    private var scrollingCapabilities: [UnsafeMutablePointer<CChar>?] = Array(repeating: nil, count: 9)
    /// Scrolls the terminal did for the app, and the lines they moved: what `--stats` reports.
    public private(set) var scrolls = 0, linesScrolled = 0
    /// The frame last painted, for finding a scroll in the next.
    private var lastFrame: Frame?
    /// How fast the terminal has taken pictures while they waited.
    public private(set) var throughput = LinkMeter()

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
        guard let tty = fopen(device, "r+e") else {  // e: close-on-exec, kept from decoder processes
            throw Failure(description: "no terminal: cannot open \(device)")
        }
        input = tty
        output = tty
        // A second open file description: O_NONBLOCK on it leaves ncurses' writes blocking.
        let again = open(device, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        pictureDescriptor = again >= 0 ? again : fileno(tty)
        var cookedModes = termios()
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
            opened = Self.quietly { newterm(name, tty, tty) }
            if opened != nil { break }
        }
        guard let opened else {
            fclose(tty)
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
        TerminalRescue.arm(descriptor: fileno(tty), modes: cookedModes)
        write(Self.bracketedPasteOn)
    }

    /// What a cell shows when ncurses refuses its glyph.
    static let refusedGlyph: [wchar_t] = [wchar_t(UInt8(ascii: "?")), 0]

    /// Pastes come wrapped in `ESC [200~ … ESC [201~`, so they read as text, never as keys.
    static let bracketedPasteOn = Array("\u{1B}[?2004h".utf8)
    static let bracketedPasteOff = Array("\u{1B}[?2004l".utf8)

    /// Tells the crash rescue where stderr really goes while it is captured.
    public static func rescueRestoresStderr(to descriptor: Int32) { TerminalRescue.savedStderr = descriptor }

    deinit { restore() }

    /// Terminal size in cells.
    public var size: (width: Int, height: Int) { (Int(lb_cols()), Int(lb_lines())) }

    /// The cell size in pixels as the terminal's window size says, if it does.
    public var reportedCellPixels: CellPixelSize? {
        var width: Int32 = 0, height: Int32 = 0
        lb_cell_pixels(fileno(output), &width, &height)
        return width > 0 && height > 0 ? CellPixelSize(width: Int(width), height: Int(height)) : nil
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

    /// Deletes kitty images the app no longer has; ones still waiting are never sent.
    public func forgetImages(_ ids: [UInt32]) {
        let gone = Set(ids)
        for write in pictures.drop(where: { $0.image.map { gone.contains($0.id) } ?? false }) { images.unsent(write) }
        pictures.enqueue(images.forget(ids))
    }

    /// Whether picture output is waiting: poll `pictureOutputDescriptor` for room and call
    /// `writePictures()`.
    public var hasPicturesWaiting: Bool { !pictures.isEmpty }

    /// The descriptor pictures are written to, for polling.
    public var pictureOutputDescriptor: Int32 { pictureDescriptor }

    /// Writes waiting pictures until the terminal would block or `limit` bytes went.
    /// - Complexity: O(bytes written).
    public func writePictures(limit: Int = 65536) {
        guard isActive else { return }
        pumpPictures(limit: limit, toBreak: false)
    }

    /// One round of writing pictures, measured for the link's speed.
    private func pumpPictures(limit: Int, toBreak: Bool) {
        let result = pictures.pump(limit: limit, toBreak: toBreak, into: writePictureBytes)
        throughput.record(bytes: result.written, blocked: result.blocked, at: monotonicSeconds())
    }

    /// Writes what the terminal takes now of `bytes` without waiting; 0 when it would block.
    func writePictureBytes(_ bytes: ArraySlice<UInt8>) -> Int {
        let count = bytes.withUnsafeBufferPointer { Glibc.write(pictureDescriptor, $0.baseAddress, $0.count) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EINTR { return 0 }
        return bytes.count  // the terminal is gone: nothing to wait for
    }

    /// Waits until other output may be written: the rest of a sixel or iTerm2 picture begun, or
    /// of a kitty chunk; with `whole`, the whole of a begun kitty image too.
    func finishBegunPicture(whole: Bool = false) {
        while isActive && (whole ? pictures.isMidWrite : !pictures.mayWriteCells) {
            var fd = pollfd(fd: pictureDescriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&fd, 1, 1000)
            // To the end of the begun write and no further: what waits behind it may be dropped.
            let rest = pictures.writes.first.map { $0.bytes.count - pictures.written } ?? 0
            pumpPictures(limit: whole ? rest : .max, toBreak: !whole)
        }
    }

    /// Finishes a begun picture and forgets every one waiting (before the screen is cleared,
    /// the mode changes, a suspend or the end).
    func settlePictures() {
        finishBegunPicture(whole: true)
        for write in pictures.dropAll() { images.unsent(write) }
    }

    /// Writes bytes straight to the terminal, between ncurses' updates.
    func write(_ bytes: [UInt8]) {
        guard isActive, !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, output) }
        fflush(output)
    }

    /// The descriptor to poll for input.
    public var inputDescriptor: Int32 { fileno(input) }

    /// Paints `frame`; ncurses sends only what changed.
    /// - Complexity: O(*w* × *h*).
    public func paint(_ unicodeFrame: Frame) {
        guard isActive else { return }
        let frame = isUnicode ? unicodeFrame : unicodeFrame.asciiOnly()
        var keys = Set<ColorPairs.Key>()
        for cell in frame.cells { keys.insert(pairKey(cell.style)) }
        pairs.prepare(keys)
        // Cells go first, but never inside a picture: one begun is finished (to a kitty chunk's end).
        finishBegunPicture()
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
        for y in 0..<height {
            for x in 0..<width {
                let cell = frame[x, y]
                if cell.isContinuation { continue }
                glyph.removeAll(keepingCapacity: true)
                for scalar in cell.glyph.unicodeScalars { glyph.append(wchar_t(bitPattern: scalar.value)) }
                glyph.append(0)
                let attributes = attributes(cell.style), pair = pairs.pair(for: pairKey(cell.style))
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
                if let event = functionKey(Int32(ch)) { events += parser.feed(.event(event)) }
            } else if let scalar = Unicode.Scalar(UInt32(ch)) {
                events += parser.feed(.character(scalar))
            }
        }
        events += parser.endOfInput()
        // A sequence, string or paste the terminal never finished must not swallow every key.
        let now = monotonicSeconds()
        if readAny { lastInput = now } else if parser.isInsideSequence && now - lastInput > Self.sequenceTimeout { events += parser.abandon() }
        return events
    }

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
        case lb_key_resize(): return .resize(width: size.width, height: size.height)
        case lb_key_mouse():
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            switch lb_mouse_kind(event.bstate) {
            case 1:
                let modifiers = lb_mouse_modifiers(event.bstate)
                return .mouse(
                    MouseEvent(
                        kind: .press, x: Int(event.x), y: Int(event.y),
                        isShift: modifiers & 1 != 0, isControl: modifiers & 2 != 0))
            case 4: return .mouse(MouseEvent(kind: .wheelUp, x: Int(event.x), y: Int(event.y)))
            case 5: return .mouse(MouseEvent(kind: .wheelDown, x: Int(event.x), y: Int(event.y)))
            default: return nil
            }
        default: return nil
        }
    }

    /// Leaves curses for a suspend; `resume()` comes back.
    public func suspend() {
        guard isActive else { return }
        settlePictures()
        write(Self.bracketedPasteOff)
        endwin()
    }

    /// Returns to curses after a suspend, repainting everything on the next paint.
    public func resume() {
        guard isActive else { return }
        lastFrame = nil
        reset_prog_mode()
        write(Self.bracketedPasteOn)
        clearok(lb_stdscr(), true)
        images.invalidate()
    }

    /// Gives the terminal back as it was. Safe to call more than once.
    public func restore() {
        guard isActive else { return }
        settlePictures()
        write(images.forgetAll().joinedBytes + Self.bracketedPasteOff)
        isActive = false
        if pictureDescriptor != fileno(output) { close(pictureDescriptor) }
        TerminalRescue.disarm()
        endwin()
        delscreen(screen)
        fclose(input)
    }

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
