/// httpyac's header spread: a `...name` line among the headers sends the entries of the object `name` (a
/// variable or a JavaScript expression, such as what a script exported) as headers.
extension HTTPFileParser {
    /// The expression of a `...expression` line (a trailing comma allowed, as httpyac's grammar has it); nil
    /// for any other line.
    static func headerSpread(_ trimmed: String) -> String? {
        guard trimmed.hasPrefix("...") else { return nil }
        var expression = trimmed.dropFirst(3)
        if expression.hasSuffix(",") { expression = expression.dropLast() }
        guard !expression.isEmpty, !expression.contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
        return String(expression)
    }
}
