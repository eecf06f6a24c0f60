import CourierCollections
import CourierTerminal

/// The styles of every role on screen. Loaded from `Themes/NAME.json`; `dark` is built in so the
/// first frame never waits for a file.
public struct Theme: Sendable, Hashable {
    public var name: String
    public var text: Style
    public var muted: Style
    public var border: Style
    public var borderFocused: Style
    public var title: Style
    public var titleFocused: Style
    public var selection: Style
    /// The Response pane's cursor line: a background under the syntax colours, which stay readable on it.
    public var cursorLine: Style
    public var statusBar: Style
    public var keyHint: Style
    public var searchMatch: Style
    public var searchCurrent: Style
    public var error: Style
    public var warning: Style
    public var success: Style
    /// Styles per HTTP method name (GET, POST, …); `methodOther` for the rest.
    public var methods: [String: Style]
    public var methodOther: Style
    /// Styles per status class: index 1 for 1xx … 5 for 5xx.
    public var statusClasses: [Int: Style]
    public var jsonKey: Style
    public var jsonString: Style
    public var jsonNumber: Style
    public var jsonLiteral: Style
    public var jsonPunctuation: Style
    /// Timing phases in the log's waterfall.
    public var phaseDNS: Style
    public var phaseConnect: Style
    public var phaseTLS: Style
    public var phaseWait: Style
    public var phaseTransfer: Style
    /// Cache decisions by their raw value (`fresh`, `revalidated`, …).
    public var cacheDecisions: [String: Style]
    public var diffAdded: Style
    public var diffRemoved: Style
    public var diffChanged: Style

    /// The style for an HTTP method.
    public func method(_ name: String) -> Style { methods[name.uppercased()] ?? methodOther }

    /// The style of a request's method column. WebSocket and GraphQL requests have their own colours (theme
    /// keys `method.WEBSOCKET` and `method.GRAPHQL`, as the `.http` file spells the kinds); HTTP requests
    /// their method's.
    public func method(kind: RequestTemplate.Kind, method: String) -> Style {
        switch kind {
        case .http: self.method(method)
        case .websocket: self.method("WEBSOCKET")
        case .graphql: self.method("GRAPHQL")
        case .grpc: self.method("GRPC")
        }
    }
    /// The style for a status code.
    public func status(_ code: Int) -> Style { statusClasses[code / 100] ?? text }
    /// The style for a cache decision's raw value.
    public func cache(_ decision: String) -> Style { cacheDecisions[decision] ?? muted }
}

extension Theme {
    /// The built-in dark theme.
    public static let dark = Theme(
        name: "dark",
        text: Style(), muted: Style(foreground: .gray), border: Style(foreground: .gray),
        borderFocused: Style(foreground: .brightCyan), title: Style(foreground: .white),
        titleFocused: Style(foreground: .brightCyan, attributes: .bold),
        selection: Style(foreground: .black, background: .cyan), cursorLine: Style(background: .indexed(236)),
        statusBar: Style(foreground: .white, background: .indexed(236)),
        keyHint: Style(foreground: .brightYellow, background: .indexed(236), attributes: .bold),
        searchMatch: Style(foreground: .black, background: .yellow),
        searchCurrent: Style(foreground: .black, background: .brightYellow, attributes: .bold),
        error: Style(foreground: .brightRed), warning: Style(foreground: .yellow), success: Style(foreground: .green),
        methods: [
            "GET": Style(foreground: .green, attributes: .bold), "POST": Style(foreground: .yellow, attributes: .bold),
            "PUT": Style(foreground: .blue, attributes: .bold), "PATCH": Style(foreground: .magenta, attributes: .bold),
            "DELETE": Style(foreground: .red, attributes: .bold), "WEBSOCKET": Style(foreground: .cyan, attributes: .bold),
        ],
        methodOther: Style(foreground: .white, attributes: .bold),
        statusClasses: [
            1: Style(foreground: .gray), 2: Style(foreground: .green, attributes: .bold),
            3: Style(foreground: .cyan, attributes: .bold), 4: Style(foreground: .yellow, attributes: .bold),
            5: Style(foreground: .brightRed, attributes: .bold),
        ],
        jsonKey: Style(foreground: .brightBlue), jsonString: Style(foreground: .green),
        jsonNumber: Style(foreground: .magenta), jsonLiteral: Style(foreground: .yellow),
        jsonPunctuation: Style(foreground: .gray),
        phaseDNS: Style(background: .indexed(30)), phaseConnect: Style(background: .indexed(136)),
        phaseTLS: Style(background: .indexed(97)), phaseWait: Style(background: .indexed(33)),
        phaseTransfer: Style(background: .indexed(35)),
        cacheDecisions: [
            "fresh": Style(foreground: .brightGreen, attributes: .bold), "revalidated": Style(foreground: .cyan),
            "refetched": Style(foreground: .yellow), "stale": Style(foreground: .magenta),
            "miss": Style(foreground: .gray), "not-stored": Style(foreground: .gray), "bypass": Style(foreground: .gray),
        ],
        diffAdded: Style(foreground: .green), diffRemoved: Style(foreground: .red),
        diffChanged: Style(foreground: .yellow, attributes: .bold)
    )
}
