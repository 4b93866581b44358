import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// What the `/` filter keeps: fuzzy name words and fields (`rating>=3`, `rejected`,
/// `label:red`, `kind:raw|video`, `date:2024-06`), all of a group at once (spaces), any group
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
    }

    /// The filter that keeps everything.
    public static let all = FilterExpression()

    public var isEmpty: Bool { groups.isEmpty }

    /// Whether any term reads what was decided, the marks, or dates (so the filter is applied
    /// again when they change or arrive).
    public var readsDecisions: Bool { terms.contains { [.rejected, .unrated].contains($0.test) || $0.isRating || $0.isLabel } }
    var readsMarks: Bool { terms.contains { $0.test == .marked } }
    public var readsDates: Bool { terms.contains { if case .date = $0.test { true } else { false } } }
    var terms: [Term] { groups.flatMap { $0 } }

    /// The expression `text` says, or what is wrong with it.
    /// - Complexity: O(*m*) in the query's length.
    public static func parse(_ text: String) -> Result<FilterExpression, FilterError> {
        let words = text.split(separator: " ").map(String.init)
        // No field and no `|`: the whole query is one fuzzy name, spaces and all, as before fields.
        guard words.contains(where: { $0 == "|" || $0.hasPrefix("!") || FilterField.named(in: $0) != nil }) else {
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
            } else {
                test = .name(FuzzyMatch.folded(Array(body.utf8)))
            }
            groups[groups.count - 1].append(Term(isNegated: negated, test: test))
        }
        groups.removeAll { $0.isEmpty }
        return .success(FilterExpression(groups: groups))
    }

    /// Whether a photo with these traits passes.
    func matches(_ photo: FilterSubject) -> Bool {
        groups.isEmpty || groups.contains { group in group.allSatisfy { $0.holds(for: photo) } }
    }
}

/// What the filter asks of a photo, gathered for it.
struct FilterSubject {
    var file: ImageFile
    var decision: Decision
    var isMarked: Bool
    /// Taken, else modified: local wall-clock seconds.
    var date: Int64
}

extension FilterExpression.Term {
    var isRating: Bool { if case .rating = test { true } else { false } }
    var isLabel: Bool { if case .label = test { true } else { false } }

    func holds(for photo: FilterSubject) -> Bool {
        let result: Bool
        switch test {
        case .name(let query): result = FuzzyMatch.matches(query, photo.file.path.lastComponent)
        case .rating(let comparison, let stars): result = !photo.decision.isRejected && comparison.holds(photo.decision.stars, stars)
        case .rejected: result = photo.decision.isRejected
        case .unrated: result = photo.decision.rating == 0
        case .marked: result = photo.isMarked
        case .label(let labels): result = labels.contains { photo.decision.has($0) }
        case .kind(let kinds): result = kinds.contains { $0.holds(for: photo.file) }
        case .date(let range): result = range.contains(photo.date)
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
        case raw, video, photo, pair

        func holds(for file: ImageFile) -> Bool {
            switch self {
            case .raw: file.format == .cameraRaw || file.companions.contains { $0.format == .cameraRaw }
            case .video: file.format.isVideo
            case .photo: !file.format.isVideo
            case .pair: !file.companions.isEmpty
            }
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
            let names = rest.hasPrefix(":") ? rest.dropFirst().split(separator: "|").map(String.init) : []
            let labels = names.compactMap(ColorLabel.init(named:))
            guard !labels.isEmpty, labels.count == names.count else {
                return .failure(FilterError("label: " + ColorLabel.allCases.map { $0.name.lowercased() }.joined(separator: ", ") + ", as label:red"))
            }
            return .success(.label(Set(labels)))
        },
        FilterField(name: "marked", syntax: "marked", help: "the marked photos") { rest in
            rest.isEmpty ? .success(.marked) : .failure(FilterError("marked takes no value"))
        },
        FilterField(name: "kind", syntax: "kind:raw|video", help: "raw, video, photo or pair") { rest in
            let names = rest.hasPrefix(":") ? rest.dropFirst().split(separator: "|").map(String.init) : []
            let kinds = names.compactMap { Kind(rawValue: $0.lowercased()) }
            guard !kinds.isEmpty, kinds.count == names.count else {
                return .failure(FilterError("kind: " + Kind.allCases.map(\.rawValue).joined(separator: ", ") + ", as kind:raw"))
            }
            return .success(.kind(Set(kinds)))
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
    ]

    /// The field `word` starts with (its name, then an operator, a colon or nothing), and the rest.
    static func named(in word: String) -> (FilterField, String)? {
        for field in table where word.lowercased().hasPrefix(field.name) {
            let rest = String(word.dropFirst(field.name.count))
            if rest.isEmpty || rest.first.map({ ":<>=".contains($0) }) == true { return (field, rest) }
        }
        return nil
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
