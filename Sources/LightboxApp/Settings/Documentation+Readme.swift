import LightboxThumbnails

extension Documentation {
    /// The README's generated parts by name: each stands between `<!-- generated: NAME -->` and
    /// `<!-- end -->`, written by `make docs` and checked by `make lint`.
    public static var readmeParts: [(name: String, text: String)] {
        [
            ("options", optionsTable),
            ("keys", keysTable(.standard)),
            ("preview-keys", keysTable(.preview)),
            ("compare-keys", keysTable(.compare)),
            ("mouse", mouseTable),
            ("bind-names", CommandTable.rows.filter { $0.traits.contains(.bindable) }.map { "`\($0.name)`" }.joined(separator: " ")),
            ("kinds", kindsTable),
            ("filter-fields", filterFieldsTable),
            ("settings", SettingTable.example),
        ]
    }

    /// `text` made safe for a cell of a Markdown table.
    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    /// Every option, with what the README says of it (its details, else its help).
    static var optionsTable: String {
        var out = "| option | meaning |\n| --- | --- |\n"
        for option in OptionTable.all {
            let names = (option.short.map { "`-\($0)`, " } ?? "") + "`--" + option.long
            let value = option.value.map { option.isValueOptional ? "[=\($0)]" : " \($0)" } ?? ""
            out += "| " + cell(names + value + "`") + " | " + cell(option.details ?? option.help) + " |\n"
        }
        return out
    }

    /// A key table's bindings: a run of keys (the digits) shows as its ends.
    static func keysTable(_ table: KeyTable) -> String {
        var out = "| keys | what they do |\n| --- | --- |\n"
        for binding in table.bindings {
            let names = binding.keys.map(\.name)
            let shown = names.count > 4 ? ["\(names.first!)…\(names.last!)"] : names
            out += "| " + cell(shown.map { "`\($0)`" }.joined(separator: " ")) + " | " + cell(binding.help) + " |\n"
        }
        return out
    }

    /// The mouse's bindings.
    static var mouseTable: String {
        var out = "| gesture | what it does |\n| --- | --- |\n"
        for binding in MouseTable.standard.bindings {
            let modifier = binding.modifier == .shift ? "Shift-" : binding.modifier == .control ? "Ctrl-" : ""
            let gesture: String
            switch binding.gesture {
            case .press: gesture = "click"
            case .doublePress: gesture = "double click"
            case .wheelUp: gesture = "wheel up"
            case .wheelDown: gesture = "wheel down"
            case .drag: gesture = "drag"
            }
            out += "| " + modifier + gesture + " | " + cell(binding.help) + " |\n"
        }
        return out
    }

    /// The filter's fields, from their table.
    static var filterFieldsTable: String {
        var out = "| field | what it keeps |\n| --- | --- |\n"
        for field in FilterField.table {
            out +=
                "| " + cell(field.syntax.split(separator: ",").map { "`\($0.trimmingCharacters(in: .whitespaces))`" }.joined(separator: " ")) + " | "
                + cell(field.help) + " |\n"
        }
        return out
    }

    /// The kinds of file, from their table.
    static var kindsTable: String {
        var out = "| kind | names |\n| --- | --- |\n"
        for (_, traits) in ImageFormat.table {
            out += "| " + cell(traits.title) + " | " + cell(traits.extensions.map { "`.\($0)`" }.joined(separator: " ")) + " |\n"
        }
        return out
    }

    /// `readme` with each generated part as the tables say now; the names of markers it has with
    /// no part, or parts with no marker, in `problems`.
    public static func updatingReadme(_ readme: String) -> (text: String, problems: [String]) {
        var text = readme, problems: [String] = []
        for (name, part) in readmeParts {
            let open = "<!-- generated: \(name) -->\n", close = "<!-- end -->"
            guard let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex) else {
                problems.append("README.md has no <!-- generated: \(name) --> … <!-- end --> for the \(name) table")
                continue
            }
            text.replaceSubrange(start.upperBound..<end.lowerBound, with: part.hasSuffix("\n") ? part : part + "\n")
        }
        return (text, problems)
    }
}
