import CourierTerminal

/// What the WebSocket pane's keys do while browsing the messages.
public enum WebSocketPaneCommand: KeyCommandName {
    case connect
    case disconnect
    /// Opens the send box.
    case compose
    /// Opens the filter line.
    case filter
    case clearFilter
    case togglePause
    /// Back to the newest message, following again.
    case follow
    case scrollUp
    case scrollDown
    case pageUp
    case pageDown
    case oldest
    case previousSaved
    case nextSaved
    /// Sends the selected saved message.
    case sendSaved
    /// Sends every saved message in order.
    case sendAllSaved
    /// Marks or unmarks the selected saved message as a subscription (re-sent on every reconnect).
    case toggleSubscription
    case togglePrettyJSON
    case clearMessages
    /// Saves the kept messages to a file (asks for its name).
    case saveMessages
    /// Ends the client's stream of a gRPC call (half-close); replies keep coming.
    case endStream
}

extension WebSocketPaneState {
    /// One keymap drives dispatch, the status bar hints and `?` help, while browsing.
    public static let keymap: [KeyBinding<WebSocketPaneCommand>] = [
        KeyBinding([.char("o")], .connect, "connect", hint: true),
        KeyBinding([.char("D")], .disconnect, "disconnect"),
        KeyBinding([.char("i"), Key(.enter)], .compose, "write a message", hint: true),
        KeyBinding([.char("/")], .filter, "filter", hint: true),
        KeyBinding([.char("\\")], .clearFilter, "clear filter"),
        KeyBinding([.char("p"), .char(" ")], .togglePause, "pause / resume", hint: true),
        KeyBinding([.char("G"), Key(.end)], .follow, "follow newest"),
        KeyBinding([.char("k"), Key(.up)], .scrollUp, "older message"),
        KeyBinding([.char("j"), Key(.down)], .scrollDown, "newer message"),
        KeyBinding([Key(.pageUp)], .pageUp, "page up"),
        KeyBinding([Key(.pageDown)], .pageDown, "page down"),
        KeyBinding([.char("g"), Key(.home)], .oldest, "oldest kept"),
        KeyBinding([.char("[")], .previousSaved, "previous saved message"),
        KeyBinding([.char("]")], .nextSaved, "next saved message"),
        KeyBinding([.char("s")], .sendSaved, "send saved message", hint: true),
        KeyBinding([.char("S")], .sendAllSaved, "send all saved messages"),
        KeyBinding([.char("m")], .toggleSubscription, "mark as subscription"),
        KeyBinding([.char("J")], .togglePrettyJSON, "expand every message"),
        KeyBinding([.char("c")], .clearMessages, "clear messages"),
        KeyBinding([.char("w")], .saveMessages, "save kept messages to a file"),
        KeyBinding([.char("e")], .endStream, "end the client stream (gRPC)"),
    ]

    /// What the send box does with keys (the rest edit the text); listed for help.
    public static let composeKeymap: [KeyBinding<WebSocketPaneComposeCommand>] = [
        KeyBinding([Key(.enter)], .send, "send", hint: true),
        KeyBinding([Key(.enter, alt: true), .ctrl("j")], .newline, "new line", hint: true),
        KeyBinding([Key(.up, ctrl: true), Key(.up, alt: true)], .historyPrevious, "previous sent message"),
        KeyBinding([Key(.down, ctrl: true), Key(.down, alt: true)], .historyNext, "next sent message"),
        KeyBinding([Key(.escape)], .cancel, "close the send box", hint: true),
    ]
}
