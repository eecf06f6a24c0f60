/// Something that draws into a buffer. A widget reads its own values and the area it is given,
/// writes cells inside that area, and touches nothing else: no terminal, no app state.
public protocol Widget {
    /// Draws into `buffer` within `area`.
    func render(into buffer: inout Buffer, area: Rect)
}
