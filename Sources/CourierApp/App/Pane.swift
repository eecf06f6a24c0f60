import CourierTerminal

/// Where a pane shows.
public enum PanePlacement: Sendable, Hashable {
    /// A tile of the layout, focused by its number key, in `slot` of the full layout (tiles that share a slot
    /// take turns: the focused one shows).
    case tile(PaneID, LayoutSlot)
    /// Drawn in the place of a tile while open, taking that tile's keys first (the cache compare view).
    case over(PaneID)
    /// Drawn over the whole layout while open, taking every key (history).
    case overLayout
}

/// A pane as one unit: its key scope and keymap, how it handles its commands, keys, paste, mouse and
/// actions, how it is drawn, and its help. Dispatch, the status bar hints, `?` help, the palette and the
/// screen loop over the registry (`PaneRegistry`) and ask each pane; none of them names a pane. A new pane is
/// a folder of its own and one line in the registry.
///
/// The requirements have defaults for what most panes do not need: a pane writes what it has.
public protocol Pane: Sendable {
    associatedtype Command: KeyCommandName

    /// The scope config.json rebinds the pane's keys under.
    var scope: KeyScope { get }
    var placement: PanePlacement { get }
    /// The keys as shipped; dispatch, hints, help and the palette read them with the user's rebindings.
    var keymap: [KeyBinding<Command>] { get }

    /// The title of the pane's section in help, saying how to reach it: `Log (4) [log]`.
    func helpTitle(_ keys: KeyTables) -> String
    /// Sections help lists after the pane's own: keys of its text fields, which are not rebound.
    var typingSections: [HelpCatalog.Section] { get }
    /// Whether the palette lists the pane's commands.
    var inPalette: Bool { get }

    /// Whether an overlay is open (a tile always is).
    func isOpen(_ state: AppState) -> Bool
    /// Whether keys are typed into a field of the pane rather than used as commands.
    func isTyping(_ state: AppState) -> Bool
    /// Whether global keys that type nothing (Ctrl-C, Tab, Ctrl-S) still work while typing in the pane.
    var globalKeysWhileTyping: Bool { get }
    /// Whether something on the pane moves without input (a countdown, background work), so the loop ticks.
    func needsTick(_ state: AppState) -> Bool

    /// Runs one of the pane's commands, from a key or the palette.
    func run(_ command: Command, in state: inout AppState) -> [Effect]
    /// The pane's command for a key when not typing (its table, with the user's keys).
    func command(for key: Key, in state: AppState) -> Command?
    /// A key typed into the pane's field.
    func type(_ key: Key, in state: inout AppState) -> [Effect]
    /// A key while the pane has the keys: typed, run as its command, or nil to pass it on to the global keys.
    func handle(_ key: Key, in state: inout AppState) -> [Effect]?
    /// Pasted text; nil when the pane takes none (the status bar says where paste goes).
    func paste(_ text: String, in state: inout AppState) -> [Effect]?
    /// A click at `position` inside the pane's `area` (after the pane got the focus).
    func click(at position: Position, area: Rect, in state: inout AppState)
    /// The mouse wheel over the pane: `delta` rows, negative up.
    func scroll(by delta: Int, in state: inout AppState)
    /// An action only this pane cares about (its effects' results); nil when it is not one.
    func update(_ action: Action, in state: inout AppState) -> [Effect]?
    /// Time passed while something on screen moves.
    func tick(in state: inout AppState)

    /// The hints while typing in the pane: what Enter and Esc do, then the editing keys it shares.
    func typingHints(_ state: AppState) -> [HelpCatalog.Entry]
    /// Draws the pane, frame included, into `context.area`; returns the cursor when a field is typed into.
    func draw(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position?
}

extension Pane {
    public var typingSections: [HelpCatalog.Section] { [] }
    public var inPalette: Bool { true }
    public func isOpen(_ state: AppState) -> Bool { true }
    public func isTyping(_ state: AppState) -> Bool { false }
    public var globalKeysWhileTyping: Bool { true }
    public func needsTick(_ state: AppState) -> Bool { false }
    public func type(_ key: Key, in state: inout AppState) -> [Effect] { [] }
    public func paste(_ text: String, in state: inout AppState) -> [Effect]? { nil }
    public func click(at position: Position, area: Rect, in state: inout AppState) {}
    public func scroll(by delta: Int, in state: inout AppState) {}
    public func update(_ action: Action, in state: inout AppState) -> [Effect]? { nil }
    public func tick(in state: inout AppState) {}
    public func typingHints(_ state: AppState) -> [HelpCatalog.Entry] { HelpCatalog.editingHints }

    /// A tile's help title: `Log (4) [log]`, with the key that focuses it.
    public func helpTitle(_ keys: KeyTables) -> String {
        guard case .tile(let id, _) = placement else { return "\(scope) [\(scope)]" }
        return "\(id.title) (\(keys.spelling(of: .global(.focus(id))))) [\(scope)]"
    }

    public func command(for key: Key, in state: AppState) -> Command? { state.keys.keymap(of: self).command(for: key) }

    public func handle(_ key: Key, in state: inout AppState) -> [Effect]? {
        if isTyping(state) {
            // Keys that are never characters still reach the global commands that work while typing.
            if globalKeysWhileTyping, key.typedText == nil, let global = state.keys.global.command(for: key),
               Keymaps.globalWhileTyping.contains(global) {
                return nil
            }
            return type(key, in: &state)
        }
        return command(for: key, in: state).map { run($0, in: &state) }
    }

    /// The pane's command as the app's, for the palette and for spelling its key.
    public func appCommand(_ command: Command) -> AppCommand { .pane(PaneCommand(scope, command)) }

    /// Runs a command given without its type, when it is this pane's.
    func run(_ command: PaneCommand, in state: inout AppState) -> [Effect]? {
        command.command(as: Command.self).map { run($0, in: &state) }
    }
}
