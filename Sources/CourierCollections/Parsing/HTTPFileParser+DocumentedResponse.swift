/// httpyac's documented response: a status line such as `HTTP/1.1 200  - OK` under a request (httpyac's
/// "save response in the file" writes one, headers and body after it) starts text that documents what the
/// server answered. It and everything after it up to the next `###` are not part of the request.
extension HTTPFileParser {
    /// The line where a documented response starts in `bodyStart..<end`: a status line at the start of the
    /// body or after a blank line (a body's own text is left alone); nil when there is none.
    func documentedResponseStart(bodyStart: Int, end: Int) -> Int? {
        var index = bodyStart
        while index < end {
            if index == bodyStart || lines[index - 1].isBlank, Self.isStatusLine(lines[index].trimmed) { return index }
            index += 1
        }
        return nil
    }

    /// `HTTP/VERSION CODE [-] [reason]` with a code from 100 to 599, as httpyac reads a response's first line.
    static func isStatusLine(_ trimmed: some StringProtocol) -> Bool {
        guard trimmed.hasPrefix("HTTP/") else { return false }
        let afterVersion = trimmed.dropFirst(5).drop { !$0.isWhitespace }
        let code = afterVersion.drop(while: \.isWhitespace)
        let digits = code.prefix(3)
        guard digits.count == 3, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let first = digits.first, ("1"..."5").contains(first) else { return false }
        let rest = code.dropFirst(3)
        return rest.isEmpty || rest.first?.isWhitespace == true || rest.first == "-"
    }
}
