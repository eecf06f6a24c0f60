import CourierMessage

/// Reading a head: from an `HTTPResponse` (the cache) and from header lines as libcurl or a socket hands them over.
extension ResponseHead {
    /// The head of `response`, for responses that did not come from the network (the cache).
    public init(_ response: HTTPResponse) {
        self.init(version: response.httpVersion, status: response.status, reason: response.reason,
                  headers: response.headers)
    }

    /// A head from its lines as they came, status line first (an HTTP/1 head read off a socket), parsed
    /// as libcurl's header lines are.
    public init(lines: some Sequence<some StringProtocol>) {
        self.init()
        for line in lines { consume(line: String(line)) }
    }

    /// The declared body length, for progress reports.
    var contentLength: Int? { headers["Content-Length"].flatMap { Int($0.trimmingSpaces) } }

    /// Whether a head of this status is an interim one (`100 Continue`, `103 Early Hints`) that
    /// another head follows on the same transfer.
    var isInterim: Bool { (100..<200).contains(status) }
    /// Whether the body comes compressed (any Content-Encoding but identity), so libcurl decodes it.
    var isContentEncoded: Bool {
        let coding = (headers["Content-Encoding"] ?? "").trimmingSpaces.lowercased()
        return !coding.isEmpty && coding != "identity"
    }

    /// Parses one line from libcurl's header callback. A new status line (after a redirect or a
    /// `100 Continue`) starts over.
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
        // An obs-fold line (RFC 9112 section 5.2) continues the previous field's value: joined with one space.
        if let first = line.first, first == " " || first == "\t" {
            let continuation = line.trimmingSpaces
            if !continuation.isEmpty { headers.continueLastValue(with: continuation) }
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
