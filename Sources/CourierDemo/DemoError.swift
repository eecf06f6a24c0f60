import Foundation

/// Everything that can go wrong in the demo server: socket calls, and requests it cannot accept.
public enum DemoError: Error, Equatable, Sendable {
    /// A socket call failed; `call` names it and `code` is errno.
    case socket(call: String, code: Int32)
    /// The host to bind is not an IPv4 address.
    case invalidHost(String)
    /// The peer closed the connection (or the server is stopping) before the response was done.
    case peerClosed
    /// A request the parser rejected; `reason` says why and `detail` shows what it saw.
    case badRequest(reason: BadRequestReason, detail: String)
    /// The request line is longer than the limit.
    case requestLineTooLong(limit: Int)
    /// The request line and header fields together are longer than the limit.
    case headersTooLarge(limit: Int)
    /// The request body is longer than the limit.
    case bodyTooLarge(limit: Int)
    /// A transfer coding other than chunked.
    case unsupportedTransferEncoding(String)
    /// An HTTP version other than 1.0 and 1.1.
    case unsupportedVersion(String)

    /// Why a request is malformed.
    public enum BadRequestReason: String, Sendable {
        case requestLine = "malformed request line"
        case method = "invalid method"
        case target = "invalid request target"
        case headerLine = "malformed header field"
        case foldedHeader = "obsolete line folding"
        case contentLength = "invalid Content-Length"
        case conflictingFraming = "both Content-Length and Transfer-Encoding"
        case chunkSize = "invalid chunk size"
        case chunkTerminator = "missing CRLF after chunk data"
        case tooManyHeaders = "too many header fields"
    }

    /// The status code the server answers this error with.
    public var status: Int {
        switch self {
        case .requestLineTooLong: 414
        case .headersTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupportedTransferEncoding: 501
        case .unsupportedVersion: 505
        case .badRequest: 400
        case .socket, .invalidHost, .peerClosed: 500
        }
    }

    /// A one-line description for logs and error bodies.
    public var message: String {
        switch self {
        case .socket(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .invalidHost(let host): "not an IPv4 address: \(host)"
        case .peerClosed: "the peer closed the connection"
        case .badRequest(let reason, let detail): "\(reason.rawValue): \(detail)"
        case .requestLineTooLong(let limit): "request line longer than \(limit) bytes"
        case .headersTooLarge(let limit): "request header fields larger than \(limit) bytes"
        case .bodyTooLarge(let limit): "request body larger than \(limit) bytes"
        case .unsupportedTransferEncoding(let coding): "unsupported transfer coding: \(coding)"
        case .unsupportedVersion(let version): "unsupported HTTP version: \(version)"
        }
    }
}
