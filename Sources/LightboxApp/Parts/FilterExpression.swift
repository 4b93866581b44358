import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// What the `/` filter keeps: fuzzy name words and fields (`rating>=3`, `rejected`,
/// `label:red`, `kind:raw|video`, `date:2024-06`, `camera:x100v`, `iso>3200`), all of a group at once (spaces), any group
/// (` | `), `!` before a term for not. A query with no field and no `|` is one fuzzy name, as
/// it always was. Each field is a row of `FilterField.table`.
public struct FilterExpression: Hashable, Sendable {
    /// Groups any of which may hold, each of terms all of which must.
    var groups: [[Term]] = []

    /// One test, perhaps turned round.
    struct Term: Hashable, Sendable {
        var isNegated: Bool
        var test: Test
    }

    /// What a term asks of a photo.
    enum Test: Hashable, Sendable {
        /// The name holds these characters in this order (folded; see `FuzzyMatch`).
        case name([UInt8])
        case rating(Comparison, Int)
        case rejected, unrated, marked
        case label(Set<ColorLabel>)
        case kind(Set<FilterField.Kind>)
        /// Taken (else modified) within these local wall-clock seconds.
        case date(ClosedRange<Int64>)
        /// The camera's or the lens's name holds this part (folded, see `NameTable.fold`).
        case camera([UInt8]), lens([UInt8])
        /// The same, resolved for one library: which of its names (by number) hold it.
        case cameraNumbers([Bool]), lensNumbers([Bool])
        case iso(Comparison, Int)
        /// The f-number and the focal length; `=` and `:` allow for how cameras round them.
        case fNumber(Comparison, Double), focalLength(Comparison, Double)
        case shape(Set<FilterField.Shape>)
    }

    enum Comparison: String, Hashable, Sendable, CaseIterable {
        case atLeast = ">=", atMost = "<=", more = ">", less = "<", equal = "=", colon = ":"

        func holds(_ a: Int, _ b: Int) -> Bool {
            switch self {
            case .atLeast: a >= b
            case .atMost: a <= b
            case .more: a > b
            case .less: a < b
            case .equal, .colon: a == b
            }
        }

        /// `a` against `b`, equal within `tolerance` (EXIF's 28/10 and a lens's 2.8 alike).
        func holds(_ a: Double, _ b: Double, tolerance: Double) -> Bool {
            switch self {
            case .atLeast: a >= b - tolerance
            case .atMost: a <= b + tolerance
            case .more: a > b + tolerance
            case .less: a < b - tolerance
            case .equal, .colon: abs(a - b) <= tolerance
            }
        }
    }

    /// The filter that keeps everything.
    public static let all = FilterExpression()

    public var isEmpty: Bool { groups.isEmpty }

    /// Whether any term reads what was decided, the marks, or files' metadata (dates taken,
    /// cameras, exposures, shapes, frames: so the filter is applied again as they change or arrive).
    public var readsDecisions: Bool { terms.contains { [.rejected, .unrated].contains($0.test) || $0.isRating || $0.isLabel } }
    var readsMarks: Bool { terms.contains { $0.test == .marked } }
    public var readsDetails: Bool { terms.contains(where: \.readsDetails) }
    var readsDates: Bool { terms.contains { if case .date = $0.test { true } else { false } } }
    var readsNames: Bool { terms.contains { if case .name = $0.test { true } else { false } } }
    var terms: [Term] { groups.flatMap { $0 } }

    /// The expression `text` says, or what is wrong with it.
    /// - Complexity: O(*m*) in the query's length.
    public static func parse(_ text: String) -> Result<FilterExpression, FilterError> {
        let words = text.split(separator: " ").map(String.init)
        // No field and no `|`: the whole query is one fuzzy name, spaces and all, as before fields.
        guard words.contains(where: { $0 == "|" || $0.hasPrefix("!") || FilterField.named(in: $0) != nil || FilterField.unknownName(in: $0) != nil })
        else {
            return .success(text.isEmpty ? .all : FilterExpression(groups: [[Term(isNegated: false, test: .name(FuzzyMatch.folded(Array(text.utf8))))]]))
        }
        var groups: [[Term]] = [[]]
        for word in words {
            if word == "|" {
                groups.append([])
                continue
            }
            let negated = word.hasPrefix("!")
            let body = negated ? String(word.dropFirst()) : word
            guard !body.isEmpty else { return .failure(FilterError("! needs a term after it")) }
            let test: Test
            if let (field, rest) = FilterField.named(in: body) {
                switch field.parse(rest) {
                case .success(let parsed): test = parsed
                case .failure(let error): return .failure(error)
                }
            } else if let unknown = FilterField.unknownName(in: body) {
                return .failure(FilterError("no field \(unknown): " + FilterField.table.map(\.name).joined(separator: ", ")))
            } else {
                test = .name(FuzzyMatch.folded(Array(body.utf8)))
            }
            groups[groups.count - 1].append(Term(isNegated: negated, test: test))
        }
        groups.removeAll { $0.isEmpty }
        return .success(FilterExpression(groups: groups))
    }

