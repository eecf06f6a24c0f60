import CourierSecurity
/// A run of text in one style.
public struct Span: Sendable, Hashable {
    public var text: String
    public var style: Style

    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// The columns the span takes once sanitised.
    public var width: Int { DisplayWidth.of(Sanitizer.sanitize(text)) }
}

/// One line of styled text: what lists, text views and status bars draw.
public struct StyledLine: Sendable, Hashable, ExpressibleByStringLiteral {
    public var spans: [Span]

    public init(_ spans: [Span] = []) { self.spans = spans }
    public init(_ text: String, style: Style = .plain) { spans = [Span(text, style: style)] }
    public init(stringLiteral value: String) { spans = [Span(value)] }

    /// The columns the line takes.
    public var width: Int { spans.reduce(0) { $0 + $1.width } }
    /// The text without styles.
    public var plainText: String { spans.map(\.text).joined() }

    /// The line in at most `width` columns: whole when it fits, else cut with `…`, so a cut line never
    /// passes for a whole one.
    public func fitted(to width: Int) -> StyledLine {
        guard self.width > width, width > 0 else { return self }
        var result = StyledLine()
        var left = width - 1
        for span in spans {
            let (prefix, used) = DisplayWidth.prefix(of: Sanitizer.sanitize(span.text), fitting: left)
            result.append(String(prefix), style: span.style)
            left -= used
            if left <= 0 || prefix.count < span.text.count { break }
        }
        result.append("…", style: spans.last?.style ?? .plain)
        return result
    }

    /// Appends a span.
    public mutating func append(_ text: String, style: Style = .plain) { spans.append(Span(text, style: style)) }

    /// The line with `style` laid under every span: its colours fill in where a span has the default.
    public func patched(with style: Style) -> StyledLine {
        StyledLine(spans.map { Span($0.text, style: style.overlaid(by: $0.style)) })
    }
}

extension Style {
    /// This style with `top`'s non-default colours and its attributes laid over it.
    public func overlaid(by top: Style) -> Style {
        var result = self
        if top.foreground != .default { result.foreground = top.foreground }
        if top.background != .default { result.background = top.background }
        result.attributes.formUnion(top.attributes)
        return result
    }
}
