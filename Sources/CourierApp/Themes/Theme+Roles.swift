import CourierBody
import CourierTerminal

extension Theme {
    /// The roles a theme file may set, by the name the file uses.
    static let roles: [String: WritableKeyPath<Theme, Style> & Sendable] = [
        "text": \.text, "muted": \.muted, "border": \.border, "borderFocused": \.borderFocused,
        "title": \.title, "titleFocused": \.titleFocused, "selection": \.selection, "cursorLine": \.cursorLine,
        "statusBar": \.statusBar,
        "keyHint": \.keyHint, "searchMatch": \.searchMatch, "searchCurrent": \.searchCurrent,
        "error": \.error, "warning": \.warning, "success": \.success, "methodOther": \.methodOther,
        "jsonKey": \.jsonKey, "jsonString": \.jsonString, "jsonNumber": \.jsonNumber,
        "jsonLiteral": \.jsonLiteral, "jsonPunctuation": \.jsonPunctuation,
        "phaseDNS": \.phaseDNS, "phaseConnect": \.phaseConnect, "phaseTLS": \.phaseTLS,
        "phaseWait": \.phaseWait, "phaseTransfer": \.phaseTransfer,
        "diffAdded": \.diffAdded, "diffRemoved": \.diffRemoved, "diffChanged": \.diffChanged,
    ]

    /// Sets a role by its file name: a plain role, `method.GET`, `status.2xx` or `cache.fresh`.
    /// Returns false for a name that is no role.
    mutating func set(role: String, to style: Style) -> Bool {
        if let path = Self.roles[role] {
            self[keyPath: path] = style
            return true
        }
        let parts = role.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return false }
        switch parts[0] {
        case "method":
            methods[parts[1].uppercased()] = style
        case "status":
            guard parts[1].count == 3, parts[1].hasSuffix("xx"), let digit = Int(parts[1].prefix(1)),
                  (1...5).contains(digit) else { return false }
            statusClasses[digit] = style
        case "cache":
            cacheDecisions[parts[1]] = style
        default:
            return false
        }
        return true
    }

    /// The same theme with every colour removed, for `NO_COLOR` and the monochrome theme. Selection
    /// and focus stay visible through reverse video and bold.
    public func withoutColor(name: String) -> Theme {
        func strip(_ style: Style) -> Style { Style(attributes: style.attributes) }
        var theme = self
        theme.name = name
        for path in Self.roles.values { theme[keyPath: path] = strip(theme[keyPath: path]) }
        theme.methods = methods.mapValues(strip)
        theme.statusClasses = statusClasses.mapValues(strip)
        theme.cacheDecisions = cacheDecisions.mapValues(strip)
        theme.selection = Style(attributes: .reverse)
        theme.cursorLine = Style(attributes: .reverse)
        theme.statusBar = Style(attributes: .reverse)
        theme.keyHint = Style(attributes: [.reverse, .bold])
        theme.searchMatch = Style(attributes: .underline)
        theme.searchCurrent = Style(attributes: [.reverse, .underline])
        theme.titleFocused = Style(attributes: [.bold, .underline])
        theme.borderFocused = Style(attributes: .bold)
        for path: WritableKeyPath<Theme, Style> in [\.phaseDNS, \.phaseConnect, \.phaseTLS, \.phaseWait, \.phaseTransfer] {
            theme[keyPath: path] = Style(attributes: .reverse)
        }
        return theme
    }
}

extension Theme {
    /// The style of a colour role of body text (JSON tokens, invalid input, notes): the one mapping
    /// every pane that shows laid-out JSON draws with.
    func style(for role: TextRole) -> Style {
        switch role {
        case .text: text
        case .key: jsonKey
        case .string: jsonString
        case .number: jsonNumber
        case .literal: jsonLiteral
        case .punctuation: jsonPunctuation
        case .invalid: error
        case .muted: muted
        }
    }
}
