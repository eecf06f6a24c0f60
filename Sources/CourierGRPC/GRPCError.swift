import CourierHTTP

/// Every failure of the gRPC layer that is not the transport's, with what the user needs to fix it.
public enum GRPCError: Error, Sendable, Equatable {
    /// Protobuf bytes that do not decode as the message says they should (`path` names the field).
    case malformedMessage(path: String, reason: String)
    /// JSON that cannot be turned into the request message (`path` is a JSON path such as `$.user.age`).
    case invalidJSON(path: String, reason: String)
    /// A message longer than the limit, announced by its length prefix or by its size once decoded.
    case messageTooLarge(size: UInt64, limit: Int)
    /// The response stream ended inside a message: a frame's prefix or body was cut short.
    case truncatedFrame(received: Int, expected: Int)
    /// Nesting deeper than the limit, in a message, in JSON or in a descriptor.
    case tooDeep(limit: Int)
    /// A name that the known descriptors do not define (a service, method, message or enum).
    case unknownSymbol(String, known: [String])
    /// A descriptor set that cannot be used (a missing dependency, a type name that does not resolve).
    case badDescriptor(String)
    /// The server finished the call with a status other than OK.
    case status(GRPCStatus)
    /// The server answered in something other than gRPC (an HTTP error status, another content type).
    case notGRPC(httpStatus: Int, contentType: String?)
    /// A compressed message in an encoding Courier does not speak, or one that does not inflate.
    case compression(String)
    /// The server has no reflection service (or refused it): name the `.proto` files instead.
    case reflectionUnavailable(String)
    /// `protoc` is needed to read `.proto` files and is not installed, or it refused a file.
    case protoc(String)
    /// The transport failed (connection, TLS, timeout, cancel).
    case transport(APIError)

    public static func == (lhs: GRPCError, rhs: GRPCError) -> Bool {
        lhs.description == rhs.description
    }
}

extension GRPCError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformedMessage(let path, let reason):
            "malformed protobuf message at \(path.isEmpty ? "<root>" : path): \(reason)"
        case .invalidJSON(let path, let reason): "\(path): \(reason)"
        case .messageTooLarge(let size, let limit):
            "a message of \(size) bytes is over the \(limit)-byte limit (--max-message-size)"
        case .truncatedFrame(let received, let expected):
            "the stream ended inside a message: \(received) of \(expected) bytes arrived"
        case .tooDeep(let limit): "nested more than \(limit) levels deep"
        case .unknownSymbol(let name, let known):
            "unknown symbol '\(name)'" + (known.isEmpty ? "" : "; known: " + known.prefix(8).joined(separator: ", ")
                                          + (known.count > 8 ? ", …" : ""))
        case .badDescriptor(let reason): "unusable descriptor: \(reason)"
        case .status(let status): status.description
        case .notGRPC(let httpStatus, let contentType):
            "not a gRPC answer: HTTP \(httpStatus)"
                + (contentType.map { ", content-type \($0)" } ?? ", no content-type")
        case .compression(let reason): "compression: \(reason)"
        case .reflectionUnavailable(let reason):
            "server reflection is not available (\(reason)); name the service's .proto file with --proto"
        case .protoc(let reason): reason
        case .transport(let error): error.description
        }
    }
}
