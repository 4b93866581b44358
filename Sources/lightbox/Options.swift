import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// What the command line asked for.
struct Options {
    var paths: [ImagePath] = []
    /// Read the paths from standard input (`-`, or no path with standard input not a terminal).
    var readsStandardInput = false
    /// The list's first bytes, read before the scan starts (`peekList`).
    var listPrefix: [UInt8] = []
    /// Input records end in NUL rather than newline.
    var readsNul = false
    /// How many items may be marked (`--multi=MAX`); nil for any number.
    var markLimit: Int? = nil
    /// `--no-multi`: no marks; Enter returns the cursor item.
    var allowsMarks = true
    /// `--select-1`: one image found is printed; see `selectOneWait`.
    var selectsOnlyItem = false
    /// Seconds `--select-1` waits for the scan before the UI opens (a scan that ends with one
    /// image later, before any key, still prints it).
    static let selectOneWait = 1.0
    var exitsQuietlyWhenEmpty = false
    var markFrom: ImagePath? = nil
    var marksFile: ImagePath? = nil
    /// Keys bound to commands and actions (the settings file, `--bind`, `--exec`).
    var commandBindings: [KeyBinding] = []
    /// Lines of the settings file that could not be read.
    var configurationProblems: [String] = []
    /// Whether the settings file names the terminal's background (then its answer is not used).
    var backgroundIsSet = false
    /// The UI's colours, from the settings file and the environment.
    var theme = Theme.standard
    var spec: GridSpec = .standard
    var arrangement = Arrangement()
    var showsFooters = false
    var layoutMode = LayoutMode.grid
    var pairing = Pairing.together
    /// Where decisions go for a photo without a sidecar (`--sidecar`, `sidecar =`).
    var sidecarMode = SidecarMode.appended
    /// Where decisions go: sidecars as `sidecarMode` names them, else Lightbox's state folder.
    var sidecarPolicy: SidecarPolicy { SidecarPolicy(mode: sidecarMode, keptRoot: SidecarPolicy.defaultKeptRoot()) }
    /// Whether digits rate and label in the grid from the start (`--cull`).
    var cullKeys = false
    /// Whether a decision moves on to the next photo (`--no-advance`, `advance =`).
    var advances = true
    /// `--clipping SHADOWS,HIGHLIGHTS`: where the clipping marks start.
    var clipping = ClippingThresholds()
    /// `--slideshow SECONDS`: a slideshow from the start, a photo that long.
    var slideshowDelay: Double?
    var readAhead = ReadAhead.Extent.all
    /// Read-ahead decoders at once; nil: every core on mains power, one on battery.
    var readAheadWorkers: Int?
    /// Files the scan and the metadata reader read at once (`--reads`); nil: `auto`.
    var readsInFlight: Int?
    /// `--io`: whether the photos' link counts as slow (small sources first), or is measured.
    var io = ReadSpeed.Mode.auto
    /// `--index`: whether what is learned of files is kept between visits, and read back.
    var indexMode = LibraryIndex.Mode.on
    /// `--index-forget`: forget what the index has of the paths given, and exit.
    var forgetsIndex = false
    /// The index, once opened (`openIndex`).
    var index: LibraryIndex?
    var linkSpeed: Int?
    var graphics = GraphicsChoice.auto
    var printsNul = false
    var snapshotSize: (width: Int, height: Int)? = nil
    var cacheBytes = 128 << 20
    var pixelLimit = 100_000_000
    var usesDiskCache = true
    var cacheDirectory: ImagePath? = nil
    var printsStatistics = false
    var warms = false
    /// `--list`: print what the filter expression (the first argument) keeps, and exit.
    var lists = false
    /// `--write-sidecars`: write the decisions kept in the state folder beside their photos, and exit.
    var writesSidecars = false
    /// Decode in worker processes (the default) or in threads of this process.
    var decodesInProcesses = true
    var decodeTimeLimit = 5.0
    var showsHelp = false
    var showsVersion = false
    var showsManual = false
    /// `--completions SHELL`.
    var completionShell: String? = nil

    struct UsageError: Error, CustomStringConvertible { var description: String }

    /// `--help`, made from the option table.
    static var usage: String { Documentation.usage }