    /// The expression with its name parts resolved to `names`' numbers, so each photo is
    /// tested by a lookup instead of a search.
    /// - Complexity: O(*k* × *m*) for *k* names.
    func resolved(with names: NameTable) -> FilterExpression {
        var copy = self
        for g in copy.groups.indices {
            for t in copy.groups[g].indices {
                switch copy.groups[g][t].test {
                case .camera(let part): copy.groups[g][t].test = .cameraNumbers(names.holding(part))
                case .lens(let part): copy.groups[g][t].test = .lensNumbers(names.holding(part))
                default: break
                }
            }
        }
        return copy
    }
}

/// What the filter asks of a photo, gathered for it without copying its file.
struct FilterSubject {
    var name: ArraySlice<UInt8>
    var file: ImageFile.Kinds
    var decision: Decision
    var details: ItemDetails
    /// Picture height over width in thousandths, as shown; 0 while unknown.
    var aspect: Int
    var isMarked: Bool
    /// Taken, else modified: local wall-clock seconds.
    var date: Int64
}

extension ImageFile {
    /// What `kind:` asks of a file: its format and whether it is in a pair with a RAW.
    struct Kinds {
        var format: ImageFormat
        var isPair: Bool
        var hasRaw: Bool
    }
}

extension FilterExpression {
    /// Whether a photo with these traits passes; `resolved(with:)` first when it names cameras or lenses.
    func matches(_ photo: FilterSubject) -> Bool {
        groups.isEmpty || groups.contains { group in group.allSatisfy { $0.holds(for: photo) } }
    }
}

extension FilterExpression.Term {
    var isRating: Bool { if case .rating = test { true } else { false } }
    var isLabel: Bool { if case .label = test { true } else { false } }

    /// Whether it asks what files' metadata says.
    var readsDetails: Bool {
        switch test {
        case .date, .camera, .lens, .cameraNumbers, .lensNumbers, .iso, .fNumber, .focalLength, .shape: true
        case .kind(let kinds): kinds.contains { $0.readsDetails }
        case .name, .rating, .rejected, .unrated, .marked, .label: false
        }
    }

    func holds(for photo: FilterSubject) -> Bool {
        let result: Bool
        let details = photo.details
        switch test {
        case .name(let query): result = FuzzyMatch.matches(query, photo.name)
        case .rating(let comparison, let stars): result = !photo.decision.isRejected && comparison.holds(photo.decision.stars, stars)
        case .rejected: result = photo.decision.isRejected
        case .unrated: result = photo.decision.rating == 0
        case .marked: result = photo.isMarked
        case .label(let labels): result = labels.contains { photo.decision.has($0) }
        case .kind(let kinds): result = kinds.contains { $0.holds(for: photo.file, details: details) }
        case .date(let range): result = range.contains(photo.date)
        case .camera, .lens: result = false  // resolved before use
        case .cameraNumbers(let hits): result = details.camera > 0 && Int(details.camera) < hits.count && hits[Int(details.camera)]
        case .lensNumbers(let hits): result = details.lens > 0 && Int(details.lens) < hits.count && hits[Int(details.lens)]
        case .iso(let comparison, let value): result = details.iso > 0 && comparison.holds(Int(details.iso), value)
        case .fNumber(let comparison, let value):
            result = details.fNumber > 0 && comparison.holds(Double(details.fNumber), value, tolerance: 0.05)
        case .focalLength(let comparison, let value):
            result = details.focalLength > 0 && comparison.holds(Double(details.focalLength), value, tolerance: 0.5)
        case .shape(let shapes): result = FilterField.Shape(aspect: photo.aspect).map(shapes.contains) ?? false
        }
        return result != isNegated
    }
}

/// Why a filter query cannot be read, said in the filter line as it is typed.
public struct FilterError: Error, Hashable, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}

/// A field of the filter: its name, the values it takes, its help; one row each.
public struct FilterField: Sendable {
    public var name: String
    /// How its value is written, for the help.
    public var syntax: String
    public var help: String
    let parse: @Sendable (_ rest: String) -> Result<FilterExpression.Test, FilterError>

    /// What kind of photo `kind:` asks for.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case raw, video, animation, photo, pair

        /// Whether it needs the file's metadata (an animation's frames are counted there).
        var readsDetails: Bool { self == .animation || self == .photo }

