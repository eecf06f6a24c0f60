import Foundation

/// An incremental HTTP/1.1 request parser: feed it the bytes read from a connection, take out
/// complete requests one by one (pipelined requests included). It does no I/O, so it can be fuzzed.
/// After an error it stays failed and rethrows the same error.
public struct DemoRequestParser: Sendable {
    /// Size limits; what exceeds them is refused with the matching status (414, 431, 413).
    public struct Limits: Sendable, Equatable {
        /// Longest request line (414 beyond).
        public var requestLineBytes: Int
        /// Longest head, request line and fields together (431 beyond); also bounds chunked trailers.
        public var headerBytes: Int
        /// Most header fields (400 beyond).
        public var headerCount: Int
        /// Longest body (413 beyond).
        public var bodyBytes: Int

        /// Limits with the demo server's defaults unless given.
        public init(requestLineBytes: Int = 8 * 1024, headerBytes: Int = 32 * 1024, headerCount: Int = 100,
                    bodyBytes: Int = 256 * 1024 * 1024) {
            self.requestLineBytes = requestLineBytes
            self.headerBytes = headerBytes
            self.headerCount = headerCount
            self.bodyBytes = bodyBytes
        }

        /// The limits the demo server uses.
        public static let standard = Limits()
    }

    private enum State: Sendable {
        case head
        case body(DemoRequest, remaining: Int)
        case chunkSize(DemoRequest)
        case chunkData(DemoRequest, remaining: Int)
        case chunkEnd(DemoRequest)
        case trailers(DemoRequest, seen: Int)
        case failed(DemoError)
    }

    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    /// Longest chunk-size line accepted (size, extensions and CRLF).
    private static let chunkLineLimit = 4096
    /// Bytes allowed in a token (method, header name): RFC 9110 tchar.
    private static let tokenBytes: Set<UInt8> = Set("!#$%&'*+-.^_`|~".utf8)
        .union(UInt8(ascii: "0")...UInt8(ascii: "9"))
        .union(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        .union(UInt8(ascii: "a")...UInt8(ascii: "z"))

    /// The limits this parser enforces.
    public let limits: Limits
    private var buffer: [UInt8] = []
    /// Index of the first unconsumed byte in `buffer`.
    private var start = 0
    /// Index up to which `buffer` was already searched for the end of the head.
    private var scanned = 0
    private var body: [UInt8] = []
    private var state: State = .head
    /// True once a head with `Expect: 100-continue` was read and its body is still to come.
    public private(set) var awaitingContinue = false

    /// A parser waiting for the first request.
    public init(limits: Limits = .standard) { self.limits = limits }

    /// Adds bytes read from the connection.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received but not yet part of a returned request.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Takes the bytes received past the last returned request (for a protocol switch).
    public mutating func takeLeftover() -> [UInt8] {
        let rest = Array(buffer[start...])
        buffer = []
        start = 0
        scanned = 0
        return rest
    }

    /// The next complete request, nil when more bytes are needed.
    public mutating func next() throws(DemoError) -> DemoRequest? {
        do {
            let request = try step()
            compact()
            return request
        } catch {
            state = .failed(error)
            throw error
        }
    }

    // MARK: - State machine

    private mutating func step() throws(DemoError) -> DemoRequest? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .head:
                guard let request = try parseHead() else { return nil }
                if let done = try beginBody(request) { return done }
            case .body(let request, let remaining):
                let taken = take(upTo: remaining)
                if remaining - taken > 0 {
                    state = .body(request, remaining: remaining - taken)
                    return nil
                }
                return finish(request)
            case .chunkSize(let request):
                guard let line = try nextLine(limit: Self.chunkLineLimit, error: .badRequest(
                    reason: .chunkSize, detail: "chunk-size line longer than \(Self.chunkLineLimit) bytes"))
                else { return nil }
                let size = try Self.chunkSize(line)
                if size == 0 {
                    state = .trailers(request, seen: 0)
                } else {
                    guard body.count + size <= limits.bodyBytes else { throw .bodyTooLarge(limit: limits.bodyBytes) }
                    state = .chunkData(request, remaining: size)
                }
            case .chunkData(let request, let remaining):
                let taken = take(upTo: remaining)
                if remaining - taken > 0 {
                    state = .chunkData(request, remaining: remaining - taken)
                    return nil
                }
                state = .chunkEnd(request)
            case .chunkEnd(let request):
                guard start < buffer.count else { return nil }
                if buffer[start] == Self.lineFeed {
                    start += 1
                } else if buffer[start] == Self.carriageReturn {
                    guard start + 1 < buffer.count else { return nil }
                    guard buffer[start + 1] == Self.lineFeed else {
                        throw .badRequest(reason: .chunkTerminator, detail: Self.preview(buffer[start...]))
                    }
                    start += 2
                } else {
                    throw .badRequest(reason: .chunkTerminator, detail: Self.preview(buffer[start...]))
                }
                state = .chunkSize(request)
            case .trailers(let request, let seen):
                let remaining = limits.headerBytes - seen
                guard let line = try nextLine(limit: max(remaining, 0), error: .headersTooLarge(limit: limits.headerBytes))
                else { return nil }
                if line.isEmpty { return finish(request) }
                // Trailer fields are read and dropped: nothing in the demo API uses them.
                state = .trailers(request, seen: seen + line.count + 2)
            }
        }
    }

    /// Decides how the body is framed; returns the request at once when it has none.
    private mutating func beginBody(_ request: DemoRequest) throws(DemoError) -> DemoRequest? {
        let codings = Self.values(of: "transfer-encoding", in: request)
        let lengths = Self.values(of: "content-length", in: request)
        let expects = request.header("Expect")?.lowercased() == "100-continue"
        if !codings.isEmpty {
            guard lengths.isEmpty else {
                throw .badRequest(reason: .conflictingFraming, detail: "Content-Length with Transfer-Encoding")
            }
            let list = codings.map { $0.lowercased() }
            guard list == ["chunked"] else { throw .unsupportedTransferEncoding(codings.joined(separator: ", ")) }
            state = .chunkSize(request)
            awaitingContinue = expects
            return nil
        }
        guard !lengths.isEmpty else { return finish(request) }
        guard Set(lengths).count == 1, let text = lengths.first, !text.isEmpty, text.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let length = Int(text)
        else { throw .badRequest(reason: .contentLength, detail: lengths.joined(separator: ", ")) }
        guard length <= limits.bodyBytes else { throw .bodyTooLarge(limit: limits.bodyBytes) }
        if length == 0 { return finish(request) }
        state = .body(request, remaining: length)
        awaitingContinue = expects
        return nil
    }

    private mutating func finish(_ request: DemoRequest) -> DemoRequest {
        var complete = request
        complete.body = Data(body)
        body = []
        state = .head
        awaitingContinue = false
        return complete
    }

    /// Moves up to `count` buffered bytes into the body and says how many it moved.
    private mutating func take(upTo count: Int) -> Int {
        let taken = min(count, buffer.count - start)
        body.append(contentsOf: buffer[start..<(start + taken)])
        start += taken
        return taken
    }

    /// The next line without its line ending, nil when it is not complete yet.
    private mutating func nextLine(limit: Int, error: DemoError) throws(DemoError) -> [UInt8]? {
        guard let end = buffer[start...].firstIndex(of: Self.lineFeed) else {
            if buffer.count - start > limit { throw error }
            return nil
        }
        if end - start > limit { throw error }
        var line = Array(buffer[start..<end])
        if line.last == Self.carriageReturn { line.removeLast() }
        start = end + 1
        return line
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.count < 1 << 20)
            start = 0
            scanned = 0
        } else if start > 64 * 1024 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            scanned = max(scanned - start, 0)
            start = 0
        }
    }
}

