import Foundation
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails

/// The settings file, `$XDG_CONFIG_HOME/lightbox/config`: one `key = value` a line, `#` starts a
/// comment. Command-line options win over it. A line that cannot be read is reported with its
/// number and skipped; nothing in the file can stop Lightbox from starting. Its keys, with an
/// example of each, are `SettingTable`'s.
public struct Configuration: Sendable {
    public var spec: GridSpec?
    public var layoutMode: LayoutMode?
    public var sections: Arrangement.Sections?
    public var sort: Arrangement.Sort?
    public var isReversed: Bool?
    public var showsFooters: Bool?
    public var pairing: Pairing?
    /// Where decisions go for a photo without a sidecar.
    public var sidecarMode: SidecarMode?
    /// Whether a decision moves on to the next photo (the preview and the cull keys).
    public var advances: Bool?
    /// Whether bursts are stacked (`stacks = burst`).
    public var stacks: Arrangement.Stacks?
    /// Where the clipping marks start (`clipping = 5,250`).
    public var clipping: ClippingThresholds?
    public var readAhead: ReadAhead.Extent?
    /// Decoders for the read-ahead: nil in the file or `auto` both mean one on battery, every core on mains.
    public var readAheadWorkers: Int?
    /// Files read at once by the scan and the metadata reader: nil (`auto`) is many on a network mount, one on a local disk.
    public var readsInFlight: Int?
    /// Whether the photos' link counts as slow (`io = auto|slow|normal`).
    public var io: ReadSpeed.Mode?
    /// Whether the index is kept and read (`index = on|read|off`).
    public var indexMode: LibraryIndex.Mode?
    public var graphics: GraphicsChoice?
    public var bindings: [KeyBinding] = []
    /// Colours by slot name, as red, green, blue.
    public var colors: [String: (UInt8, UInt8, UInt8)] = [:]
    /// The terminal's background, when the file says (`light`, `dark` or `#rrggbb`): it wins over
    /// what the terminal answers, for terminals that cannot (tmux 3.3 does not pass the question on).
    public var background: RGB?
    /// What could not be read, as "config line N: …".
    public var problems: [String] = []
    /// The largest settings file read: one larger is not used at all (and that is said).
    public static let byteLimit = 1 << 20

    public init() {}