        func holds(for file: ImageFile.Kinds, details: ItemDetails) -> Bool {
            let animates = file.format.mayAnimate && details.frameCount > 1
            return switch self {
            case .raw: file.format == .cameraRaw || file.hasRaw
            case .video: file.format.isVideo
            case .animation: animates
            case .photo: !file.format.isVideo && !animates
            case .pair: file.isPair
            }
        }
    }

    /// What `orientation:` asks for: the picture as shown, taller or wider than square.
    public enum Shape: String, Hashable, Sendable, CaseIterable {
        case portrait, landscape, square

        /// The shape of a picture `aspect` thousandths as tall as wide; nil while unknown.
        init?(aspect: Int) {
            guard aspect > 0 else { return nil }
            self = aspect > 1000 ? .portrait : aspect < 1000 ? .landscape : .square
        }
    }

    /// Every field, in the order the help lists them.
    public static let table: [FilterField] = [
        FilterField(name: "rating", syntax: "rating>=3, rating:5, rating<2", help: "stars, compared (a rejected photo has none)") { rest in
            guard let comparison = FilterExpression.Comparison.allCases.first(where: { rest.hasPrefix($0.rawValue) }),
                let stars = Int(rest.dropFirst(comparison.rawValue.count)), (0...5).contains(stars)
            else { return .failure(FilterError("rating: >=, <=, >, <, = or : and 0 to 5, as rating>=3")) }
            return .success(.rating(comparison, stars))
        },
        FilterField(name: "rejected", syntax: "rejected", help: "rejected photos (r)") { rest in
            rest.isEmpty ? .success(.rejected) : .failure(FilterError("rejected takes no value"))
        },
        FilterField(name: "unrated", syntax: "unrated", help: "neither rated nor rejected") { rest in
            rest.isEmpty ? .success(.unrated) : .failure(FilterError("unrated takes no value"))
        },
        FilterField(name: "label", syntax: "label:red|blue", help: "any of these colour labels") { rest in
            choices(rest, field: "label", names: ColorLabel.allCases.map { $0.name.lowercased() }, ColorLabel.init(named:)).map { .label($0) }
        },
        FilterField(name: "marked", syntax: "marked", help: "the marked photos") { rest in
            rest.isEmpty ? .success(.marked) : .failure(FilterError("marked takes no value"))
        },
        FilterField(name: "kind", syntax: "kind:raw|video", help: "raw, video, animation, photo (a still) or pair") { rest in
            choices(rest, field: "kind", names: Kind.allCases.map(\.rawValue)) { Kind(rawValue: $0.lowercased()) }.map { .kind($0) }
        },
        FilterField(name: "date", syntax: "date:2024-06, date:2024-06-01..2024-06-15", help: "taken (else modified) in a year, month, day or range") {
            rest in
            guard rest.hasPrefix(":") else { return .failure(FilterError("date: a year, month or day, or two joined by .., as date:2024-06")) }
            let parts = rest.dropFirst().components(separatedBy: "..")
            guard parts.count <= 2, let first = FilterField.dates(parts[0]), let last = FilterField.dates(parts[parts.count - 1]),
                first.lowerBound <= last.upperBound
            else { return .failure(FilterError("date: a year, month or day, or two joined by .., as date:2024-06-01..2024-06-15")) }
            return .success(.date(first.lowerBound...last.upperBound))
        },
        FilterField(name: "camera", syntax: "camera:x100v", help: "a part of the camera's make or model, any case") { rest in
            nameTest(rest, field: "camera", example: "camera:x100v").map { .camera($0) }
        },
        FilterField(name: "lens", syntax: "lens:35", help: "a part of the lens's name, any case") { rest in
            nameTest(rest, field: "lens", example: "lens:35").map { .lens($0) }
        },
        FilterField(name: "iso", syntax: "iso>3200, iso:200", help: "the ISO speed, compared") { rest in
            numberTest(rest, field: "iso", example: "iso>3200") { comparison, value in Int(exactly: value).map { .iso(comparison, $0) } }
        },
        FilterField(name: "f", syntax: "f<2.8, f:8", help: "the aperture's f-number, compared") { rest in
            numberTest(rest, field: "f", example: "f<2.8") { .fNumber($0, $1) }
        },
        FilterField(name: "focal", syntax: "focal:35, focal>=200", help: "the focal length in mm, compared") { rest in
            numberTest(rest, field: "focal", example: "focal:35") { .focalLength($0, $1) }
        },
        FilterField(name: "orientation", syntax: "orientation:portrait", help: "portrait, landscape or square, as shown") { rest in
            choices(rest, field: "orientation", names: Shape.allCases.map(\.rawValue)) { Shape(rawValue: $0.lowercased()) }.map { .shape($0) }
        },
    ]

    /// A field's choices after its colon, any of them (`kind:raw|video`); each read by `choice`,
    /// the error naming every one (`names`) and the first as the example.
    static func choices<T: Hashable>(_ rest: String, field: String, names: [String], _ choice: (String) -> T?) -> Result<Set<T>, FilterError> {
        let words = rest.hasPrefix(":") ? rest.dropFirst().split(separator: "|").map(String.init) : []
        let chosen = words.compactMap(choice)
        guard !chosen.isEmpty, chosen.count == words.count else {
            return .failure(FilterError("\(field): " + names.joined(separator: ", ") + ", as \(field):\(names[0])"))
        }
        return .success(Set(chosen))
    }

    /// A name field's part after its colon, folded.
    static func nameTest(_ rest: String, field: String, example: String) -> Result<[UInt8], FilterError> {
        let part = rest.hasPrefix(":") ? NameTable.fold(String(rest.dropFirst())) : []
        return part.isEmpty ? .failure(FilterError("\(field): a part of its name after a colon, as \(example)")) : .success(part)
    }

    /// A number compared: an operator (`:` is `=`), then a number not below 0; `make` turns the
    /// two into the test (nil when the value does not fit the field).
    static func numberTest(
        _ rest: String, field: String, example: String, _ make: (FilterExpression.Comparison, Double) -> FilterExpression.Test?
    ) -> Result<FilterExpression.Test, FilterError> {
        let error = FilterError("\(field): >=, <=, >, <, = or : and a number, as \(example)")
        guard let comparison = FilterExpression.Comparison.allCases.first(where: { rest.hasPrefix($0.rawValue) }),
            let value = Double(rest.dropFirst(comparison.rawValue.count)), value.isFinite, value >= 0, value < 1e9,
            let test = make(comparison, value)
        else { return .failure(error) }
        return .success(test)
    }

    /// Whether it takes a value (`rating>=3`) rather than standing alone (`rejected`).
    var takesValue: Bool { syntax != name }

    /// How it starts, for completions and the filter line's hint: `rating>=`, `camera:`, `rejected`.
    public var start: String {
        name + String(syntax.dropFirst(name.count).prefix { ":<>=".contains($0) })
    }

    /// What the filter line says when it opens empty: that fields exist, and how each starts.
    public static var hint: String { "a name, or fields: " + table.map(\.start).joined(separator: " ") + " (| or, ! not)" }

    /// The field `word` starts with (its name, then an operator or a colon; a field without a
    /// value, its name alone), and the rest. A bare `f` or `camera` is a name word.
    static func named(in word: String) -> (FilterField, String)? {
        for field in table where word.lowercased().hasPrefix(field.name) {
            let rest = String(word.dropFirst(field.name.count))
            if rest.isEmpty ? !field.takesValue : ":<>=".contains(rest.first!) { return (field, rest) }
        }
        return nil
    }

    /// The name of a field `word` asks for that there is none of: letters, then an operator or a
    /// colon (`lense:35`, `stars>3`); nil for a name word.
    static func unknownName(in word: String) -> String? {
        let letters = word.prefix { $0.isASCII && $0.isLetter }
        guard !letters.isEmpty, let next = word.dropFirst(letters.count).first, ":<>=".contains(next) else { return nil }
        return String(letters)
    }

    /// The wall-clock seconds of a year (`2024`), month (`2024-06`) or day (`2024-06-01`).
    static func dates(_ text: String) -> ClosedRange<Int64>? {
        let numbers = text.split(separator: "-").map { Int($0) }
        guard (1...3).contains(numbers.count), numbers.allSatisfy({ $0 != nil }) else { return nil }
        let year = numbers[0]!, month = numbers.count > 1 ? numbers[1]! : nil, day = numbers.count > 2 ? numbers[2]! : nil
        guard (1...9999).contains(year), (1...12).contains(month ?? 1), (1...31).contains(day ?? 1) else { return nil }
        func seconds(_ y: Int, _ m: Int, _ d: Int) -> Int64 {
            var parts = tm()
            parts.tm_year = Int32(y - 1900)
            parts.tm_mon = Int32(m - 1)
            parts.tm_mday = Int32(d)
            return Int64(timegm(&parts))
        }
        let start = seconds(year, month ?? 1, day ?? 1)
        let end: Int64
        if let day {
            end = seconds(year, month!, day + 1)
        } else if let month {
            end = month == 12 ? seconds(year + 1, 1, 1) : seconds(year, month + 1, 1)
        } else {
            end = seconds(year + 1, 1, 1)
        }
        return start...(end - 1)
    }
}
