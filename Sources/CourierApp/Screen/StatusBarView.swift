import CourierCollections
import CourierHTTP
import CourierTerminal

/// The bottom row: a message or the focused pane's key hints, then the environment and theme, drawn by the
/// `StatusBar` widget.
enum StatusBarView {
    static func render(_ state: AppState, into buffer: inout Buffer, area: Rect) {
        let theme = state.theme
        // Said for as long as it is true: known secrets are drawn as they are.
        let shown = state.secretsShown ? "secrets shown · " : ""
        // Where the open request goes in the chosen environment, so switching environments shows its effect.
        var target = state.requestOrigin.map { " → \($0)" } ?? ""
        let environment = "env: \(state.environment ?? "none")"
        var themeName = " · \(state.theme.name)"
        // A message comes first: one too long to share the line with the target drops the target.
        if let message = state.status,
           DisplayWidth.of(message.text + shown + environment + target + themeName) + 20 > area.width {
            target = ""
        }
        var lead = StyledLine()
        var hints: [KeyHint] = []
        // The first hints (cancel, send, save) are the ones the right side gives way to.
        var essentialCount = 0
        // How to get help and how to quit stay on screen however narrow it is, beside a notice too (the first
        // screen a new user meets has one); an error keeps the whole line.
        let entries = HelpCatalog.hints(for: state)
        let kept: Set<AppCommand> = [.global(.help), .global(.quit)]
        let isKept = { (entry: HelpCatalog.Entry) in entry.command.map(kept.contains) == true }
        var pinned = entries.filter(isKept).map { KeyHint($0.keys, $0.help) }
        if let message = state.status {
            if message.kind == .error { pinned = [] }
            let style: Style = switch message.kind {
            case .info: theme.statusBar
            case .success: theme.statusBar.fg(theme.success.foreground)
            case .error: theme.statusBar.fg(theme.error.foreground).with(.bold)
            }
            lead = StyledLine(message.text, style: style)
        } else {
            // A request in flight is said first, so sending shows even when the response pane is hidden.
            if state.inFlight != nil, !state.live {
                let elapsed = state.flight.map { " " + DurationText.format(seconds: max(0, state.now.timeIntervalSince($0.started))) }
                lead.append("sending '\(state.editor.name)'…\(elapsed ?? "")  ", style: theme.statusBar.with(.bold))
                hints.append(KeyHint(state.keys.spelling(of: .global(.cancel)), "cancel"))
            }
            // What sends comes first: it is what a new user looks for, and the hints that do not fit are the
            // last ones. A hint says what the key does in a word or two; help has the details in brackets.
            let rest = entries.filter { !isKept($0) }
            // The pane's own Enter where it sends (the collection's open-and-send) counts as the global send.
            let sendKeys = state.keys.global.first { $0.command == .send }?.keyLabel
            let sends = rest.filter { $0.command == .global(.send) || ($0.keys == sendKeys && $0.help.hasPrefix("send")) }
            hints += sends.map { KeyHint($0.keys, Self.brief($0.help)) }
            // Unsaved edits (● in the title) say how to keep them in the file, beside how to send them; while
            // typing, the field's own hints say it already, and it is moved up here rather than said twice.
            let saves = rest.filter { !sends.contains($0) && Self.brief($0.help) == "save" }
            if state.editor.isDirty, state.keys.global.contains(where: { $0.command == .save && !$0.keys.isEmpty }) {
                hints.append(KeyHint(saves.first?.keys ?? state.keys.spelling(of: .global(.save)), "save"))
            }
            essentialCount = hints.count
            let saidAlready = state.editor.isDirty ? saves : []
            hints += rest.filter { !sends.contains($0) && !saidAlready.contains($0) }
                .map { KeyHint($0.keys, Self.brief($0.help)) }
        }
        // How to send and how to save unsaved edits stay beside help and quit: the theme's name gives way first,
        // then where the request goes (at 80 columns `Ctrl-S save` was dropped for `→ http://localhost:8088`).
        let needed = lead.width + 3 + (hints.prefix(essentialCount) + pinned).reduce(0) { $0 + StatusBar.width(of: $1) }
        let fits = { DisplayWidth.of(shown + environment + target + themeName) + 2 + needed <= area.width }
        if !fits() { themeName = "" }
        if !fits() { target = "" }
        let right = StyledLine(shown + environment + target + themeName, style: theme.statusBar)
        var bar = StatusBar(lead: lead, hints: hints, message: right, style: theme.statusBar, keyStyle: theme.keyHint)
        bar.pinned = pinned
        bar.render(into: &buffer, area: area)
    }

    /// A hint's words without help's bracketed detail: "send (on a folder: fold)" is "send".
    static func brief(_ help: String) -> String {
        help.range(of: " (").map { String(help[..<$0.lowerBound]) } ?? help
    }
}

extension AppState {
    /// The scheme and host (with port) the open request's URL resolves to in the chosen environment
    /// (`http://127.0.0.1:8088`); an unknown variable stays as written (`{{base}}`). Nil with nothing open.
    var requestOrigin: String? {
        guard !editor.isEmpty else { return nil }
        let url = VariablePreview.resolve(editor.url.text, values: variables)
        guard let separator = url.range(of: "://") else {
            // `{{base}}/users` with no base in this environment: the variable is where it would go.
            let head = url.prefix { $0 != "/" && $0 != "?" }
            return head.hasPrefix("{{") ? String(head) : nil
        }
        var authority = Substring(url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        // A `user:password@` is never shown.
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return String(url[..<separator.upperBound] + authority)
    }
}
