import Foundation

/// Where a gRPC server listens. `host:port` and `http://host:port` speak HTTP/2 in clear text (h2c with
/// prior knowledge, as gRPC does without TLS); `https://host:port` and `grpcs://host:port` speak it over
/// TLS, negotiated by ALPN. `grpc://` is the clear-text spelling some tools use.
public struct GRPCTarget: Sendable, Hashable, CustomStringConvertible {
    /// `http://host:port` or `https://host:port`, without a path.
    public let baseURL: URL

    public var usesTLS: Bool { baseURL.scheme == "https" }

    /// Reads `host:port` or a URL of the schemes above; a path after the authority is not allowed.
    public init(_ text: String) throws(GRPCError) {
        var rest = text.trimmingCharacters(in: .whitespaces)
        var scheme = "http"
        for (prefix, mapped) in [("grpcs://", "https"), ("https://", "https"), ("grpc://", "http"), ("http://", "http")]
        where rest.lowercased().hasPrefix(prefix) {
            scheme = mapped
            rest = String(rest.dropFirst(prefix.count))
            break
        }
        while rest.hasSuffix("/") { rest.removeLast() }
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@"),
              let url = URL(string: "\(scheme)://\(rest)"), let host = url.host, !host.isEmpty else {
            throw .transport(.badURL("'\(text)' is not a gRPC server address: write host:port, or grpcs://host:port "
                                     + "for TLS"))
        }
        baseURL = url
    }

    /// The URL a method is POSTed to.
    public func url(path: String) -> URL {
        URL(string: baseURL.absoluteString + path) ?? baseURL
    }

    public var description: String {
        (usesTLS ? "grpcs://" : "") + (baseURL.host ?? "") + (baseURL.port.map { ":\($0)" } ?? "")
    }
}
