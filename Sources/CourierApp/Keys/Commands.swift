/// Commands that work whichever pane has focus.
public enum GlobalCommand: Sendable, Hashable {
    case focusNext, focusPrevious
    case focus(PaneID)
    case send, cancel, save
    case zoom, palette, help, quit, suspend
    /// Clears the terminal and draws everything again (Ctrl-L).
    case repaint
    case chooseEnvironment, chooseTheme
    /// Lists the environment's cookie jar.
    case cookieJar
    /// Opens the history pane over the open request's responses, or over every request's.
    case history, historyAll
    /// Lists every problem of the collection; reads the collection from disk again.
    case problems, reload
}

/// Commands of the collection tree.
public enum CollectionCommand: Sendable, Hashable {
    case up, down, top, bottom, pageUp, pageDown
    case open, expand, collapse
    case filter, clearFilter
    case newRequest, duplicate, rename, delete
}

/// Commands of the request editor when not typing.
public enum RequestCommand: Sendable, Hashable {
    case edit, fieldUp, fieldDown, nextTab, previousTab
    case nextMethod, previousMethod
    case toggleResolved, toggleLive, undo
    case nextOption, previousOption
}

/// Commands while typing in a text field (request fields, filters, prompts).
public enum EditCommand: Sendable, Hashable {
    case stopEditing, accept
    case left, right, up, down, wordLeft, wordRight, home, end
    case backspace, deleteForward, deleteWord, deleteWordForward, deleteToStart, deleteToEnd, undo, redo
}

/// The explorer's own response commands, next to the response viewer's keymap.
public enum ResponseCommand: Sendable, Hashable {
    case copyBody, copyCurl, compare
}



/// Any command, so the palette can list and run all of them.
public enum AppCommand: Sendable, Hashable {
    case global(GlobalCommand)
    case collection(CollectionCommand)
    case request(RequestCommand)
    case response(ResponseCommand)
    /// A command of the response viewer (CourierApp/Panes/Response).
    case responsePane(ResponsePaneCommand)
    /// A command of the cache compare view (CourierApp/Panes/Compare), shown over the response.
    case compare(ComparePaneCommand)
    /// A command of the log pane (CourierApp/Panes/Log).
    case log(LogPaneCommand)
    /// A command of the WebSocket pane (CourierApp/Panes/WebSocket).
    case webSocket(WebSocketPaneCommand)
    case theme(String)
    case environment(String?)

    /// The pane a command belongs to; running it from the palette focuses that pane first.
    public var pane: PaneID? {
        switch self {
        case .collection: .collection
        case .request: .request
        case .response, .responsePane, .compare: .response
        case .log: .log
        case .webSocket: .webSocket
        default: nil
        }
    }
}
