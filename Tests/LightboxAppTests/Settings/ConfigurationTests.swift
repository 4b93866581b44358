import LightboxApp
import LightboxLayout
import LightboxTerminal
import Testing

@Test func theSettingsFileIsReadAndBadLinesAreReportedByNumber() {
    let text = """
        # a comment
        columns = fixed:12:leading,flexible   # trailing comment
        spacing = 0,1
        layout = masonry
        sections = month
        sort = date
        reverse = yes
        footers = on
        graphics = braille
        bind = J:next-section
        bind = x:exec:printf '#%s\\n' {+}
        color.accent = #ff8800

        colums = 3
        layout = sideways
        bind = J:fly
        color.accent = orange
        just words
        """
    let configuration = Configuration(parsing: text)
    #expect(
        configuration.spec
            == GridSpec(
                columns: [GridItem(.fixed(12), alignment: .leading), GridItem(.flexible(minimum: 1, maximum: Int.max))],
                rowSpacing: 0, columnSpacing: 1))
    #expect(configuration.layoutMode == .masonry && configuration.sections == .month && configuration.sort == .date)
    #expect(configuration.isReversed == true && configuration.showsFooters == true && configuration.graphics == .mode(.braille))
    #expect(configuration.bindings.map(\.command) == [.move(.nextSection), .exec("printf '#%s\\n' {+}")])
    #expect(configuration.bindings.first?.keys == [.character("J")])
    #expect(configuration.colors["accent"].map { [$0.0, $0.1, $0.2] } == [255, 136, 0])
    #expect(
        configuration.problems == [
            "config line 14: unknown setting 'colums'",
            "config line 15: layout: 'sideways' is not one of grid, masonry, strip",
            "config line 16: bind: unknown action 'fly'; see the README for the names",
            "config line 17: color.accent: 'orange' is not #rrggbb",
            "config line 18: not key = value: 'just words'",
        ])
}

@Test func everyStandardActionHasAName() {
    let named = Set(CommandTable.bindable.values)
    for binding in KeyTable.standard.bindings {
        switch binding.command {
        case .countDigit, .exec: continue
        default: #expect(named.contains(binding.command), "\(binding.help) has no name for the settings file")
        }
    }
}

@Test func theReadAheadSettingsAreRead() {
    let chosen = Configuration(parsing: "read-ahead = 3\nread-ahead-workers = 1\n")
    #expect(chosen.readAhead == .screens(3) && chosen.readAheadWorkers == 1 && chosen.problems.isEmpty)
    let automatic = Configuration(parsing: "read-ahead-workers = auto\n")
    #expect(automatic.readAheadWorkers == nil && automatic.problems.isEmpty)
    let wrong = Configuration(parsing: "read-ahead-workers = 0\nread-ahead-workers = many\nread-ahead = -1\n")
    #expect(wrong.readAheadWorkers == nil && wrong.readAhead == nil)
    #expect(
        wrong.problems == [
            "config line 1: read-ahead-workers: '0' is neither auto nor a number from 1 to 64",
            "config line 2: read-ahead-workers: 'many' is neither auto nor a number from 1 to 64",
            "config line 3: read-ahead: '-1' is not all, off or a number of screens",
        ])
}

@Test func theBackgroundSettingNamesTheTerminalsGround() {
    #expect(Configuration(parsing: "background = #fdf6e3\n").background == RGB(0xFD, 0xF6, 0xE3))
    #expect(Configuration(parsing: "background = light\n").background == RGB(255, 255, 255))
    #expect(Configuration(parsing: "background = dark\n").background == RGB(0, 0, 0))
    #expect(Configuration(parsing: "background = auto\n").background == nil)
    let wrong = Configuration(parsing: "background = beige\n")
    #expect(wrong.background == nil && wrong.problems == ["config line 1: background: 'beige' is not auto, light, dark or #rrggbb"])
}

@Test func theLinkAndIndexSettingsAreRead() {
    let chosen = Configuration(parsing: "io = slow\nindex = read\n")
    #expect(chosen.io == .slow && chosen.indexMode == .read && chosen.problems.isEmpty)
    let wrong = Configuration(parsing: "io = fast\n")
    #expect(wrong.io == nil && wrong.problems.count == 1 && wrong.problems[0].contains("fast"))
}

/// The table is the settings file's keys: each example line the README shows reads without a
/// problem, a key not in the table is unknown, and a colour's family takes its slots only.
@Test func everySettingTheTableListsReadsAndNoOtherIs() {
    for row in SettingTable.rows {
        for example in row.examples {
            let read = Configuration(parsing: example.line)
            #expect(read.problems.isEmpty, "\(example.line): \(read.problems)")
        }
    }
    #expect(Configuration(parsing: "colour = #ffffff").problems == ["config line 1: unknown setting 'colour'"])
    #expect(Configuration(parsing: "color. = #ffffff").problems == ["config line 1: unknown setting 'color.'"])
    #expect(Configuration(parsing: "color.accent = #102030").colors["accent"]! == (0x10, 0x20, 0x30))
    #expect(SettingTable.example.contains("stacks = burst") && SettingTable.example.hasPrefix("```\n"))
}
