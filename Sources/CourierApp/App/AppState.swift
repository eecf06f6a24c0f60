import CourierHTTP
import CourierTerminal
import CourierSecurity
import Foundation

/// Everything the explorer shows, as one value. Only `update` changes it.
public struct AppState: Sendable {
    /// Whether the collection is still being read in the background.
    public enum Loading: Sendable, Hashable {
        case loading(path: String)
        /// The first requests are shown; the rest of the collection is still being read.
        case loadingRest(path: String)
        case loaded
        case failed(String)
    }

    public var size: Size
    public var focus: PaneID = .collection
    /// The pane shown alone, when zoomed.
    public var zoomed: PaneID?
    public var collectionPath: String
    public var loading: Loading
    public var collection: Collection = .empty
    public var tree = CollectionTreeState()
    public var editor: RequestEditorState = .empty
    /// The open request's session: its last response in the Response pane's one model, and its send.
    public var session = RequestSession()
    /// Which request `session` belongs to (nil for a request not from the collection).
    public var sessionIdentity: RequestIdentity?
    /// Every other request's session, parked while it is not open; opening it brings it back.
    public var sessions: [RequestIdentity: RequestSession] = [:]
    /// The cache compare view, shown over the response while open.
    public var comparePane: ComparePaneState?
    /// The history pane (CourierApp/Panes/History), shown over the whole layout while open.
    public var historyPane: HistoryPaneState?
    /// Recent total times per history request key (`# @name` and file, else "METHOD url"), for the status line.
    public var latency: [String: LatencyStats] = [:]
    /// The retry/timing log (CourierApp/Panes/Log): one row per attempt from the client's events.
    public var log = LogPaneState()
    /// The clock: read when events arrive and on ticks, so views stay pure functions of state.
    public var clock: @Sendable () -> Date = { Date() }
    /// The time the screen is drawn for (retry countdowns).
    public var now = Date()
    /// The WebSocket pane (CourierApp/Panes/WebSocket): connection, messages, send box.
    public var webSocketPane = WebSocketPaneState()
    /// The request the WebSocket pane connects as (headers, cookies, TLS settings), set when the pane loads it.
    public var webSocketJob: SendJob?
    /// The last send whose GRPC call went on in the live pane (its send ends as cancelled, silently).
    public var liveCallGeneration: Int?
    public var modals: [Modal] = []
    /// What each kind of prompt was given this session, for ↑/↓ in the next one.
    public var promptHistory = PromptHistory()
    /// Answers to the open request's `# @prompt` questions, asked before each send and used by it.
    public var promptAnswers: [String: String] = [:]
    /// Whether the user said yes to the open request's `# @note` question for the send under way.
    public var noteConfirmed = false
    /// The client certificate's passphrase once asked for (`hasCertificatePassphrase`), for the session.
    public var certificatePassphrase: String?
    /// Files outside the collection's folder the user let it read or replace, for the session.
    public var filePermissions = FilePermissions()
    public var environment: String?
    public var theme: Theme
    /// Theme names found in the themes folder, for the palette.
    public var themeNames: [String] = ThemeLoader.builtInNames
    public var status: StatusMessage?
    /// The panes, in one list that dispatch, hints, help, the palette and the screen loop over (the key
    /// tables are made for them).
    public var panes: PaneRegistry { keys.panes }
    /// The states of panes added to the registry whose state is not one of the fields above, by scope.
    public var paneStates: [KeyScope: any Sendable] = [:]
    /// The keymap tables in use: the defaults with the user's rebindings (config.json) applied.
    public var keys: KeyTables
    /// The jar's cookies sent with the last request, shown in the Request pane while that request is open.
    public var requestCookies: RequestCookies?

