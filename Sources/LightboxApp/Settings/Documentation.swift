import Foundation
import LightboxThumbnails

/// `--help`, the manual page and the shell completions, all made from `OptionTable`, `KeyTable` and `ImageFormat.table`.
public enum Documentation {
    static let summary =
        "Shows the images under PATH (folders recursively; default: the current folder, or the list of paths on standard input when it is not a terminal or PATH is -) as a grid of thumbnails. Mark some and press Enter: their paths are printed to stdout, one per line."
    static let exitCodes = [
        ("0", "accepted: the paths were printed"), ("1", "no images, or nothing accepted"),
        ("2", "an error: a bad option, no terminal, an unknown TERM, a name that cannot be printed, accepted paths that could not be written"),
        ("130", "cancelled (q, Esc, Ctrl-C); 143 for SIGTERM, 129 for SIGHUP"),
    ]

    /// `text` wrapped at `width` columns, each line after the first indented by `indent`.
    static func wrap(_ text: String, width: Int, indent: Int) -> String {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width - indent {
                lines.append(line)
                line = String(word)
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    /// The short, grouped `--help`.
    public static var usage: String {
        var out = "Usage: lightbox [OPTIONS] [PATH...]\n\n" + wrap(summary, width: 96, indent: 0) + "\n"
        for group in OptionTable.groups {
            out += "\n\(group.name):\n"
            for option in group.options {
                let synopsis = "  " + option.synopsis
                let pad = max(1, 28 - synopsis.count)
                out += synopsis + (synopsis.count >= 28 ? "\n" + String(repeating: " ", count: 28) : String(repeating: " ", count: pad))
                out += wrap(option.help, width: 100, indent: 28) + "\n"
            }
        }
        out += "\nKeys: arrows/hjkl move, Space marks, / filters, o previews, Enter accepts, q quits; ? shows them all.\n"
        out += "Exit: " + exitCodes.map { "\($0.0) \($0.1.split(separator: ":").first!.split(separator: ",").first!)" }.joined(separator: ", ") + ".\n"
        out += "Settings: $XDG_CONFIG_HOME/lightbox/config. Manual: man lightbox."
        return out
    }

    /// roff text made safe: backslashes doubled, a leading dot or quote escaped.
    static func roff(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }

    /// The manual page, `lightbox.1`, in roff.
    public static func manPage(version: String) -> String {
        var out = ".TH LIGHTBOX 1 \"\" \"lightbox \(version)\" \"User Commands\"\n"
        out += ".SH NAME\nlightbox \\- look through and pick from a folder of photos in the terminal\n"
        out += ".SH SYNOPSIS\n.B lightbox\n[\\fIOPTIONS\\fR] [\\fIPATH\\fR...]\n"
        out += ".SH DESCRIPTION\n" + roff(summary) + "\n"
        for group in OptionTable.groups {
            out += ".SH \(group.name.uppercased()) OPTIONS\n"
            for option in group.options {
                out += ".TP\n.B " + roff(option.synopsis.trimmingLeadingSpaces) + "\n" + roff(option.help) + "\n"
            }
        }
        func keys(_ table: KeyTable, _ title: String) -> String {
            var text = ".SH \(title)\n"
            for binding in table.bindings {
                let names = binding.keys.map(\.name)
                text += ".TP\n.B " + roff(names.count > 4 ? names.first! + "…" + names.last! : names.joined(separator: " ")) + "\n" + roff(binding.help) + "\n"
            }
            return text
        }
        // What it shows: the kinds of file, from their table.
        out += ".SH KINDS OF FILE\nRecognised by content, not by name; files named as these are and are not are reported.\n"
        for (_, traits) in ImageFormat.table {
            out += ".TP\n.B " + roff(traits.title) + "\n" + roff(traits.extensions.map { "." + $0 }.joined(separator: " ")) + "\n"
        }
        out +=
            ".SH FILTER\nThe / filter keeps the names its words fuzzily match, and these fields; terms separated by spaces must all hold, groups separated by | any, ! before a term turns it round.\n"
        for field in FilterField.table { out += ".TP\n.B " + roff(field.syntax) + "\n" + roff(field.help) + "\n" }
        out += keys(.standard, "KEYS")
        out += keys(.preview, "KEYS IN THE PREVIEW")
        out += keys(.compare, "KEYS IN COMPARE")
        out += ".SH EXIT STATUS\n"
        for (code, meaning) in exitCodes { out += ".TP\n.B \(code)\n" + roff(meaning) + "\n" }
        out += ".SH FILES\n.TP\n.I $XDG_CONFIG_HOME/lightbox/config\nsettings, one key = value a line (see the README)\n"
        out += ".TP\n.I $XDG_CONFIG_HOME/lightbox/key\\-handler\nrun by Ctrl\\-x and a key, with the selection on its standard input\n"
        out += ".TP\n.I $XDG_CACHE_HOME/thumbnails/\nthe shared freedesktop.org thumbnail cache\n"
        out += ".TP\n.I PHOTO.xmp\nthe XMP sidecar beside a photo (or PHOTO without its extension, .xmp): ratings, rejects and labels, read and written\n"
        out += ".TP\n.I $XDG_STATE_HOME/lightbox/sidecars/\n"
        out += "decisions that could not go beside their photos (read\\-only folders, sidecar = off), until \\-\\-write\\-sidecars\n"
        out += ".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nthe interface's text without colour (thumbnails keep theirs)\n"
        out += ".TP\n.B LIGHTBOX_GRAPHICS\nthe picture mode, as \\-\\-graphics (which wins over it; it wins over the settings file)\n"
        out += ".TP\n.B TMUX, KITTY_WINDOW_ID, TERM_PROGRAM\ninside tmux, whether the outer terminal has kitty graphics\n"
        out += ".SH EXAMPLES\n.TP\n.B lightbox \\-\\-bind 'p:exec:mpv {}' ~/DCIM\nplay the video under the cursor with p, in mpv\n"
        out += ".TP\n.B lightbox \\-\\-pairs picture card/ > picked\nprint the JPEGs of the RAW+JPEG pairs marked, not their RAWs\n"
        out += ".SH SEE ALSO\n.BR fzf (1),\n.BR nsxiv (1),\n.BR mpv (1)\n"
        return out
    }

    /// A completion script for `shell` (bash, zsh or fish), or nil for another shell.
    public static func completions(for shell: String) -> String? {
        let options = OptionTable.all
        switch shell {
        case "bash":
            var out = "# bash completion for lightbox (made by lightbox --completions bash)\n_lightbox() {\n"
            out += "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n    case \"$prev\" in\n"
            for option in options where option.value != nil && !option.isValueOptional {
                if !option.choices.isEmpty {
                    out += "        --\(option.long)) COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                } else if option.takesPath {
                    out += "        --\(option.long)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                } else {
                    out += "        --\(option.long)) return ;;\n"
                }
            }
            out += "    esac\n    if [[ \"$cur\" == -* ]]; then\n"
            let words = options.flatMap { option in ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? []) }
            out += "        COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))\n"
            out += "    else\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n    fi\n}\ncomplete -o filenames -F _lightbox lightbox\n"
            return out
        case "zsh":
            var out = "#compdef lightbox\n# zsh completion for lightbox (made by lightbox --completions zsh)\n_arguments -s \\\n"
            for option in options {
                let help = option.help.replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
                    .replacingOccurrences(of: ":", with: " ")
                var action = ""
                if let value = option.value {
                    action =
                        ":\(value.lowercased().replacingOccurrences(of: ":", with: " ")):"
                        + (!option.choices.isEmpty ? "(\(option.choices.joined(separator: " ")))" : option.takesPath ? "_files" : " ")
                }
                let long = "--\(option.long)" + (option.value != nil && option.isValueOptional ? "=-" : option.value != nil ? "=" : "")
                if let short = option.short {
                    out += "  '(-\(short) --\(option.long))'{-\(short),\(long)}'[\(help)]\(action)' \\\n"
                } else {
                    out += "  '\(long)[\(help)]\(action)' \\\n"
                }
            }
            out += "  '*:path:_files'\n"
            return out
        case "fish":
            var out = "# fish completion for lightbox (made by lightbox --completions fish)\n"
            for option in options {
                out += "complete -c lightbox -l \(option.long)"
                if let short = option.short { out += " -s \(short)" }
                if option.value != nil && !option.isValueOptional {
                    out += option.choices.isEmpty ? (option.takesPath ? " -r -F" : " -r") : " -x -a '\(option.choices.joined(separator: " "))'"
                }
                out += " -d '\(option.help.replacingOccurrences(of: "'", with: "\\'").prefix(80))'\n"
            }
            return out
        default:
            return nil
        }
    }
}

extension String {
    var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
