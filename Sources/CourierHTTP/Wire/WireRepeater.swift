import CCurl
import CHTTPParser
import Foundation
import Synchronization

/// The third way `courier load` repeats a request (after the task per request and `CurlRepeater`): below
/// libcurl's transfer machinery, as wrk does it. libcurl still opens every connection (`CURLOPT_CONNECT_ONLY`:
/// DNS, connect, its timeouts and socket options); then each request is the exact bytes libcurl sent for the first,
/// ordinary request of the run (its head, then the body), written with one send, and each response is read with
/// one receive into http-parser, its body counted and dropped. What each exchange gave is a `RepeatedExchange`, as
/// `CurlRepeater` records it; a redirect or a cookie hands the rest over the same way.
///
/// Used only where it is exactly what libcurl would send (`CurlRepeater.onWire(head:)`): plain `http://`, no
/// proxy, HTTP/1.1, no `Expect:`, a body in memory. Everything else stays on `CurlRepeater`.
public final class WireRepeater: Sendable {
    let request: HTTPRequest
    let configuration: CurlTransport.Configuration
    /// The jar a cookie the server sets goes to; nil when the request names none.
    let jar: CookieJar?
    /// The head libcurl sent, then the body: what goes on the wire for every request.
    let bytes: [UInt8]
    /// The body's size (what libcurl counts as uploaded).
    let bodySize: Int

    init(request: HTTPRequest, configuration: CurlTransport.Configuration, jar: CookieJar?, head: [UInt8],
         body: [UInt8]) {
        self.request = request
        self.configuration = configuration
        self.jar = jar
        self.bytes = head + body
        self.bodySize = body.count
    }

    /// Sends the request on up to `connections` connections at once until `hooks.next` says no more, a response
    /// hands over, or the task is cancelled (exchanges under way then are not recorded). Runs on a thread of its
    /// own; returns when every connection is closed.
    public func run(connections: Int, hooks: CurlRepeater.Hooks) async -> CurlRepeater.Ending {
        var taken = 0
        while taken < connections, hooks.next() { taken += 1 }
        let count = taken
        guard count > 0 else { return .finished }
        guard let control = WireControl() else {
            // No eventfd to stop the loop with: the requests taken go the ordinary way.
            for _ in 0..<count { hooks.giveBack() }
            return .handedOver
        }
        let handedOver = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
                let thread = Thread { [self] in
                    continuation.resume(returning: WireLoop(wire: self, hooks: hooks, control: control).run(count))
                }
                thread.name = "courier-wire"
                thread.start()
            }
        } onCancel: {
            control.cancel()
        }
        return handedOver ? .handedOver : .finished
    }
}

extension CurlRepeater {
    /// Whether the loop may send this request on its own connections (`WireRepeater`), given `head`, the head
    /// libcurl sent for it: nil unless that is exactly equivalent, or http-parser is not installed.
    public func onWire(head: String) -> WireRepeater? {
        let environment = ProcessInfo.processInfo.environment
        guard WireRepeater.allowed(request, environment: environment), let head = WireRepeater.sendable(head),
              courier_http_parser_load() else { return nil }
        let body: [UInt8]
        switch request.body {
        case .empty: body = []
        case .data(let data): body = Array(data)
        case .file, .parts: return nil
        }
        return WireRepeater(request: request, configuration: transport.configuration, jar: jar, head: head,
                            body: body)
    }
}

extension WireRepeater {
    /// The proxy variables libcurl reads for an `http://` URL: any of them set keeps the request on libcurl.
    static let proxyVariables = ["http_proxy", "all_proxy", "ALL_PROXY"]

    /// Whether `request` may leave libcurl's transfers: plain HTTP with nothing libcurl would negotiate or route
    /// (a proxy, an authentication handshake). `COURIER_LOAD_WIRE=off` keeps every request on libcurl.
    static func allowed(_ request: HTTPRequest, environment: [String: String]) -> Bool {
        guard environment["COURIER_LOAD_WIRE"] != "off", request.url.scheme?.lowercased() == "http",
              request.url.host?.isEmpty == false,
              !proxyVariables.contains(where: { environment[$0]?.isEmpty == false }) else { return false }
        if let authentication = request.authentication, authentication.scheme != .basic { return false }
        return true
    }

    /// `head` as bytes to send again, when it is one complete HTTP/1.1 head that asks for no "100 Continue".
    static func sendable(_ head: String) -> [UInt8]? {
        guard head.hasSuffix("\r\n\r\n"), !head.contains("\u{FFFD}") else { return nil }
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: true)
        guard let first = lines.first, first.hasSuffix(" HTTP/1.1"),
              !lines.dropFirst().contains(where: { $0.lowercased().hasPrefix("expect:") }) else { return nil }
        return Array(head.utf8)
    }
}

/// How a run's loop is stopped from outside: a flag and an eventfd in its epoll set that wakes it.
final class WireControl: Sendable {
    let wakeFD: Int32
    private let cancelled = Atomic<Bool>(false)

    init?() {
        wakeFD = courier_wake_fd_make()
        guard wakeFD >= 0 else { return nil }
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        courier_wake_fd_signal(wakeFD)
    }

    deinit { courier_fd_close(wakeFD) }
}
