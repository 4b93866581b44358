extension GalleryState {
    /// Starts, edits, keeps or clears the filter, whatever shows (the help closes). A changed
    /// query puts the cursor on the first match, as fzf does; clearing it leaves the cursor on its item.
    mutating func applyFilter(_ command: Command) -> [Effect] {
        switch command {
        case .startFilter:
            mode = .filter
            if filter.text.isEmpty { message = FilterField.hint }
        case .acceptFilter, .cancelFilter: if mode == .filter || isShowingHelp { mode = .grid }
        default: if isShowingHelp { mode = .grid }
        }
        let change = filter.apply(command)
        if let text = change.message { message = text }
        if change.queryChanged {
            let query = filter.text
            // A query that cannot be read is said as it is typed; what shows stays.
            let expression: FilterExpression
            switch FilterExpression.parse(query) {
            case .success(let parsed): expression = parsed
            case .failure(let error):
                message = error.message
                return []
            }
            if query.isEmpty, case .cancelFilter = command {
                hasUserActed = true  // cleared: the cursor stays on its item
            } else {
                hasUserActed = false  // to the top, on the first match
            }
            applyFilterExpression(expression)
            hasUserActed = true
        }
        return loadEffects() + metadataEffects()
    }

    /// Filters the library by `expression`, with what is decided and marked now.
    mutating func applyFilterExpression(_ expression: FilterExpression) {
        let marked = expression.readsMarks ? Set(markedIDs) : []
        rearrange { $0.setFilter(expression, marked: marked) }
    }

    /// Pasted text goes to the filter while it is typed (newlines and controls left out); else
    /// it is said where it would go: a paste is never keys.
    mutating func applyPaste(_ text: String) -> [Effect] {
        guard isEditingFilter else {
            message = "pasted text is only taken by the filter: press / first"
            return []
        }
        return apply(.filterInput(String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))))
    }

    /// Whether keys go to the filter line.
    public var isEditingFilter: Bool { mode == .filter }
}
