import CourierCollections
import CourierHTTP
import CourierMessage
import CourierTerminal
import CourierWebSocket

/// The request being edited: one text editor per field, the tab shown, and which saved request it came from.
public struct RequestEditorState: Sendable, Hashable {
    /// The tabs below the URL line.
    public enum Tab: Int, Sendable, Hashable, CaseIterable {
        case query, headers, body, auth, options
        public var title: String {
            switch self {
            case .query: "Query"
            case .headers: "Headers"
            case .body: "Body"
            case .auth: "Auth"
            case .options: "Options"
            }
        }
    }

    /// Which part of the pane the cursor is on.
    public enum Field: Sendable, Hashable { case url, tab }

    /// The rows of the options tab.
    public enum Option: Int, Sendable, Hashable, CaseIterable {
        case timeout, retries, cacheMode
        public var title: String {
            switch self {
            case .timeout: "Timeout (s)"
            case .retries: "Attempts"
            case .cacheMode: "Cache mode"
            }
        }
    }

    /// The saved request this draft came from; nil for a request not yet in a file.
    public var origin: RequestRef?
    /// The draft as loaded or last saved: the edits are whatever differs from it.
    public var saved: RequestDraft
    public var name: String
    public var kind: RequestTemplate.Kind
    public var method: String
    /// Whether sending opens the WebSocket pane: a WebSocket request, or a GRAPHQL subscription (it runs over one).
    public var opensWebSocketPane: Bool {
        kind == .websocket || (kind == .graphql && GraphQLSubscription.isSubscription(body.text))
    }
    // One-line fields are LineEditors (Enter submits, a pasted line break becomes a space); the
    // `name=value` and `Name: value` lists and the body are TextAreaEditors (Enter breaks the line).
    public var url: LineEditor
    public var query: TextAreaEditor
    public var headers: TextAreaEditor
    public var body: TextAreaEditor
    public var auth: LineEditor
    public var timeout: LineEditor
    public var retries: LineEditor
    public var cacheMode: CacheMode
    public var messages: [String]
    /// Which messages are `# @subscribe` subscriptions (kept as read, so connecting sends them).
    var subscriptions: Set<Int> = []
    public var tab: Tab = .query
    public var field: Field = .url
    public var option: Option = .timeout
    /// Typing goes into the selected editor.
    public var editing = false
    /// Shows variables replaced by their values.
    public var showResolved = false
    /// Where the Authorization header sat among the headers, so saving puts it back in place.
    var authIndex: Int?

    public init(draft: RequestDraft, origin: RequestRef?) {
        self.origin = origin
        name = draft.name
        kind = draft.kind
        method = draft.method
        url = LineEditor(draft.url)
        query = TextAreaEditor(Self.queryText(of: draft.url), cursorAtEnd: true)
        let fields = draft.headers.fields
        authIndex = fields.firstIndex { $0.name.caseInsensitiveEquals("Authorization") }
        let others = fields.filter { !$0.name.caseInsensitiveEquals("Authorization") }
        headers = TextAreaEditor(others.map { "\($0.name): \($0.value)" }.joined(separator: "\n"), cursorAtEnd: true)
        auth = LineEditor(authIndex.map { fields[$0].value } ?? "")
        body = TextAreaEditor(draft.body, cursorAtEnd: true)
        timeout = LineEditor(draft.timeout.map(Self.formatNumber) ?? "")
        retries = LineEditor(draft.maxAttempts.map(String.init) ?? "")
        cacheMode = draft.cacheMode
        messages = draft.messages
        subscriptions = draft.subscriptions
        saved = draft
        saved = self.draft
        // A request opens on the first tab with something in it (its body first): what Enter sends is on screen
        // without looking for it, not "No query parameters" above a request whose headers are the point.
        tab = [Tab.body, .query, .headers, .auth].first { !Self.isBlank(tabText($0)) } ?? .query
    }

    /// What is wrong with the Options tab's values, when something is: sending or saving would otherwise
    /// drop the value silently.
    public var optionsProblem: String? {
        let seconds = timeout.text.trimmingCharacters(in: .whitespaces)
        if !seconds.isEmpty, Double(seconds).map({ $0 > 0 && $0.isFinite }) != true {
            return "Timeout takes a number of seconds above 0, not '\(seconds)'"
        }
        let attempts = retries.text.trimmingCharacters(in: .whitespaces)
        if !attempts.isEmpty, Int(attempts).map({ (1...Self.maxAttempts).contains($0) }) != true {
            return "Attempts takes a whole number from 1 to \(Self.maxAttempts), not '\(attempts)'"
        }
        return nil
    }

    /// The most attempts the Options tab accepts: a typo (`100`) must not hammer a server.
    static let maxAttempts = 10

    /// An empty editor for when nothing is open yet.
    public static let empty = RequestEditorState(draft: RequestDraft(name: "", url: ""), origin: nil)

