import LightboxLayout
import LightboxThumbnails

/// One command-line option as data: the parser, `--help`, the man page and the shell
/// completions are all made from `OptionTable.all`, so they cannot disagree.
public struct OptionSpec: Sendable {
    public var long: String
    public var short: Character?
    /// The value's placeholder (`SPEC`), nil for a flag; `optional` values go after `=` only.
    public var value: String?
    public var isValueOptional = false
    /// Choices for completions, when the value is one of a few words.
    public var choices: [String] = []
    /// Whether the value is a file or folder (for completions).
    public var takesPath = false
    public var help: String
    /// What the README's table says of it, where that is more than `help`.
    public var details: String?

    public init(
        _ long: String, short: Character? = nil, value: String? = nil, optional: Bool = false,
        choices: [String] = [], path: Bool = false, details: String? = nil, _ help: String
    ) {
        self.details = details
        self.long = long
        self.short = short
        self.value = value
        isValueOptional = optional
        self.choices = choices
        takesPath = path
        self.help = help
    }

    /// `-c, --columns SPEC` as help and the man page show it.
    public var synopsis: String {
        let names = (short.map { "-\($0), " } ?? "    ") + "--" + long
        guard let value else { return names }
        return names + (isValueOptional ? "[=\(value)]" : " \(value)")
    }
}

