/// One cell of the screen: a grapheme cluster and its style. A wide character occupies its cell and
/// the next one, which holds a `continuation` cell so the backend skips it.
public struct Cell: Sendable, Hashable {
    public var grapheme: String
    /// Display columns: 1, or 2 for East Asian wide and emoji; 0 for the trailing half of a wide cell.
    public var width: UInt8
    public var style: Style

    public init(_ grapheme: String = " ", width: UInt8 = 1, style: Style = .plain) {
        self.grapheme = grapheme
        self.width = width
        self.style = style
    }

    public static let blank = Cell()
    /// The trailing half of a wide character.
    public static func continuation(_ style: Style) -> Cell { Cell("", width: 0, style: style) }
    public var isContinuation: Bool { width == 0 }
}
