import CCurl
import CHTTPParser
import Foundation

/// One connection of a `WireLoop` and the exchange under way on it. Lives on the loop's thread only.
final class WireConnection {
    enum Phase {
        /// libcurl is opening the connection (the easy handle is on the loop's multi handle).
        case connecting
        /// The request is being written (a send took part of it: the loop waits to write the rest).
        case sending
        /// The request is written; the response is being read.
        case receiving
        /// The run is over for this connection: it is closed.
        case ended
    }

    /// Its number in the loop, which its epoll events carry.
    let key: UInt64
    var phase = Phase.connecting
    /// The handle libcurl opened the connection with; it owns the socket.
    var easy: UnsafeMutableRawPointer?
    var socket: Int32 = -1
    /// Whether the socket's writability is watched (a request only part written).
    var watchesWrites = false
    /// The response being read, with http-parser's state.
    let response: UnsafeMutablePointer<courier_wire_response>
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    // MARK: The exchange under way

    var started = ContinuousClock.now
    var firstByte: ContinuousClock.Instant?
    /// The last byte sent or received, for the idle timeout.
    var lastActivity = ContinuousClock.now
    /// Bytes of the response read so far, head included.
    var received = 0
    /// Bytes of the request written so far.
    var written = 0
    /// Whether this exchange opened its connection (its time includes the connect).
    var opened = true
    /// Whether it was sent again on a new connection already (a kept connection the server had closed).
    var resent = false
    /// libcurl's times for the connect this exchange made.
    var dns: Duration?
    var connect: Duration?
    var tls: Duration?
    var cookies: [String] = []
    var location: String?

    init(key: UInt64, headOnly: Bool, bodyLimit: Int, keepsCookies: Bool) {
        self.key = key
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        response = .allocate(capacity: 1)
        response.initialize(to: courier_wire_response())
        response.pointee.head_only = headOnly ? 1 : 0
        response.pointee.limit = Int64(bodyLimit)
        response.pointee.wants_cookies = keepsCookies ? 1 : 0
        response.pointee.userp = Unmanaged.passUnretained(self).toOpaque()
        response.pointee.header = { userp, kind, value, length in
            guard let userp else { return }
            let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) }
            Unmanaged<WireConnection>.fromOpaque(userp).takeUnretainedValue().keep(kind, text ?? "")
        }
    }

    /// Starts a new exchange; `reused` when it goes on the open connection.
    func begin(at now: ContinuousClock.Instant, reused: Bool) {
        started = now
        lastActivity = now
        firstByte = nil
        received = 0
        written = 0
        opened = !reused
        resent = false
        cookies = []
        location = nil
        if reused { courier_wire_response_next(response) }
    }

    /// The exchange's times and bytes, `now` at its end.
    func timing(at now: ContinuousClock.Instant, bodySent: Int) -> Timing {
        let body = Int(response.pointee.body)
        return Timing(dns: opened ? dns : nil, connect: opened ? connect : nil, tls: opened ? tls : nil,
                      firstByte: firstByte.map { $0 - started }, total: now - started, reusedConnection: !opened,
                      bytesReceived: body, bytesSent: bodySent, bytesOnWire: body)
    }

    /// The phases libcurl timed for the connect it just finished.
    func takeConnectTimes() {
        guard let easy else { return }
        func phase(_ info: CURLINFO) -> Duration? {
            var micros: curl_off_t = 0
            guard courier_easy_getinfo_off(easy, info, &micros) == CURLE_OK, micros > 0 else { return nil }
            return .microseconds(micros)
        }
        dns = phase(CURLINFO_NAMELOOKUP_TIME_T)
        connect = phase(CURLINFO_CONNECT_TIME_T)
        tls = phase(CURLINFO_APPCONNECT_TIME_T)
    }

    private func keep(_ kind: Int32, _ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        switch kind {
        case Int32(COURIER_WIRE_SET_COOKIE.rawValue): cookies.append(trimmed)
        case Int32(COURIER_WIRE_LOCATION.rawValue): location = trimmed
        default: break
        }
    }

    deinit {
        courier_wire_response_free(response)
        response.deallocate()
        errorBuffer.deallocate()
    }
}
