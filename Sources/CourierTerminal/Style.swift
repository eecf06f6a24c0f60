/// A colour as a theme names it. The backend maps it to what the terminal can show:
/// true colour, the nearest of 256, or the nearest of 8/16.
public enum Color: Sendable, Hashable {
    /// The terminal's own foreground or background.
    case `default`
    /// One of the 256 indexed colours (0–15 are the terminal's palette).
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    public static let black = Color.indexed(0)
    public static let red = Color.indexed(1)
    public static let green = Color.indexed(2)
    public static let yellow = Color.indexed(3)
    public static let blue = Color.indexed(4)
    public static let magenta = Color.indexed(5)
    public static let cyan = Color.indexed(6)
    public static let white = Color.indexed(7)
    public static let gray = Color.indexed(8)
    public static let brightRed = Color.indexed(9)
    public static let brightGreen = Color.indexed(10)
    public static let brightYellow = Color.indexed(11)
    public static let brightBlue = Color.indexed(12)
    public static let brightMagenta = Color.indexed(13)
    public static let brightCyan = Color.indexed(14)
    public static let brightWhite = Color.indexed(15)
}

/// Text attributes a terminal can show.
public struct Attributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = Attributes(rawValue: 1 << 0)
    public static let dim = Attributes(rawValue: 1 << 1)
    public static let italic = Attributes(rawValue: 1 << 2)
    public static let underline = Attributes(rawValue: 1 << 3)
    public static let reverse = Attributes(rawValue: 1 << 4)
}

/// Foreground, background and attributes of a cell.
public struct Style: Sendable, Hashable {
    public var foreground: Color
    public var background: Color
    public var attributes: Attributes

    public init(foreground: Color = .default, background: Color = .default, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = Style()

    public func fg(_ color: Color) -> Style { var s = self; s.foreground = color; return s }
    public func bg(_ color: Color) -> Style { var s = self; s.background = color; return s }
    public func with(_ attributes: Attributes) -> Style { var s = self; s.attributes.formUnion(attributes); return s }
}
