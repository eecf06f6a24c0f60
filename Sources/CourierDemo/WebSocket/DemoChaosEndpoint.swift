import CourierWebSocket
import Foundation
import Synchronization

/// `/ws/chaos?every_ms=N`: a ticker (same subscribe protocol, `rate` default 20) that drops the
/// connection every N ms (default 3000): alternately with a close frame (1012, service restart) and
/// without one (the TCP connection just ends). `mode=close` or `mode=drop` picks one way only.
enum DemoChaosEndpoint {
    /// Counts chaos connections per server (by the Host the client named: one per server on loopback), so
    /// that the two ways of dropping alternate across one client's reconnects even while other servers in
    /// the same process (tests running side by side) serve chaos connections of their own.
    private static let connections = Mutex<[String: Int]>([:])

    static func serve(_ peer: DemoWebSocketPeer, request: DemoRequest) {
        let every = Double(request.queryValue("every_ms").flatMap(Int.init).map { max(50, $0) } ?? 3000) / 1000
        var query = request.query
        if request.queryValue("rate") == nil { query.append((name: "rate", value: "20")) }
        var ticker = DemoTickerEndpoint(request: DemoRequest(method: request.method, path: request.path, query: query))
        let host = request.header("Host") ?? ""
        let number = connections.withLock { counts in
            counts[host, default: 0] += 1
            return counts[host]!
        }
        let withCloseFrame = switch request.queryValue("mode") {
        case "close": true
        case "drop": false
        default: number % 2 == 1
        }
        guard ticker.serve(peer, until: Date().addingTimeInterval(every)) else { return }
        if withCloseFrame {
            peer.close(code: .serviceRestart, reason: "chaos: restarting", timeoutMs: 500)
        } else {
            // No close frame: the client sees the TCP connection end (close code 1006).
            shutdown(peer.fd, Int32(SHUT_RDWR))
        }
    }
}