/// The options, in groups.
public enum OptionTable {
    public static let groups: [(name: String, options: [OptionSpec])] = [
        (
            "Grid",
            [
                OptionSpec(
                    "columns", short: "c", value: "SPEC",
                    details:
                        "as SwiftUI's `GridItem`s, in cells: `N` (N equal columns), or a comma list of `adaptive[:MIN[-MAX]]` (as many columns of MIN to MAX as fit; the default is `adaptive:16-24`), `flexible[:MIN[-MAX]]` (one column sharing the free width) and `fixed:W`, each optionally ending in `:leading`, `:center` or `:trailing` (where a narrow picture and its label sit), as `fixed:12:leading,flexible,flexible:20-40`. A bad spec is an error naming the wrong part (exit 2). `+`/`-` scale every kind",
                    "N equal columns, or a comma list of adaptive[:MIN[-MAX]], flexible[:MIN[-MAX]] and fixed:W, each optionally :leading, :center or :trailing (cells; default adaptive:16-24)"
                ),
                OptionSpec(
                    "spacing", value: "ROW,COL", details: "blank lines between rows and cells between columns (default `1,2`)",
                    "blank lines between rows and cells between columns (default 1,2)"),
                OptionSpec(
                    "layout", value: "MODE", choices: LayoutMode.allCases.map(\.rawValue),
                    details:
                        "`grid` (default: rows of equal tiles), `masonry` (columns of tiles at their pictures' own shapes, each new tile in the shortest column; shapes come from image headers, read in the background) or `strip` (a filmstrip: as many rows as fit, scrolling sideways, each section's header a card pinned on the left; `h`/`l` move along, `j`/`k` between rows; no footers)",
                    "grid (default), masonry (tiles at their pictures' shapes) or strip (rows scrolling sideways)"),
                OptionSpec(
                    "sections", value: "KIND", choices: Arrangement.Sections.allCases.map(\.rawValue),
                    details: Arrangement.Sections.allCases.map { "`\($0.rawValue)`\($0 == .folder ? " (default)" : ""): \($0.description)" }
                        .joined(separator: "; "),
                    "a section per " + Arrangement.Sections.allCases.map { "\($0.rawValue)\($0 == .folder ? " (default)" : "")" }.joined(separator: ", ")),
                OptionSpec(
                    "stacks", value: "KIND", choices: Arrangement.Stacks.allCases.map(\.rawValue),
                    details: Arrangement.Stacks.allCases.map { "`\($0.rawValue)`\($0 == .off ? " (default)" : ""): \($0.description)" }
                        .joined(separator: "; ")
                        + "; a stack is one tile (`▣ 12`), `b` opens it in place, `C` compares its frames, marking it marks every frame",
                    "stack a camera's bursts as one tile (burst) or not (off, the default)"),
                OptionSpec(
                    "sort", value: "KEY", choices: Arrangement.Sort.allCases.map(\.rawValue),
                    details: Arrangement.Sort.allCases.map { "`\($0.rawValue)`\($0 == .name ? " (default)" : ""): \($0.description)" }.joined(separator: "; "),
                    Arrangement.Sort.allCases.map { "\($0.rawValue)\($0 == .name ? " (default)" : "")" }.joined(separator: ", ")),
                OptionSpec("reverse", short: "r", details: "reverse the order of sections and of items", "reverse the order of sections and items"),
                OptionSpec(
                    "footers",
                    details:
                        "end each section with a line of counts (\"12 marked of 340\"); the section running past the bottom keeps its footer on the last line",
                    "end each section with a line of counts, pinned to the bottom"),
            ]
        ),
        (
            "Picking",
            [
                OptionSpec(
                    "print0", short: "0", details: "end each printed path with NUL instead of a newline", "end each printed path with NUL instead of a newline"),
                OptionSpec(
                    "read0", details: "the list on standard input is NUL-separated, as `find -print0` writes it",
                    "the list on standard input is NUL-separated, as find -print0 writes it"),
                OptionSpec(
                    "multi", short: "m", value: "MAX", optional: true,
                    details: "allow marking (the default), at most MAX items: more is refused with a message", "allow marking (the default), at most MAX items"),
                OptionSpec("no-multi", details: "no marking: Enter prints the photo under the cursor", "no marking: Enter prints the photo under the cursor"),
                OptionSpec(
                    "select-1", short: "1",
                    details:
                        "with exactly one image, print it at once without opening the UI (when the scan takes over a second, the UI opens, and a scan that ends with one image before any key still prints it, as fzf does)",
                    "with exactly one image, print it at once without the UI"),
                OptionSpec("exit-0", details: "with no images, exit 1 at once and say nothing", "with no images, exit 1 at once without a message"),
                OptionSpec(
                    "mark-from", value: "FILE", path: true,
                    details:
                        "pre-mark the paths FILE lists (one a line, or NUL-separated; at most 256 MB), so a long pick can be resumed: `--mark-from picks --marks-file picks`",
                    "pre-mark the paths FILE lists (one a line, or NUL-separated)"),
                OptionSpec(
                    "marks-file", value: "FILE", path: true,
                    details:
                        "keep FILE holding the marks (as they would be printed), rewritten atomically on every change; paths `--mark-from` listed that this run has not found are kept after them, so resuming and quitting early loses none",
                    "keep FILE holding the marks (and the --mark-from paths not found yet), rewritten safely on every change"),
                OptionSpec(
                    "pairs", value: "MODE", choices: Pairing.allCases.map(\.rawValue),
                    details:
                        "files a camera or phone writes together, of one folder and one name stem: a RAW beside its JPG/JPEG/HEIC, a HEIC or JPG beside its MOV (a Live Photo). `together` (default): one tile (the picture, badged `RAW+JPG`, `RAW+HEIC` or `LIVE`; the info panel names the other files), one mark, and accept prints every file, the picture first; `picture`: one tile, accept prints the picture; `apart`: a tile each",
                    "files a camera or phone writes together (RAW+JPEG, Live Photos): together (default: one item, accept prints every file), picture (one item, accept prints its picture) or apart (a tile each)"
                ),
                OptionSpec(
                    "list", value: "EXPR", choices: FilterField.table.map(\.start),
                    details:
                        "print the paths the filter expression given first keeps (as `/` takes it: `rating>=3 !rejected`), in the grid's order, as accept prints them (`-0`, byte for byte), without opening the terminal: `lightbox --list 'rating>=3' card/ \\| xargs -d '\\n' cp -t edit/`; exit 1 when it keeps none",
                    "print the paths the filter expression given first keeps, in the grid's order, and exit"),
                OptionSpec(
                    "sidecar", value: "MODE", choices: SidecarMode.allCases.map(\.rawValue),
                    details:
                        "where a decision goes for a photo without an XMP sidecar: `appended` (default: `IMG_0001.CR2.xmp`, as darktable and digiKam name them, so a RAW and its JPEG stay apart), `replaced` (`IMG_0001.xmp`, as Lightroom, Capture One and Bridge do) or `off` (none made); a sidecar that exists, by either name, is always the one updated",
                    "where decisions go without a sidecar: appended (default, IMG_1.CR2.xmp), replaced (IMG_1.xmp) or off"),
                OptionSpec(
                    "write-sidecars",
                    details:
                        "write the decisions Lightbox kept in its state folder (`$XDG_STATE_HOME/lightbox/sidecars`: made where a photo's folder was read-only, `sidecar` was `off`, a sidecar could not be written into, or the photo was not there, its share not mounted) beside their photos, for the photos under the paths given (all without any), merged into the sidecar that exists or a new one named as `--sidecar` says (`appended` when it says `off`), and exit; each kept copy goes once its decision is beside its photo; exit 1 when some are left",
                    "write the decisions kept in Lightbox's state folder beside their photos (under the paths given, or all), and exit"),
                OptionSpec(
                    "slideshow", value: "SECONDS",
                    details:
                        "open the first photo (the first marked one, with `--mark-from`) full-screen and show the photos one after another, SECONDS each (1 to 60; an animation or a video stays until it has played through once), from the start again after the last; any key pauses it, `s` goes on, `+` and `-` change its pace; `s` in the preview starts one too (4 s each)",
                    "show the photos full-screen one after another, SECONDS each (s in the preview starts one)"),
                OptionSpec(
                    "clipping", value: "SHADOWS,HIGHLIGHTS",
                    details:
                        "the levels (0 to 255) at which `E` in the preview and compare marks pixels as clipped: blue where every channel is at SHADOWS or below, red where any is at HIGHLIGHTS or above (default `5,250`); the histogram (`e`) counts them too; the settings file's `clipping = 5,250`",
                    "levels clipping marks start at (default 5,250: E in the preview marks them)"),
                OptionSpec(
                    "cull", details: "digits rate (`0`-`5`) and label (`6`-`9`) in the grid from the start, as `c` turns on; in the preview they always do",
                    "digits rate and label in the grid from the start (c turns it on and off)"),
                OptionSpec(
                    "no-advance",
                    details:
                        "stay on a photo once it is rated, rejected or labelled (by default the preview and the cull keys move on to the next, as Photo Mechanic and Lightroom do); the settings file's `advance = no`",
                    "stay on a photo after a decision (the preview and the cull keys move on by default)"),
                OptionSpec(
                    "exec", value: "CMD",
                    details:
                        "the command `x` runs, through `/bin/sh -c`: `{}` is the cursor's path and `{+}` the marked paths (or the cursor's), each shell-quoted as fzf does; with neither, the paths are appended as arguments. It runs on the terminal (not on Lightbox's stdout)",
                    "the command x runs: {} is the cursor's path, {+} the marked paths (or the cursor's), shell-quoted; with neither, the paths are appended"),
                OptionSpec(
                    "bind", value: "KEY:exec:CMD",
                    details:
                        "run CMD the same way on KEY (a character, `ctrl-X`, `space`, `enter`, `tab` or `esc`); repeatable; replaces that key's standard action",
                    "run CMD the same way on KEY (a character, ctrl-X, space, enter, tab or esc)"),
            ]
        ),
        (
            "Thumbnails",
            [
                OptionSpec(
                    "cache-mb", value: "N", details: "memory for decoded thumbnails, in MB (default 128)", "memory for decoded thumbnails, in MB (default 128)"),
                OptionSpec(
                    "max-megapixels", value: "N", details: "refuse images over N megapixels, read from the header before decoding (default 100)",
                    "refuse images larger than N megapixels (default 100)"),
                OptionSpec("no-disk-cache", details: "neither read nor write the shared thumbnail cache", "neither read nor write the shared thumbnail cache"),
                OptionSpec(
                    "cache-dir", value: "DIR", path: true, details: "use DIR as the thumbnail cache instead of `$XDG_CACHE_HOME/thumbnails`",
                    "use DIR as the thumbnail cache (default $XDG_CACHE_HOME/thumbnails)"),
                OptionSpec(
                    "decoders", value: "process|thread", choices: ["process", "thread"],
                    details:
                        "decode JPEGs and RAW previews in worker processes (default: a bad file that crashes or hangs a decoder costs that file only; the disk cache and EXIF thumbnails are read by Lightbox's own code) or in threads of this process (all of them with libjpeg-turbo); files that need libvips, LibRaw or FFmpeg are always decoded in `lightbox-decode` processes, the only ones that load those libraries",
                    "process (default: a crash or hang in an image library costs one file) or thread"
                ),
                OptionSpec(
                    "decode-timeout", value: "S", details: "seconds a decoder process may spend on one file before it is replaced (default 5)",
                    "seconds a decoder process may spend on one file (default 5)"),
                OptionSpec(
                    "graphics", value: "MODE", choices: GraphicsChoice.allCases.map(\.rawValue),
                    details: Graphics.optionDetails, Graphics.optionHelp
                ),
                OptionSpec(
                    "read-ahead", value: "all|N|off",
                    details:
                        "while no key comes (half a second), put the rest of the library's thumbnails in the disk cache, nearest the cursor first, in decoders of its own at the lowest CPU priority and in the idle I/O class (one per core on mains power, one on battery: see `--read-ahead-workers`); a key stops it after the files in hand, and it resumes at the next pause. `all` (default), `N` screens either side of the cursor, or `off`. The status line shows `⇣42%` while it runs; `--stats` counts it",
                    "while no key comes, put the rest of the library's thumbnails in the disk cache at idle priority, nearest the cursor first: all of it (the default), N screens either side, or none"
                ),
                OptionSpec(
                    "read-ahead-workers", value: "N|auto",
                    details:
                        "how many read-ahead decoders work at once: `auto` (default) is one per core on mains power and one while the machine runs on its battery (read from `/sys/class/power_supply` each time the read-ahead resumes)",
                    "decoders the read-ahead uses at once (auto, the default: every core on mains power, one on battery)"),
                OptionSpec(
                    "reads", value: "N|auto",
                    details:
                        "how many files the scan opens and sniffs at once, and the metadata reader reads at once: `auto` (default) is 32 when a path given is on a network or FUSE mount (NFS, SMB, sshfs, rclone), so their round trips overlap, and one on a local disk; N (1 to 64) everywhere. What is found keeps its order",
                    "files the scan and the metadata reader read at once (auto, the default: 32 on a network mount, one on a local disk)"),
                OptionSpec(
                    "io", value: "MODE", choices: ReadSpeed.Mode.allCases.map(\.rawValue),
                    details:
                        "whether the photos' link counts as slow: then a tile takes a picture of half its width and height or more when that is smaller to fetch than the file (a JPEG's EXIF thumbnail, a RAW's small preview, a smaller entry of the thumbnail cache), scaled up to fill it, and reads a whole file only when there is none; a picture larger than 512 pixels (the full-screen preview, 100%) still gets what it needs, and the read-ahead still puts full-size thumbnails in the cache while no key comes. `auto` (default) measures the whole-file reads on a network mount (slow below 10 files a second, and before half a second of reading can say, when their first bytes take 100 ms or more; a local disk is never slow), `slow` always, `normal` never. `--stats` says what was measured and how many tiles were smaller",
                    "small sources first on a slow link to the photos: auto (measured on a network mount, the default), slow (always) or normal (never)"),
                OptionSpec(
                    "index", value: "MODE", choices: LibraryIndex.Mode.allCases.map(\.rawValue),
                    details:
                        "keep what the scan and the metadata reader learn of each file (its kind, date, camera, lens, exposure, orientation, shape, a video's length) in a SQLite database in Lightbox's cache folder (`$XDG_CACHE_HOME/lightbox/index.sqlite`, never on the photos' mount), by the file's path, size and modification time: on the next visit a file whose size and time match is recognised from one look at its attributes instead of being opened and sniffed, and its metadata is not read again, so date sections and the filter's fields are complete as soon as the scan is. `on` (default), `read` (use it, never write it: a shared or read-only cache) or `off`. It holds at most 256 MB, forgetting the files used longest ago; a damaged or foreign file there is moved to `index.sqlite.bad` and made anew, with a message; `--stats` says what it saved",
                    "keep what is learned of files between visits (on, the default), only read it (read), or neither (off)"),
                OptionSpec(
                    "index-forget",
                    details:
                        "forget what the index has of the files at and under each PATH (a folder you reorganised, a share gone for good), and exit; exit 1 when it had nothing there",
                    "forget what the index has of the files under each PATH, and exit"),
                OptionSpec(
                    "link-speed", value: "KBIT",
                    details:
                        "the link to the terminal in kbit/s (also `LIGHTBOX_LINK_SPEED`; measured while pictures wait when not given): below 20,000 kitty and iTerm2 pictures go at half their resolution, below 3,000 at a quarter, the terminal scaling them into the same cells; see Over SSH",
                    "the link to the terminal in kbit/s (also LIGHTBOX_LINK_SPEED; else measured while pictures wait): below 20000, kitty and iTerm2 pictures go at half their resolution, below 3000 at a quarter, scaled by the terminal into the same cells"
                ),
                OptionSpec(
                    "warm",
                    details:
                        "fill the thumbnail cache for every image under PATH (in parallel, with a progress line), then exit; Ctrl-C is safe and a rerun resumes",
                    "fill the thumbnail cache for every image under PATH, then exit"),
            ]
        ),
        (
            "Other",
            [
                OptionSpec(
                    "snapshot", value: "WxH",
                    details: "lay out the first screen at W columns by H rows, decode every visible thumbnail, print it as 24-bit ANSI text and exit",
                    "print the first screen at W columns by H rows as ANSI text and exit"),
                OptionSpec(
                    "stats",
                    details:
                        "on exit, print to stderr where the first screen's time went (from the start of `main`, after the system has loaded the program: the scan's first batch (on a network mount, also the first folder listing shown and the walk's first files read), the first paint, the first thumbnail, the screen complete; then the index's library all taken in (on a visit it replays), the scan's end and every decision read), where the thumbnails came from (disk cache, EXIF, DCT, libvips, RAW preview, RAW developed, video frame), what the read-ahead did, how many decodes were cancelled, what pictures cost the terminal, and the memory cache's size",
                    "on exit, print to stderr where the first screen's time went, where thumbnails came from, what the read-ahead did and what pictures cost the terminal"
                ),
                OptionSpec("man", "print the manual page (roff) and exit"),
                OptionSpec("completions", value: "SHELL", choices: ["bash", "zsh", "fish"], "print a completion script for SHELL and exit"),
                OptionSpec("help", short: "h", "show this help"),
                OptionSpec("version", "show the version"),
            ]
        ),
    ]

    public static var all: [OptionSpec] { groups.flatMap(\.options) }
}
