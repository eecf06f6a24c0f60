import CourierHTTP
import CourierMessage
import Foundation

/// How a gRPC call ended: `grpc-status`, `grpc-message` (percent-decoded) and the raw
/// `grpc-status-details-bin` (a serialized `google.rpc.Status`).
public struct GRPCStatus: Sendable, Equatable, CustomStringConvertible {
    /// gRPC's status codes.
    public enum Code: Int, Sendable, CaseIterable {
        case ok = 0, cancelled, unknown, invalidArgument, deadlineExceeded, notFound, alreadyExists
        case permissionDenied, resourceExhausted, failedPrecondition, aborted, outOfRange, unimplemented
        case `internal`, unavailable, dataLoss, unauthenticated

        /// The name gRPC prints: `INVALID_ARGUMENT`.
        public var name: String {
            switch self {
            case .ok: "OK"
            case .cancelled: "CANCELLED"
            case .unknown: "UNKNOWN"
            case .invalidArgument: "INVALID_ARGUMENT"
            case .deadlineExceeded: "DEADLINE_EXCEEDED"
            case .notFound: "NOT_FOUND"
            case .alreadyExists: "ALREADY_EXISTS"
            case .permissionDenied: "PERMISSION_DENIED"
            case .resourceExhausted: "RESOURCE_EXHAUSTED"
            case .failedPrecondition: "FAILED_PRECONDITION"
            case .aborted: "ABORTED"
            case .outOfRange: "OUT_OF_RANGE"
            case .unimplemented: "UNIMPLEMENTED"
            case .internal: "INTERNAL"
            case .unavailable: "UNAVAILABLE"
            case .dataLoss: "DATA_LOSS"
            case .unauthenticated: "UNAUTHENTICATED"
            }
        }
    }

    public var code: Code
    /// The number as sent (codes past 16 read as UNKNOWN but keep their number here).
    public var rawCode: Int
    public var message: String
    /// `grpc-status-details-bin`, decoded from base64.
    public var details: Data?

    public init(code: Code, message: String = "", details: Data? = nil) {
        self.code = code
        self.rawCode = code.rawValue
        self.message = message
        self.details = details
    }

    /// The status in trailers (or a trailers-only head); nil when `grpc-status` is missing.
    public init?(fields: HTTPHeaders) {
        guard let text = fields["grpc-status"]?.trimmingCharacters(in: .whitespaces), let number = Int(text) else {
            return nil
        }
        rawCode = number
        code = Code(rawValue: number) ?? .unknown
        message = (fields["grpc-message"]).map { $0.removingPercentEncoding ?? $0 } ?? ""
        details = fields["grpc-status-details-bin"].flatMap { Self.base64($0) }
    }

    public var isOK: Bool { code == .ok }

    public var description: String {
        code.name + (message.isEmpty ? "" : ": \(message)")
    }

    /// The error by what the caller does next, as the HTTP client's errors are: UNAVAILABLE and
    /// DEADLINE_EXCEEDED are worth another try, UNAUTHENTICATED wants credentials, CANCELLED is not an
    /// error for the user, and the others carry gRPC's HTTP equivalent with the server's message.
    public var apiError: APIError? {
        switch code {
        case .ok: nil
        case .cancelled: .cancelled
        case .unavailable: .connectionLost(underlying: description)
        case .deadlineExceeded: .timedOut(underlying: description)
        case .unauthenticated: .unauthorized(body: Data(message.utf8))
        default: .http(status: httpEquivalent, body: Data(message.utf8), message: description)
        }
    }

    /// The HTTP status gRPC's own gateways map each code to.
    public var httpEquivalent: Int {
        switch code {
        case .ok: 200
        case .cancelled: 499
        case .invalidArgument, .failedPrecondition, .outOfRange: 400
        case .unauthenticated: 401
        case .permissionDenied: 403
        case .notFound: 404
        case .alreadyExists, .aborted: 409
        case .resourceExhausted: 429
        case .unimplemented: 501
        case .unavailable: 503
        case .deadlineExceeded: 504
        case .unknown, .internal, .dataLoss: 500
        }
    }

    private static func base64(_ text: String) -> Data? {
        var padded = text.trimmingCharacters(in: .whitespaces)
        while padded.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded)
    }
}