    /// The generation of the newest send; a response from an older one is stale and dropped.
    public var generation = 0
    /// The generation of the newest body job (search, filter, index, diff), counted apart from sends.
    public var bodyJobGeneration = 0
    /// The generation in flight, if any.
    public var inFlight: Int?
    /// How the send in flight is getting on: time, attempts, bytes.
    public var flight: SendFlight?
    /// Live mode: edits send the request after `liveDebounce`.
    public var live = false
    public var liveDebounce: Duration = .milliseconds(300)
    public var shouldQuit = false
    /// Set by Ctrl-Z; the run loop hands the terminal back to the shell and clears it.
    public var shouldSuspend = false
    /// Unsaved edits of the requests not open now, so switching requests never asks to discard them.
    /// A draft goes back to the request whose saved form it was made from (`saved`), even if adding or
    /// deleting requests moved it in its file.
    public var drafts: [RequestRef: RequestEditorState] = [:]
    /// A reload (Ctrl-R) is under way: its end is said in the status bar.
    public var reloading = false
    /// Set by Ctrl-L and by a resize: the loop clears the terminal and writes every cell of the next frame.
    public var shouldRepaint = false
    /// The zone the log's clock shows; tests pin it so screens do not depend on the machine. The machine's
    /// zone is looked up when a clock is first drawn, not before the first frame (a twentieth of it).
    public var timeZone: TimeZone = .autoupdatingCurrent {
        didSet { log.timeZone = timeZone; webSocketPane.timeZone = timeZone; historyPane?.timeZone = timeZone }
    }
    /// Ticks count while something moves on screen (a request in flight); the spinner uses it.
    public var ticks = 0
    /// Whether known secret values are drawn as they are (`--show-secrets`, or the palette's Show secrets).
    public internal(set) var secretsShown = false
    /// Secret values this session's sends used (sent credentials, private environment values, secret
    /// script globals): masked wherever the screen draws them.
    public internal(set) var knownSecrets: Set<String> = []
    /// `knownSecrets` ready to search for, rebuilt when one is learned.
    var secretMasker = SecretMasker(secrets: [String]())

    public init(size: Size, collectionPath: String, environment: String? = nil, theme: Theme = .dark,
                panes: PaneRegistry = .standard) {
        keys = KeyTables(panes: panes)
        self.size = size
        self.collectionPath = collectionPath
        self.environment = environment
        self.theme = theme
        loading = .loading(path: collectionPath)
    }

    /// Variables in effect for the open request, as the screen shows them: the environment's (private
    /// ones masked by the secret policy), then the file's `@` variables.
    public var variables: [String: String] { variables(maskingPrivate: true) }

    /// `variables`, with the private values as they are when they go on the wire (`maskingPrivate` false).
    func variables(maskingPrivate: Bool) -> [String: String] {
        let name = environment ?? "$shared"
        var values = collection.environments[name] ?? [:]
        if maskingPrivate {
            for secret in collection.privateNames[name] ?? [] where values[secret] != nil { values[secret] = SecretPolicy.mask }
        }
        for (name, value) in collection.fileVariables(editor.origin) where values[name] == nil { values[name] = value }
        return values
    }

    /// The smallest screen every pane is usable on.
    public static let minimumSize = Size(width: 60, height: 15)
    public var isTooSmall: Bool { size.width < Self.minimumSize.width || size.height < Self.minimumSize.height }

    /// Whether the loop should wake without input (to animate the spinner or a countdown).
    public var needsTick: Bool { inFlight != nil || panes.all.contains { $0.needsTick(self) } }

    /// Whether keys are being typed into a text field rather than used as commands.
    public var isTyping: Bool {
        if modals.isEmpty, panes.layoutOverlay(in: self)?.isTyping(self) == true { return true }
        if let top = modals.last {
            if case .help = top { return false }
            if case .confirm = top { return false }
            if case .problems = top { return false }
            if case .saveConflict = top { return false }
            return true
        }
        return panes.tile(focus).isTyping(self)
    }

    /// The state of a pane the registry added, kept under its scope; `initial` until it is first set.
    public func paneState<State: Sendable>(_ scope: KeyScope, initial: @autoclosure () -> State) -> State {
        paneStates[scope] as? State ?? initial()
    }

    /// Whether the response viewer's search, filter or go-to-line prompt is open.
    public var viewerPrompting: Bool {
        guard case .received = response.phase else { return false }
        return responsePane?.prompt != nil
    }
}
