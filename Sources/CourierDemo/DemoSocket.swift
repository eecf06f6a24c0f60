#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A connected, blocking TCP socket: the thin layer over read, send and poll.
struct DemoSocket: Sendable {
    let fd: Int32
    /// Asked between waits so a stopping server ends slow responses promptly.
    let isStopping: @Sendable () -> Bool

    /// Longest single sleep while waiting, so a departed client or a stop is seen promptly.
    private static let waitSliceMilliseconds: Int32 = 25

    /// Writes every byte or throws `.peerClosed` when the peer has gone.
    func write(_ bytes: UnsafeRawBufferPointer) throws(DemoError) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            // MSG_NOSIGNAL: a peer that closed must not raise SIGPIPE in the whole process.
            let sent = send(fd, base, remaining, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                throw .peerClosed
            }
            remaining -= sent
            base += sent
        }
    }

    /// Writes every byte of an array.
    func write(_ bytes: [UInt8]) throws(DemoError) {
        let failure = bytes.withUnsafeBytes { raw -> DemoError? in
            do throws(DemoError) { try write(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes a string as UTF-8.
    func write(_ text: String) throws(DemoError) { try write(Array(text.utf8)) }

    /// Reads what is available into `buffer`; 0 at end of stream, -1 on error.
    func read(into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Waits until there is something to read (or the peer closed); false after `milliseconds` of silence.
    func waitReadable(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready != 0
        }
    }

    /// Whether the peer has closed its end (or the connection broke). Bytes it sent (a pipelined
    /// request) do not count as closing.
    func peerHasClosed() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        if descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return true }
        var byte: UInt8 = 0
        let peeked = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Sleeps `milliseconds`, watching the socket; throws `.peerClosed` as soon as the client leaves
    /// or the server stops.
    func pause(milliseconds: Int) throws(DemoError) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(milliseconds, 0)) * 1_000_000
        while true {
            if isStopping() || peerHasClosed() { throw .peerClosed }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return }
            let left = Int32(min(UInt64(Self.waitSliceMilliseconds), (deadline - now) / 1_000_000 + 1))
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, left)
            if ready > 0 && descriptor.revents & Int16(POLLIN) != 0 && !peerHasClosed() {
                // The client sent more (a pipelined request): poll would return at once, so sleep instead.
                usleep(UInt32(left) * 1000)
            }
        }
    }

    /// Makes the next close send a TCP reset instead of an orderly FIN.
    func prepareReset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }
}