    /// Reads the text of a settings file.
    /// - Complexity: O(*n*) in its length.
    public init(parsing text: String) {
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(rawLine).trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.isEmpty { continue }
            // A comment runs from " # " to the end (a colour's "#" is not one), except in a command.
            if !line.contains(":exec:"), let comment = line.range(of: " # ") ?? (line.hasSuffix(" #") ? line.range(of: " #", options: .backwards) : nil) {
                line = String(line[..<comment.lowerBound]).trimmingCharacters(in: .whitespaces)
            }
            do {
                try read(line)
            } catch let error as ConfigurationError {
                problems.append("config line \(number + 1): \(error.message)")
            } catch {}
        }
    }

    struct ConfigurationError: Error { var message: String }

    mutating func read(_ line: String) throws {
        guard let equals = line.firstIndex(of: "=") else { throw ConfigurationError(message: "not key = value: '\(line)'") }
        let key = line[..<equals].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard SettingTable.row(of: key) != nil else { throw ConfigurationError(message: "unknown setting '\(key)'") }
        func choice<T: RawRepresentable & CaseIterable>(_: T.Type) throws -> T where T.RawValue == String {
            guard let parsed = T(rawValue: value) else {
                throw ConfigurationError(message: "\(key): '\(value)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return parsed
        }
        func yesNo() throws -> Bool {
            switch value.lowercased() {
            case "yes", "true", "on", "1": return true
            case "no", "false", "off", "0": return false
            default: throw ConfigurationError(message: "\(key): '\(value)' is not yes or no")
            }
        }
        switch key {
        case "columns":
            do { spec = try GridSpec(parsing: value, rowSpacing: spec?.rowSpacing ?? 1, columnSpacing: spec?.columnSpacing ?? 2) } catch {
                throw ConfigurationError(message: "columns: \(error)")
            }
        case "spacing":
            do {
                let spacing = try GridSpec.spacing(parsing: value)
                spec = GridSpec(columns: (spec ?? .standard).columns, rowSpacing: spacing.row, columnSpacing: spacing.column)
            } catch { throw ConfigurationError(message: "spacing: \(error)") }
        case "layout": layoutMode = try choice(LayoutMode.self)
        case "sections": sections = try choice(Arrangement.Sections.self)
        case "stacks": stacks = try choice(Arrangement.Stacks.self)
        case "sort": sort = try choice(Arrangement.Sort.self)
        case "reverse": isReversed = try yesNo()
        case "footers": showsFooters = try yesNo()
        case "pairs": pairing = try choice(Pairing.self)
        case "sidecar": sidecarMode = try choice(SidecarMode.self)
        case "advance": advances = try yesNo()
        case "clipping":
            guard let read = ClippingThresholds(parsing: value) else {
                throw ConfigurationError(message: "clipping: '\(value)' is not SHADOWS,HIGHLIGHTS (levels 0 to 255, as 5,250)")
            }
            clipping = read
        case "read-ahead":
            do { readAhead = try ReadAhead.extent(setting: value) } catch { throw ConfigurationError(message: "\(key): \(error)") }
        case "reads":
            do { readsInFlight = try ReadAhead.count(setting: value) } catch { throw ConfigurationError(message: "\(key): \(error)") }
        case "io": io = try choice(ReadSpeed.Mode.self)
        case "index": indexMode = try choice(LibraryIndex.Mode.self)
        case "read-ahead-workers":
            do { readAheadWorkers = try ReadAhead.count(setting: value) } catch { throw ConfigurationError(message: "\(key): \(error)") }
        case "graphics": graphics = try choice(GraphicsChoice.self)
        case "bind": bindings.append(try Self.binding(value))
        case "background":
            switch value {
            case "auto": background = nil
            case "light": background = RGB(255, 255, 255)
            case "dark": background = RGB(0, 0, 0)
            default:
                guard let rgb = Self.color(value) else { throw ConfigurationError(message: "background: '\(value)' is not auto, light, dark or #rrggbb") }
                background = RGB(rgb.0, rgb.1, rgb.2)
            }
        default:
            if key.hasPrefix("color.") {
                let slot = String(key.dropFirst("color.".count))
                guard Self.colorSlots.contains(slot) else {
                    throw ConfigurationError(message: "unknown colour '\(slot)'; use \(Self.colorSlots.joined(separator: ", "))")
                }
                guard let rgb = Self.color(value) else { throw ConfigurationError(message: "\(key): '\(value)' is not #rrggbb") }
                colors[slot] = rgb
            } else {
                throw ConfigurationError(message: "unknown setting '\(key)'")
            }
        }
    }

    /// The colours the UI lets the settings change.
    public static let colorSlots = ["accent", "mark", "header", "status", "overlay"]

    static func color(_ text: String) -> (UInt8, UInt8, UInt8)? {
        guard text.count == 7, text.first == "#", let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    /// `KEY:ACTION` or `KEY:exec:COMMAND`.
    public static func binding(_ text: String) throws -> KeyBinding {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex || text.hasPrefix("::") else {
            throw ConfigurationError(message: "bind: '\(text)' is not KEY:ACTION or KEY:exec:COMMAND")
        }
        // A key may itself be ":".
        let keyEnd = text.hasPrefix("::") ? text.index(after: text.startIndex) : colon
        let keyText = String(text[..<keyEnd])
        let rest = String(text[text.index(after: keyEnd)...])
        guard let key = KeyTable.key(named: keyText) else {
            throw ConfigurationError(message: "bind: '\(keyText)' is not a key (a character, ctrl-X, space, enter, tab, esc)")
        }
        if rest.hasPrefix("exec:") {
            let command = String(rest.dropFirst("exec:".count))
            guard !command.isEmpty else { throw ConfigurationError(message: "bind: no command after exec:") }
            return KeyBinding([key], .exec(command), "run: " + command)
        }
        guard let command = CommandTable.bindable[rest] else {
            throw ConfigurationError(message: "bind: unknown action '\(rest)'; see the README for the names")
        }
        return KeyBinding([key], command, CommandTable.row(of: command).help)
    }
}