    /// Parses raw argument bytes (paths must not pass through a lossy String conversion).
    static func parse(_ arguments: [[UInt8]], configuration: Configuration = Configuration()) throws -> Options {
        var options = Options()
        // The settings file first; the command line wins.
        if let spec = configuration.spec { options.spec = spec }
        if let mode = configuration.layoutMode { options.layoutMode = mode }
        if let sections = configuration.sections { options.arrangement.sections = sections }
        if let stacks = configuration.stacks { options.arrangement.stacks = stacks }
        if let sort = configuration.sort { options.arrangement.sort = sort }
        if let reversed = configuration.isReversed { options.arrangement.isReversed = reversed }
        if let footers = configuration.showsFooters { options.showsFooters = footers }
        if let pairing = configuration.pairing { options.pairing = pairing }
        if let mode = configuration.sidecarMode { options.sidecarMode = mode }
        if let advances = configuration.advances { options.advances = advances }
        if let clipping = configuration.clipping { options.clipping = clipping }
        if let readAhead = configuration.readAhead { options.readAhead = readAhead }
        if let workers = configuration.readAheadWorkers { options.readAheadWorkers = workers }
        if let reads = configuration.readsInFlight { options.readsInFlight = reads }
        if let io = configuration.io { options.io = io }
        if let mode = configuration.indexMode { options.indexMode = mode }
        if let graphics = configuration.graphics { options.graphics = graphics }
        // LIGHTBOX_GRAPHICS over the settings file, the command line over both.
        if let name = getenv("LIGHTBOX_GRAPHICS").map({ String(cString: $0) }), !name.isEmpty {
            options.graphics = try parseChoice(name, name: "LIGHTBOX_GRAPHICS")
        }
        if let speed = getenv("LIGHTBOX_LINK_SPEED").map({ String(cString: $0) }), !speed.isEmpty {
            options.linkSpeed = try parseNumber(speed, name: "LIGHTBOX_LINK_SPEED", in: 1...100_000_000)
        }
        options.commandBindings = configuration.bindings
        options.configurationProblems = configuration.problems
        options.backgroundIsSet = configuration.background != nil
        var index = 0
        var onlyPaths = false
        func value(for name: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            return String(decoding: arguments[index], as: UTF8.self)
        }
        while index < arguments.count {
            let raw = arguments[index]
            let text = String(decoding: raw, as: UTF8.self)
            if onlyPaths || !text.hasPrefix("-") || text == "-" {
                options.paths.append(ImagePath(bytes: raw))
            } else {
                var name = text, inline: String? = nil
                if text.hasPrefix("--"), let eq = text.firstIndex(of: "=") {
                    name = String(text[..<eq]); inline = String(text[text.index(after: eq)...])
                }
                func argument() throws -> String { if let inline { return inline }; return try value(for: name) }
                switch name {
                case "--": onlyPaths = true
                case "-c", "--columns": options.spec = try parseColumns(try argument(), spacing: options.spec)
                case "--spacing": options.spec = try parseSpacing(try argument(), columns: options.spec)
                case "--sort": options.arrangement.sort = try parseChoice(try argument(), name: name)
                case "--sections": options.arrangement.sections = try parseChoice(try argument(), name: name)
                case "--stacks": options.arrangement.stacks = try parseChoice(try argument(), name: name)
                case "-r", "--reverse": options.arrangement.isReversed = true
                case "--footers": options.showsFooters = true
                case "--layout": options.layoutMode = try parseChoice(try argument(), name: name)
                case "--pairs": options.pairing = try parseChoice(try argument(), name: name)
                case "--sidecar": options.sidecarMode = try parseChoice(try argument(), name: name)
                case "--cull": options.cullKeys = true
                case "--no-advance": options.advances = false
                case "--clipping":
                    let text = try argument()
                    guard let clipping = ClippingThresholds(parsing: text) else {
                        throw UsageError(description: "\(name): '\(DisplayText.sanitized(text))' is not SHADOWS,HIGHLIGHTS (levels 0 to 255, as 5,250)")
                    }
                    options.clipping = clipping
                case "--slideshow": options.slideshowDelay = Double(try parseNumber(try argument(), name: name, in: 1...60))
                case "--graphics": options.graphics = try parseChoice(try argument(), name: name)
                case "-0", "--print0": options.printsNul = true
                case "--read0": options.readsNul = true
                case "-m", "--multi":
                    options.allowsMarks = true
                    options.markLimit = try inline.map { try parseNumber($0, name: name, in: 1...Int(Int32.max)) }
                case "--no-multi": options.allowsMarks = false
                case "-1", "--select-1": options.selectsOnlyItem = true
                case "--exit-0": options.exitsQuietlyWhenEmpty = true
                case "--bind": options.commandBindings.append(try parseBinding(try argument()))
                case "--exec":
                    let command = try argument()
                    options.commandBindings.append(KeyBinding([.character("x")], .exec(command), "run: " + command))
                case "--mark-from": options.markFrom = try pathArgument(inline, for: name)
                case "--marks-file": options.marksFile = try pathArgument(inline, for: name)
                case "--snapshot": options.snapshotSize = try parseSize(try argument())
                case "--link-speed": options.linkSpeed = try parseNumber(try argument(), name: name, in: 1...100_000_000)
                case "--cache-mb": options.cacheBytes = try parseNumber(try argument(), name: name, in: 1...65536) << 20
                case "--max-megapixels": options.pixelLimit = try parseNumber(try argument(), name: name, in: 1...100_000) * 1_000_000
                case "--no-disk-cache": options.usesDiskCache = false
                case "--cache-dir": options.cacheDirectory = try pathArgument(inline, for: name)
                case "--stats": options.printsStatistics = true
                case "--warm": options.warms = true
                case "--list": options.lists = true
                case "--write-sidecars": options.writesSidecars = true
                case "--index-forget": options.forgetsIndex = true
                case "--index": options.indexMode = try parseChoice(try argument(), name: name)
                case "--io": options.io = try parseChoice(try argument(), name: name)
                case "--decoders":
                    switch try argument() {
                    case "process": options.decodesInProcesses = true
                    case "thread": options.decodesInProcesses = false
                    case let other: throw UsageError(description: "--decoders: '\(other)' is neither process nor thread")
                    }
                case "--decode-timeout": options.decodeTimeLimit = Double(try parseNumber(try argument(), name: name, in: 1...600))
                case "--read-ahead":
                    let value = try argument()
                    do { options.readAhead = try ReadAhead.extent(setting: value) } catch { throw UsageError(description: "\(name): \(error)") }
                case "--reads":
                    let value = try argument()
                    do { options.readsInFlight = try ReadAhead.count(setting: value) } catch { throw UsageError(description: "\(name): \(error)") }
                case "--read-ahead-workers":
                    let value = try argument()
                    do { options.readAheadWorkers = try ReadAhead.count(setting: value) } catch { throw UsageError(description: "\(name): \(error)") }
                case "-h", "--help": options.showsHelp = true
                case "--version": options.showsVersion = true
                case "--man": options.showsManual = true
                case "--completions":
                    let shell = try argument()
                    guard Documentation.completions(for: shell) != nil else {
                        throw UsageError(description: "--completions: '\(shell)' is not bash, zsh or fish")
                    }
                    options.completionShell = shell
                default: throw UsageError(description: "unknown option '\(text)'")
                }
            }
            index += 1
        }
        // With --list the first word is its expression, not a path: the rule is the paths' after it.
        let expression = options.lists ? Array(options.paths.prefix(1)) : []
        let given = Array(options.paths.dropFirst(expression.count))
        if given == [ImagePath("-")] || (given.isEmpty && isatty(0) == 0) {
            options.readsStandardInput = true
            options.paths = expression
        } else if given.isEmpty && (!options.lists || !expression.isEmpty) {
            options.paths = expression + [ImagePath(".")]
        }
        return options

        /// A path option's value as the kernel gave it (no lossy String).
        /// A path, as bytes: `--name=PATH` or `--name PATH`.
        func pathArgument(_ inline: String?, for name: String) throws -> ImagePath {
            if inline != nil {
                let raw = arguments[index]
                let value = raw[(raw.firstIndex(of: UInt8(ascii: "="))! + 1)...]
                guard !value.isEmpty else { throw UsageError(description: "\(name) needs a path") }
                return ImagePath(bytes: Array(value))
            }
            index += 1
            guard index < arguments.count, !arguments[index].isEmpty else { throw UsageError(description: "\(name) needs a path") }
            return ImagePath(bytes: arguments[index])
        }
    }

