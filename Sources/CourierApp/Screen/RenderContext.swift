import CourierSecurity
import CourierTerminal
import Foundation

/// What every pane view draws with besides its own state: the theme, the secrets to mask, the keys in use
/// (hints name the user's keys), the time the frame is drawn for, whether the pane has the keys, and where
/// to draw. Views read it and nothing else of the app, so a view is a pure function of its state and this.
public struct RenderContext: Sendable {
    public var theme: Theme
    /// Known secret values masked wherever text is drawn; nil while secrets are shown or none is known.
    public var masker: SecretMasker?
    public var keys: KeyTables
    /// The time the frame is drawn for (countdowns, the clock of the log).
    public var now: Date
    public var focused: Bool
    /// The whole pane for `PaneView.draw`, the inside of its frame for `PaneView.render`.
    public var area: Rect

    public init(theme: Theme = .dark, masker: SecretMasker? = nil, keys: KeyTables = .defaults, now: Date = Date(),
                focused: Bool = false, area: Rect) {
        self.theme = theme
        self.masker = masker
        self.keys = keys
        self.now = now
        self.focused = focused
        self.area = area
    }

    /// `text` as the screen may show it: known secret values masked.
    public func masked(_ text: String) -> String { masker?.mask(text) ?? text }
}

/// How a pane draws: the titles of its frame and its content, both pure functions of its state and the
/// render context. The screen draws every pane through `draw`.
public protocol PaneView {
    associatedtype State
    /// The titles on the pane's frame; `context.area` is the whole pane.
    static func frame(_ state: State, _ context: RenderContext) -> PaneFrame
    /// Draws the content inside the frame (`context.area` is the inside) and returns where the terminal
    /// cursor goes, if the pane has a text field being typed into.
    static func render(_ state: State, _ context: RenderContext, into buffer: inout Buffer) -> Position?
}

extension PaneView {
    /// Draws the frame around `context.area` and the content inside it; returns the cursor, if any.
    @discardableResult
    public static func draw(_ state: State, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        var inside = context
        inside.area = frame(state, context).render(into: &buffer, area: context.area, theme: context.theme,
                                                   focused: context.focused)
        guard !inside.area.isEmpty else { return nil }
        return render(state, inside, into: &buffer)
    }
}
