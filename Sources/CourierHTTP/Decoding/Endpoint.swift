import CourierMessage
import Foundation

/// A request whose response type is a generic tag: building one does no I/O, and `decode` turns a
/// successful response into `Response`.
public struct Endpoint<Response>: Sendable {
    public var request: HTTPRequest
    public var decode: @Sendable (HTTPResponse) throws(APIError) -> Response

    public init(request: HTTPRequest, decode: @escaping @Sendable (HTTPResponse) throws(APIError) -> Response) {
        self.request = request
        self.decode = decode
    }
}

extension Endpoint where Response: Decodable & Sendable {
    /// Decodes the JSON body with the shared decoder. An empty body (204, or an empty 200) decodes
    /// only into `EmptyResponse` or an Optional; for anything else it is a decoding error.
    public init(request: HTTPRequest) {
        self.init(request: request) { response throws(APIError) in
            let body: Data
            do {
                body = try response.body.readAll()
            } catch {
                throw APIError.protocolError(underlying: "cannot read the body: \(error.localizedDescription)")
            }
            if body.isEmpty, let empty = Response.self as? any EmptyDecodable.Type,
               let value = empty.emptyValue as? Response {
                return value
            }
            return try JSONCoding.decode(Response.self, from: body)
        }
    }

    /// A GET of `url` decoded as JSON.
    public static func get(_ url: URL, headers: HTTPHeaders = [:]) -> Endpoint {
        var headers = headers
        if !headers.contains("Accept") { headers["Accept"] = "application/json" }
        return Endpoint(request: HTTPRequest(method: .get, url: url, headers: headers))
    }
}

/// A type that an empty body decodes into.
public protocol EmptyDecodable {
    static var emptyValue: Self { get }
}

/// The response type for endpoints that answer with no body.
public struct EmptyResponse: Decodable, Sendable, Hashable, EmptyDecodable {
    public init() {}
    public static var emptyValue: EmptyResponse { EmptyResponse() }
}

extension Optional: EmptyDecodable where Wrapped: Decodable {
    public static var emptyValue: Optional<Wrapped> { nil }
}
