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

    public init(
        _ long: String, short: Character? = nil, value: String? = nil, optional: Bool = false,
        choices: [String] = [], path: Bool = false, _ help: String
    ) {
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
                    "N equal columns, or a comma list of adaptive[:MIN[-MAX]], flexible[:MIN[-MAX]] and fixed:W, each optionally :leading, :center or :trailing (cells; default adaptive:16-24)"
                ),
                OptionSpec("spacing", value: "ROW,COL", "blank lines between rows and cells between columns (default 1,2)"),
                OptionSpec(
                    "layout", value: "MODE", choices: LayoutMode.allCases.map(\.rawValue),
                    "grid (default), masonry (tiles at their pictures' shapes) or strip (rows scrolling sideways)"),
                OptionSpec(
                    "sections", value: "KIND", choices: Arrangement.Sections.allCases.map(\.rawValue),
                    "one section per folder (default), day taken, month, year, or none"),
                OptionSpec(
                    "sort", value: "KEY", choices: Arrangement.Sort.allCases.map(\.rawValue),
                    "name (default: by path, naturally), date (taken, else modified), mtime or size"),
                OptionSpec("reverse", short: "r", "reverse the order of sections and items"),
                OptionSpec("footers", "end each section with a line of counts, pinned to the bottom"),
            ]
        ),
        (
            "Picking",
            [
                OptionSpec("print0", short: "0", "end each printed path with NUL instead of a newline"),
                OptionSpec("read0", "the list on standard input is NUL-separated, as find -print0 writes it"),
                OptionSpec("multi", short: "m", value: "MAX", optional: true, "allow marking (the default), at most MAX items"),
                OptionSpec("no-multi", "no marking: Enter prints the photo under the cursor"),
                OptionSpec("select-1", short: "1", "with exactly one image, print it at once without the UI"),
                OptionSpec("exit-0", "with no images, exit 1 at once without a message"),
                OptionSpec("mark-from", value: "FILE", path: true, "pre-mark the paths FILE lists (one a line, or NUL-separated)"),
                OptionSpec(
                    "marks-file", value: "FILE", path: true,
                    "keep FILE holding the marks (and the --mark-from paths not found yet), rewritten safely on every change"),
                OptionSpec(
                    "pairs", value: "MODE", choices: Pairing.allCases.map(\.rawValue),
                    "files a camera or phone writes together (RAW+JPEG, Live Photos): together (default: one item, accept prints every file), picture (one item, accept prints its picture) or apart (a tile each)"
                ),
                OptionSpec(
                    "exec", value: "CMD",
                    "the command x runs: {} is the cursor's path, {+} the marked paths (or the cursor's), shell-quoted; with neither, the paths are appended"),
                OptionSpec("bind", value: "KEY:exec:CMD", "run CMD the same way on KEY (a character, ctrl-X, space, enter, tab or esc)"),
            ]
        ),
        (
            "Thumbnails",
            [
                OptionSpec("cache-mb", value: "N", "memory for decoded thumbnails, in MB (default 128)"),
                OptionSpec("max-megapixels", value: "N", "refuse images larger than N megapixels (default 100)"),
                OptionSpec("no-disk-cache", "neither read nor write the shared thumbnail cache"),
                OptionSpec("cache-dir", value: "DIR", path: true, "use DIR as the thumbnail cache (default $XDG_CACHE_HOME/thumbnails)"),
                OptionSpec(
                    "decoders", value: "KIND", choices: ["process", "thread"], "process (default: a crash or hang in an image library costs one file) or thread"
                ),
                OptionSpec("decode-timeout", value: "S", "seconds a decoder process may spend on one file (default 5)"),
                OptionSpec(
                    "graphics", value: "MODE", choices: GraphicsChoice.allCases.map(\.rawValue),
                    "draw pictures with kitty graphics, iTerm2 images (iterm), sixel, or sextant, quadrant, half, braille or ascii symbols; auto (default) asks the terminal; t cycles them"
                ),
                OptionSpec(
                    "read-ahead", value: "all|N|off",
                    "while no key comes, put the rest of the library's thumbnails in the disk cache at idle priority, nearest the cursor first: all of it (the default), N screens either side, or none"
                ),
                OptionSpec(
                    "read-ahead-workers", value: "N", "decoders the read-ahead uses at once (auto, the default: every core on mains power, one on battery)"),
                OptionSpec(
                    "link-speed", value: "KBIT",
                    "the link to the terminal in kbit/s (also LIGHTBOX_LINK_SPEED; else measured while pictures wait): below 20000, kitty and iTerm2 pictures go at half their resolution, below 3000 at a quarter, scaled by the terminal into the same cells"
                ),
                OptionSpec("warm", "fill the thumbnail cache for every image under PATH, then exit"),
            ]
        ),
        (
            "Other",
            [
                OptionSpec("snapshot", value: "WxH", "print the first screen at W columns by H rows as ANSI text and exit"),
                OptionSpec(
                    "stats",
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
