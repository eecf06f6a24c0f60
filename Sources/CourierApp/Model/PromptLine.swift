import CourierTerminal

/// The one-line editor of every prompt (the response's search, JSONPath filter and go-to-line, the dialogs'
/// questions): readline's keys (`Keymaps.editing`), paste, and ↑/↓ through what earlier prompts of its kind
/// were given (`PromptHistory`).
public struct PromptLine: Sendable, Hashable {
    /// What a key did to the prompt.
    public enum Outcome: Sendable, Hashable {
        /// Enter: the owner takes the text.
        case accept
        /// Esc: the owner closes the prompt.
        case cancel
        case edited
        /// Not a key of the prompt's: the owner may use it.
        case ignored
    }

    public var editor: LineEditor
    /// Earlier entries of this kind of prompt, oldest first.
    public var history: [String]
    /// The entry of `history` shown while browsing it; nil on the line being typed.
    private var historyIndex: Int?
    /// The line being typed, kept while older entries are shown.
    private var typed = ""

    public init(_ text: String = "", history: [String] = []) {
        editor = LineEditor(text)
        self.history = history
    }

    /// The text being edited.
    public var text: String { editor.text }
    public var isEmpty: Bool { editor.isEmpty }

    /// Takes a key: readline's keys edit, ↑/↓ walk the history (when `browsesHistory`; a list under the prompt
    /// takes them otherwise), Enter accepts and Esc cancels.
    public mutating func type(_ key: Key, browsesHistory: Bool = true) -> Outcome {
        switch Keymaps.editing.command(for: key) {
        case .accept?: return .accept
        case .stopEditing?: return .cancel
        case .up? where browsesHistory: showHistory(step: -1)
        case .down? where browsesHistory: showHistory(step: 1)
        case .up?, .down?: return .ignored
        case let command?: apply(command)
        case nil:
            guard let text = key.typedText else { return .ignored }
            insert(text)
        }
        return .edited
    }

    /// Applies a readline command (↑/↓ walk the history).
    public mutating func apply(_ command: EditCommand) {
        switch command {
        case .up: showHistory(step: -1)
        case .down: showHistory(step: 1)
        default: editor.apply(command)
        }
    }

    /// Types `text` at the cursor.
    public mutating func insert(_ text: String) { editor.insert(text) }

    /// Pasted text, as one undo step (line breaks become spaces).
    public mutating func paste(_ text: String) { editor.paste(text) }

    /// Shows the entry `step` older (-1) or newer (+1) than the one shown; past the newest, the typed line.
    private mutating func showHistory(step: Int) {
        guard !history.isEmpty else { return }
        let current = historyIndex ?? history.count
        let next = min(max(0, current + step), history.count)
        guard next != current else { return }
        if historyIndex == nil { typed = editor.text }
        historyIndex = next < history.count ? next : nil
        editor.setText(next < history.count ? history[next] : typed)
    }
}