// MARK: - Head

extension DemoRequestParser {
    /// Parses the request line and header fields once the empty line has arrived.
    private mutating func parseHead() throws(DemoError) -> DemoRequest? {
        // RFC 9112 section 2.2: ignore empty lines before the request line.
        while start < buffer.count, buffer[start] == Self.carriageReturn || buffer[start] == Self.lineFeed {
            start += 1
        }
        scanned = max(scanned, start)
        let firstLineEnd = buffer[start...].firstIndex(of: Self.lineFeed)
        let lineLength = (firstLineEnd ?? buffer.count) - start
        if lineLength > limits.requestLineBytes { throw .requestLineTooLong(limit: limits.requestLineBytes) }
        guard let headEnd = findHeadEnd() else {
            if buffer.count - start > limits.headerBytes { throw .headersTooLarge(limit: limits.headerBytes) }
            return nil
        }
        if headEnd - start > limits.headerBytes { throw .headersTooLarge(limit: limits.headerBytes) }
        var lines = buffer[start..<headEnd].split(separator: Self.lineFeed, omittingEmptySubsequences: false)
            .map { $0.last == Self.carriageReturn ? Array($0.dropLast()) : Array($0) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        start = headEnd
        scanned = headEnd
        guard let requestLine = lines.first else {
            throw .badRequest(reason: .requestLine, detail: "empty")
        }
        var request = try Self.parseRequestLine(requestLine)
        let fields = lines.dropFirst()
        guard fields.count <= limits.headerCount else {
            throw .badRequest(reason: .tooManyHeaders, detail: "\(fields.count) fields")
        }
        for field in fields { request.headers.append(try Self.parseField(field)) }
        return request
    }

    /// The index just past the empty line ending the head, searching only bytes not seen before.
    private mutating func findHeadEnd() -> Int? {
        var index = max(scanned, start)
        while index < buffer.count {
            if buffer[index] == Self.lineFeed {
                if index >= start + 1, buffer[index - 1] == Self.lineFeed { return index + 1 }
                if index >= start + 2, buffer[index - 1] == Self.carriageReturn, buffer[index - 2] == Self.lineFeed {
                    return index + 1
                }
            }
            index += 1
        }
        scanned = index
        return nil
    }

    private static func parseRequestLine(_ line: [UInt8]) throws(DemoError) -> DemoRequest {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .badRequest(reason: .requestLine, detail: preview(line)) }
        let method = parts[0], target = parts[1], version = String(decoding: parts[2], as: UTF8.self)
        guard !method.isEmpty, method.allSatisfy({ tokenBytes.contains($0) }) else {
            throw .badRequest(reason: .method, detail: preview(line))
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            let shaped = version.utf8.count == 8 && version.hasPrefix("HTTP/")
                && version.utf8.enumerated().allSatisfy { index, byte in
                    index < 5 || (index == 6 ? byte == UInt8(ascii: ".") : (0x30...0x39).contains(byte))
                }
            if shaped { throw .unsupportedVersion(version) }
            throw .badRequest(reason: .requestLine, detail: preview(line))
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw .badRequest(reason: .target, detail: preview(line))
        }
        let targetText = String(decoding: target, as: UTF8.self)
        let methodText = String(decoding: method, as: UTF8.self)
        guard let (path, query) = splitTarget(targetText, method: methodText) else {
            throw .badRequest(reason: .target, detail: preview(line))
        }
        return DemoRequest(method: methodText, path: path, query: query, version: version, target: targetText)
    }

