import Foundation

/// What a demo endpoint answers: a status, header fields and a body that is either bytes, a stream
/// written while the client waits, or raw bytes for the fault endpoints.
struct DemoResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Body
    /// A wait before answering, during which a client that leaves is noticed (the response is aborted).
    var delayMilliseconds = 0
    /// Close the connection after this response even if the client wanted to keep it.
    var closesConnection = false

    /// How the body is produced.
    enum Body {
        /// A complete body, sent with Content-Length.
        case bytes([UInt8])
        /// A body written piece by piece: with Content-Length when `length` is known, chunked otherwise.
        case stream(length: Int?, (DemoStreamWriter) throws -> Void)
        /// The handler writes the entire response itself, status line included; the connection
        /// closes afterwards. The fault endpoints use it to send what no correct server would.
        case raw((DemoStreamWriter) throws -> Void)
    }

    init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body from Foundation property-list values (dictionaries, arrays, strings, numbers).
    static func json(_ status: Int, _ object: Any, headers: [(name: String, value: String)] = []) -> DemoResponse {
        DemoResponse(status: status, headers: [("Content-Type", "application/json")] + headers,
                     body: .bytes(DemoJSON.encode(object)))
    }

    /// A JSON error body `{"error": …, "status": …}`.
    static func error(_ status: Int, _ message: String, headers: [(name: String, value: String)] = [],
                      extra: [String: Any] = [:]) -> DemoResponse {
        var object: [String: Any] = ["error": message, "status": status]
        object.merge(extra) { _, new in new }
        return json(status, object, headers: headers)
    }

    /// A plain-text body.
    static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8")
        -> DemoResponse {
        DemoResponse(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)))
    }

    /// Whether a status never carries a body (RFC 9110: 1xx, 204, 304).
    static func isBodiless(_ status: Int) -> Bool { status < 200 || status == 204 || status == 304 }

    /// The first value of a header field set by the endpoint.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Writes a streamed or raw response body to the connection, framing chunks when the body is chunked.
final class DemoStreamWriter {
    private let socket: DemoSocket
    private let chunked: Bool
    /// Bytes put on the wire by this writer, framing included.
    private(set) var bytesWritten = 0
    /// Set by `reset()`: the connection closes with a TCP reset.
    private(set) var wantsReset = false

    init(socket: DemoSocket, chunked: Bool) {
        self.socket = socket
        self.chunked = chunked
    }

    /// Writes body bytes (as one chunk when chunked); throws when the client has gone.
    func write(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        if chunked {
            let framed = Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [0x0D, 0x0A]
            try socket.write(framed)
            bytesWritten += framed.count
        } else {
            try socket.write(bytes)
            bytesWritten += bytes.count
        }
    }

    /// Writes text as UTF-8.
    func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Waits, throwing as soon as the client leaves or the server stops.
    func pause(milliseconds: Int) throws { try socket.pause(milliseconds: milliseconds) }

    /// Whether the client has closed its end.
    var peerHasClosed: Bool { socket.peerHasClosed() }

    /// Makes the connection end with a TCP reset instead of an orderly close.
    func reset() {
        socket.prepareReset()
        wantsReset = true
    }

    /// Writes the last chunk of a chunked body.
    func finish() throws {
        guard chunked else { return }
        try socket.write("0\r\n\r\n")
        bytesWritten += 5
    }
}
