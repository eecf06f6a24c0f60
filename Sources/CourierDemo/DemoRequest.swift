import Foundation

/// One parsed HTTP/1.1 request as the demo server received it.
public struct DemoRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded.
    public var path: String
    /// Query items in order.
    public var query: [(name: String, value: String)]
    /// Header fields in order, names as sent.
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The first value of a query parameter.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }
}
