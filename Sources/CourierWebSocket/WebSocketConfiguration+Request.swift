import CourierHTTP
import Foundation

extension WebSocketConfiguration {
    /// The connection settings of a resolved `WEBSOCKET` request: its URL, headers (a `Sec-WebSocket-Protocol`
    /// header becomes the offered subprotocols), `# @insecure` and the client certificate.
    public init(request: HTTPRequest, pingInterval: Double? = 30) {
        let protocols = (request.headers["Sec-WebSocket-Protocol"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        self.init(url: request.url, headers: request.headers, protocols: protocols, insecure: request.insecure,
                  pingInterval: pingInterval)
        clientCertificate = request.clientCertificate
    }

    /// Whether certificate checks are skipped on a TLS connection (`# @insecure` on a wss:// URL): shown as
    /// loudly as for an HTTP send.
    public var isUnverifiedTLS: Bool {
        insecure && ["wss", "https"].contains(url.scheme?.lowercased() ?? "")
    }
}
