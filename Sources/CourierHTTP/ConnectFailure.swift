import Foundation

/// Why no connection could be made, said as where to look next: nothing listens on the port (start the
/// server, check the port), the name does not resolve (check the spelling, the DNS), or there is no route
/// to the address (check the network). HTTP transfers and WebSocket connections share it.
public struct ConnectFailure: Sendable, Hashable, CustomStringConvertible {
    /// What the system answered when the connection was attempted.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The host answered, but nothing listens on the port (ECONNREFUSED).
        case refused
        /// The host name does not resolve (no such name, or no resolver answered).
        case unresolved
        /// This machine has no route to that network (ENETUNREACH): it is offline, or the address is not routed.
        case networkUnreachable
        /// The network is there but the host is not (EHOSTUNREACH).
        case hostUnreachable
        /// The connection failed for another reason; `underlying` says which.
        case other
    }

    public var reason: Reason
    /// The host that was tried, as the URL (or the proxy setting) names it; empty when unknown.
    public var host: String
    public var port: Int?
    /// The host is the proxy's, not the URL's.
    public var isProxy: Bool
    /// The transport's own message, for logs.
    public var underlying: String

    public init(reason: Reason, host: String, port: Int?, isProxy: Bool = false, underlying: String) {
        self.reason = reason
        self.host = host
        self.port = port
        self.isProxy = isProxy
        self.underlying = underlying
    }

    /// `127.0.0.1:8088`, `[::1]:8088`, or the host alone when the port is unknown.
    public var endpoint: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(name):\($0)" } ?? name
    }

    /// `nothing listens on 127.0.0.1:8088`, `cannot resolve example.invalid`, `no route to 10.0.0.1:80 …`.
    public var description: String {
        let proxy = isProxy ? " (the proxy)" : ""
        guard !host.isEmpty else { return "could not connect: \(underlying)" }
        return switch reason {
        case .refused: "nothing listens on \(endpoint)\(proxy)"
        case .unresolved: "cannot resolve \(host)\(proxy)"
        case .networkUnreachable:
            "no route to \(endpoint)\(proxy): the network is unreachable (is this machine offline?)"
        case .hostUnreachable: "no route to \(endpoint)\(proxy): the host is unreachable"
        case .other: "could not connect to \(endpoint)\(proxy): \(underlying)"
        }
    }
}