    /// Splits origin-form, absolute-form or `*` into a decoded path and query items.
    private static func splitTarget(_ target: String, method: String)
        -> (String, [(name: String, value: String)])? {
        if target == "*" { return method == "OPTIONS" ? ("*", []) : nil }
        var originForm = Substring(target)
        if !target.hasPrefix("/") {
            guard let scheme = target.range(of: "://"),
                  ["http", "https"].contains(target[..<scheme.lowerBound].lowercased()) else { return nil }
            let afterAuthority = target[scheme.upperBound...]
            originForm = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" })
                .map { afterAuthority[$0...] } ?? "/"
            if originForm.hasPrefix("?") { originForm = "/" + originForm }
        }
        let pieces = originForm.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = String(pieces[0])
        let path = rawPath.removingPercentEncoding ?? rawPath
        guard pieces.count == 2 else { return (path, []) }
        let items = pieces[1].split(separator: "&").map { item -> (name: String, value: String) in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decodeQueryPart(pair[0]), pair.count == 2 ? decodeQueryPart(pair[1]) : "")
        }
        return (path, items)
    }

    private static func decodeQueryPart(_ part: Substring) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    private static func parseField(_ line: [UInt8]) throws(DemoError) -> (name: String, value: String) {
        if let first = line.first, first == 0x20 || first == 0x09 {
            throw .badRequest(reason: .foldedHeader, detail: preview(line))
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              line[..<colon].allSatisfy({ tokenBytes.contains($0) }) else {
            throw .badRequest(reason: .headerLine, detail: preview(line))
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        guard !value.contains(where: { $0 == 0 || $0 == carriageReturn }) else {
            throw .badRequest(reason: .headerLine, detail: preview(line))
        }
        return (String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    private static func chunkSize(_ line: [UInt8]) throws(DemoError) -> Int {
        let sizePart = line.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)[0]
        let digits = String(decoding: sizePart, as: UTF8.self).trimmingCharacters(in: .init(charactersIn: " \t"))
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(\.isHexDigit), let size = Int(digits, radix: 16)
        else { throw .badRequest(reason: .chunkSize, detail: preview(line)) }
        return size
    }

    /// Every value of a header, comma-separated lists split, trimmed.
    private static func values(of name: String, in request: DemoRequest) -> [String] {
        request.headers.filter { $0.name.lowercased() == name }
            .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A short printable rendering of offending bytes for error messages.
    private static func preview<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let shown = bytes.prefix(80).map { byte -> String in
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
        }.joined()
        return bytes.count > 80 ? shown + "…" : shown
    }
}
