/// An array that skips elements which fail to decode instead of failing the whole response, and
/// counts them so the log can say how many were dropped.
public struct LossyArray<Element: Decodable>: Decodable {
    public var elements: [Element]
    /// How many elements were skipped.
    public var skipped: Int
    /// Why the first skipped element failed, for the log.
    public var firstFailure: String?

    public init(elements: [Element], skipped: Int = 0, firstFailure: String? = nil) {
        self.elements = elements
        self.skipped = skipped
        self.firstFailure = firstFailure
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        var skipped = 0
        var firstFailure: String?
        while !container.isAtEnd {
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                // A failed decode does not advance the container; consume the element as anything.
                _ = try? container.decode(Skipped.self)
                skipped += 1
                if firstFailure == nil {
                    firstFailure = (error as? DecodingError).map { "\($0.codingPathDescription): \($0.summary)" }
                        ?? String(describing: error)
                }
            }
        }
        self.init(elements: elements, skipped: skipped, firstFailure: firstFailure)
    }
}

extension LossyArray: Sendable where Element: Sendable {}

/// Decodes any JSON value (object, array, string, number, null) and keeps nothing.
private struct Skipped: Decodable {
    init(from decoder: any Decoder) throws {}
}
