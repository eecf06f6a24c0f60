/// The status line and header fields of a response, parsed from libcurl's header callback one line
/// at a time. A new status line (after a redirect or a `100 Continue`) starts over.
struct ResponseHead {
    var version = ""
    var status = 0
    var reason = ""
    var headers = HTTPHeaders()

    /// The declared body length, for progress reports.
    var contentLength: Int? { headers["Content-Length"].flatMap { Int($0.trimmingSpaces) } }

    mutating func consume(line raw: String) {
        let line = raw.trimmingLineEnd
        if line.hasPrefix("HTTP/") {
            self = ResponseHead()
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            version = parts.first.map(String.init) ?? ""
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            reason = parts.count > 2 ? String(parts[2]) : ""
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon]).trimmingSpaces
        let value = String(line[line.index(after: colon)...]).trimmingSpaces
        guard !name.isEmpty else { return }
        headers.add(name, value)
    }
}

extension String {
    /// Without trailing CR and LF.
    var trimmingLineEnd: String {
        var result = Substring(self)
        while let last = result.last, last == "\n" || last == "\r" || last == "\r\n" { result = result.dropLast() }
        return String(result)
    }

    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpaces: String {
        var result = Substring(self)
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return String(result)
    }
}
