import CourierHTTP
import CourierTerminal

/// The compare pane: a stored response beside its revalidation. A value; `handle` is the only
/// place it changes, and `ComparePaneView` draws it.
public struct ComparePaneState: Sendable, Hashable {
    /// `GET http://…/etag`, shown in the border.
    public var title: String
    public var comparison: CacheComparison?
    /// The stored response as it stands, shown alone until a revalidation gives something to compare.
    public var stored: CacheComparison.Side?
    /// A validation is in flight.
    public var isRevalidating: Bool
    /// Shown instead of a comparison: why there is none, or what failed.
    public var message: String?
    /// First visible row of the scrolling part.
    public var scroll: Int
    /// Rows the scrolling part had at the last render, for paging; the app sets it from the layout.
    public var pageSize: Int
    /// Columns inside the border, where long diff lines wrap; the app sets it from the layout.
    public var width: Int

    /// A pane titled `title`, showing `revalidation` when there is one.
    public init(title: String = "", revalidation: CacheRevalidation? = nil) {
        self.title = title
        comparison = revalidation.map(CacheComparison.init)
        stored = nil
        isRevalidating = false
        message = nil
        scroll = 0
        pageSize = 10
        width = 80
    }

    /// One keymap drives dispatch, the status bar hints and `?` help.
    public static let keymap: [KeyBinding<ComparePaneCommand>] = [
        KeyBinding([.char("r")], .revalidateNow, "revalidate now", hint: true),
        KeyBinding([.char("j"), Key(.down)], .scrollDown, "scroll down"),
        KeyBinding([.char("k"), Key(.up)], .scrollUp, "scroll up"),
        KeyBinding([Key(.pageDown), .char(" ")], .pageDown, "page down"),
        KeyBinding([Key(.pageUp)], .pageUp, "page up"),
        KeyBinding([.char("g"), Key(.home)], .top, "top"),
        KeyBinding([Key(.escape), .char("c")], .close, "close compare", hint: true),
    ]

    /// Applies a command; returns what the app must do, if anything.
    public mutating func handle(_ command: ComparePaneCommand) -> ComparePaneEffect? {
        switch command {
        case .revalidateNow:
            guard !isRevalidating else { return nil }
            isRevalidating = true
            message = nil
            return .revalidateNow
        case .scrollDown: scroll += 1
        case .scrollUp: scroll -= 1
        case .pageDown: scroll += max(1, pageSize - 1)
        case .pageUp: scroll -= max(1, pageSize - 1)
        case .top: scroll = 0
        case .close: return .close
        }
        scroll = max(0, min(scroll, max(0, ComparePaneView.scrollingLineCount(self) - 1)))
        return nil
    }

    /// Takes the result of a revalidation; nil means nothing usable was stored.
    public mutating func load(_ revalidation: CacheRevalidation?) {
        isRevalidating = false
        scroll = 0
        if let revalidation {
            comparison = CacheComparison(revalidation)
            message = nil
        } else {
            message = "Nothing is stored for this request yet: send it once, then revalidate."
        }
    }

    /// Records a failed revalidation, keeping the last comparison on screen.
    public mutating func fail(_ error: String) {
        isRevalidating = false
        message = "Revalidation failed: \(error)"
    }
}
