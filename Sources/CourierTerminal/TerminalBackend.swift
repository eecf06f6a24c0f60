/// What the app needs from a terminal. The curses backend and the test backend both implement it,
/// so every screen can be asserted as text.
public protocol TerminalBackend: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// Writes the cells of `buffer` that differ from the last frame, then places the cursor
    /// (hidden when nil), and flushes once.
    func draw(_ buffer: Buffer, cursor: Position?)
    /// Waits up to `timeout` for input (nil waits forever); returns nil on timeout.
    func nextEvent(timeout: Duration?) -> InputEvent?
    /// Makes a `nextEvent` that is waiting return nil at once. Safe to call from any thread: the app's
    /// effect runner calls it when a result arrives, so the loop redraws without polling.
    func wake()
    /// Restores the terminal to how it was found.
    func restore()
    /// Hands the terminal back to the shell and stops the process (Ctrl-Z: in raw mode it arrives as a
    /// key, so the app decides); after `fg` the next `nextEvent` returns a resize and the next draw
    /// repaints everything.
    func suspend()
    /// Forgets what the terminal shows: the next `draw` clears the screen and writes every cell.
    func repaint()
}

extension TerminalBackend {
    /// Backends without a process to stop ignore it.
    public func suspend() {}
    /// Backends that keep no picture of the screen ignore it.
    public func repaint() {}
}

/// Something the user did.
public enum InputEvent: Sendable, Hashable {
    case key(Key)
    case paste(String)
    case mouse(MouseEvent)
    case resize(Size)
}

/// A key with its modifiers.
public struct Key: Sendable, Hashable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        case character(Character)
        case enter, tab, backspace, delete, escape, insert
        case up, down, left, right, home, end, pageUp, pageDown
        case function(Int)
    }

    public var code: Code
    public var ctrl: Bool
    public var alt: Bool
    public var shift: Bool

    public init(_ code: Code, ctrl: Bool = false, alt: Bool = false, shift: Bool = false) {
        self.code = code
        self.ctrl = ctrl
        self.alt = alt
        self.shift = shift
    }

    public static func char(_ c: Character) -> Key { Key(.character(c)) }
    public static func ctrl(_ c: Character) -> Key { Key(.character(c), ctrl: true) }

    /// How help and the status bar spell the key: `Ctrl-S`, `Alt-x`, `Shift-Tab`, `Enter`, `Space`, `j`.
    public var description: String {
        var parts: [String] = []
        if ctrl { parts.append("Ctrl") }
        if alt { parts.append("Alt") }
        if shift { parts.append("Shift") }
        let name: String = switch code {
        case .character(" "): "Space"
        case .character(let c): ctrl ? String(c).uppercased() : String(c)
        case .enter: "Enter"
        case .tab: "Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .escape: "Esc"
        case .insert: "Ins"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let n): "F\(n)"
        }
        parts.append(name)
        return parts.joined(separator: "-")
    }
}

/// A mouse action at a cell.
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case press, release, scrollUp, scrollDown }
    public var kind: Kind
    public var position: Position
    public init(kind: Kind, position: Position) { self.kind = kind; self.position = position }
}