    /// The request as the editors currently describe it.
    public var draft: RequestDraft {
        var fields = Self.parseHeaders(headers.text)
        let authValue = auth.text.trimmingCharacters(in: .whitespaces)
        if !authValue.isEmpty {
            let field = HTTPHeaders.Field(name: "Authorization", value: authValue)
            fields.insert(field, at: min(authIndex ?? fields.count, fields.count))
        }
        var draft = RequestDraft(
            name: name, kind: kind, method: method, url: url.text, headers: HTTPHeaders(fields), body: body.text,
            timeout: Double(timeout.text.trimmingCharacters(in: .whitespaces)),
            maxAttempts: Int(retries.text.trimmingCharacters(in: .whitespaces)),
            cacheMode: cacheMode, messages: messages, subscriptions: subscriptions)
        // Prompts, `@no-log`, `@note` and `run` lines are not edited here; they stay as the file says.
        draft.prompts = saved.prompts
        draft.noLog = saved.noLog
        draft.note = saved.note
        draft.runs = saved.runs
        return draft
    }

    /// The lines a tab's title counts (query parameters, headers), nil for a tab without a count.
    public func count(of tab: Tab) -> Int? {
        switch tab {
        case .query, .headers:
            tabText(tab).split(separator: "\n").count { !Self.isBlank(String($0)) }
        case .body, .auth, .options: nil
        }
    }

    private func tabText(_ tab: Tab) -> String {
        switch tab {
        case .query: query.text
        case .headers: headers.text
        case .body: body.text
        case .auth: auth.text
        case .options: ""
        }
    }

    private static func isBlank(_ text: String) -> Bool { text.allSatisfy(\.isWhitespace) }

    /// Whether there are edits not saved to the file.
    public var isDirty: Bool { draft != saved }

    /// Whether anything is open.
    public var isEmpty: Bool { origin == nil && url.text.isEmpty && name.isEmpty }

    /// The editor of the selected tab (nil on the options tab's cache-mode row).
    public var selectedEditor: (any TextEditing)? {
        switch field {
        case .url: url
        case .tab: tabEditor
        }
    }

    /// The selected editor when it is a multi-line one (query, headers, body), for Enter and Up.
    public var selectedTextArea: TextAreaEditor? {
        guard field == .tab else { return nil }
        switch tab {
        case .query: return query
        case .headers: return headers
        case .body: return body
        case .auth, .options: return nil
        }
    }

    private var tabEditor: (any TextEditing)? {
        switch tab {
        case .query: query
        case .headers: headers
        case .body: body
        case .auth: auth
        case .options:
            switch option {
            case .timeout: timeout
            case .retries: retries
            case .cacheMode: nil
            }
        }
    }

    /// Applies `edit` to the selected editor and keeps the URL and the query tab in step.
    public mutating func editSelected(_ edit: FieldEdit) {
        switch field {
        case .url:
            url.apply(edit)
            query.setText(Self.queryText(of: url.text))
        case .tab:
            switch tab {
            case .query:
                query.apply(edit)
                url.setText(Self.url(url.text, withQuery: query.text))
            case .headers: headers.apply(edit)
            case .body: body.apply(edit)
            case .auth: auth.apply(edit)
            case .options:
                switch option {
                case .timeout: timeout.apply(edit)
                case .retries: retries.apply(edit)
                case .cacheMode: break
                }
            }
        }
    }

    /// Takes every field of `other` (method, URL, query, headers, body, auth, options, messages), each as one
    /// edit of its field, so `u` in a field brings its text back; the name and where it is saved stay.
    public mutating func setFields(from other: RequestEditorState) {
        url.setText(other.url.text)
        query.setText(other.query.text)
        headers.setText(other.headers.text)
        body.setText(other.body.text)
        auth.setText(other.auth.text)
        timeout.setText(other.timeout.text)
        retries.setText(other.retries.text)
        (kind, method, cacheMode, authIndex) = (other.kind, other.method, other.cacheMode, other.authIndex)
        (messages, subscriptions) = (other.messages, other.subscriptions)
    }

    // MARK: - Text forms

    /// The query of a URL template as `name=value` lines (split on `&`, not decoded, so it round-trips).
    static func queryText(of url: String) -> String {
        guard let mark = url.firstIndex(of: "?") else { return "" }
        return url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: true)
            .joined(separator: "\n")
    }

    /// The URL with its query replaced by the non-empty lines of `queryText`.
    static func url(_ url: String, withQuery queryText: String) -> String {
        let base = url.firstIndex(of: "?").map { String(url[..<$0]) } ?? url
        let items = queryText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return items.isEmpty ? base : base + "?" + items.joined(separator: "&")
    }

    /// `Name: value` lines as header fields; lines without a colon are skipped.
    static func parseHeaders(_ text: String) -> [HTTPHeaders.Field] {
        text.split(separator: "\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return nil }
            return HTTPHeaders.Field(name: name, value: line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces))
        }
    }

    static func formatNumber(_ value: Double) -> String {
        RequestOptions.format(value)
    }
}

import Foundation
