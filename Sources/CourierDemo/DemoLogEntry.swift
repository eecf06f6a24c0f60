import Foundation

/// One request the demo server received and what became of its response.
public struct DemoLogEntry: Sendable {
    /// Position in the server's log since it started (not reset by `resetLog`).
    public let sequence: Int
    /// The request method; `-` for bytes the parser refused.
    public let method: String
    /// The decoded path; `-` for bytes the parser refused.
    public let path: String
    /// Query items in order.
    public let query: [(name: String, value: String)]
    /// Request header fields in order, names as sent.
    public let headers: [(name: String, value: String)]
    /// The status sent (or being sent); 0 when the server answered nothing (a reset, a parse failure
    /// before any response, a request still being handled).
    public internal(set) var status: Int
    /// The whole response was written.
    public internal(set) var completed: Bool
    /// Writing failed or the client closed before the response was done.
    public internal(set) var aborted: Bool
    /// The TCP connection the request came on, counting from 1.
    public let connection: Int
    /// Response bytes written, head included.
    public internal(set) var bytesSent: Int
    /// The first `bodyPrefixLimit` bytes of the request body, so tests can check what a client sent.
    public var bodyPrefix = Data()

    /// How much of each request body the log keeps.
    public static let bodyPrefixLimit = 64 << 10

    /// Whether the response is still being produced.
    public var isPending: Bool { !completed && !aborted }

    /// The first value of a request header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