    /// A column spec (see `GridSpec(parsing:)`), keeping the spacing already set.
    static func parseColumns(_ text: String, spacing spec: GridSpec) throws -> GridSpec {
        do {
            return try GridSpec(parsing: text, rowSpacing: spec.rowSpacing, columnSpacing: spec.columnSpacing)
        } catch {
            throw UsageError(description: "--columns: \(error)")
        }
    }

    /// `ROW,COL` spacing, keeping the columns already set.
    static func parseSpacing(_ text: String, columns spec: GridSpec) throws -> GridSpec {
        do {
            let spacing = try GridSpec.spacing(parsing: text)
            return GridSpec(columns: spec.columns, rowSpacing: spacing.row, columnSpacing: spacing.column)
        } catch {
            throw UsageError(description: "--spacing: \(error)")
        }
    }

    /// `KEY:exec:COMMAND`, KEY as `KeyTable.key(named:)` reads it.
    static func parseBinding(_ text: String) throws -> KeyBinding {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[1] == "exec", !parts[2].isEmpty else {
            throw UsageError(description: "--bind: '\(text)' is not KEY:exec:COMMAND")
        }
        guard let key = KeyTable.key(named: parts[0]) else {
            throw UsageError(description: "--bind: '\(parts[0])' is not a key (a character, ctrl-X, space, enter, tab or esc)")
        }
        return KeyBinding([key], .exec(parts[2]), "run: " + parts[2])
    }

    /// The standard keys with the user's command bindings over them.
    var keyTable: KeyTable { commandBindings.isEmpty ? .standard : KeyTable.standard.adding(commandBindings) }

    /// One of an enumeration's names, as `date` for `--sort`.
    static func parseChoice<T: RawRepresentable & CaseIterable>(_ text: String, name: String) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: text) else {
            throw UsageError(description: "\(name): '\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// `WxH`, as `160x48`.
    static func parseSize(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...10000).contains(w), (1...10000).contains(h) else {
            throw UsageError(description: "--snapshot: '\(text)' is not COLUMNSxROWS, as 160x48")
        }
        return (w, h)
    }

    static func parseNumber(_ text: String, name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw UsageError(description: "\(name): '\(text)' is not a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }
}
