import CourierWebSocket
import Foundation

/// A WebSocket server that is not the bottleneck: after the handshake it writes `count` pre-built
/// 100-byte text frames in 1 MB writes, then a close frame. One connection at a time, on loopback.
final class WebSocketPushServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let count: Int
    private let block: [UInt8]
    private let framesPerBlock: Int

    init?(count: Int, messageSize: Int = 100) {
        self.count = count
        let pad = String(repeating: "x", count: max(0, messageSize - 40))
        var one: [UInt8] = []
        FrameEncoder.append(.text(#"{"type":"tick","seq":1,"pad":"\#(pad)"}"#.prefix(messageSize).description),
                            role: .server, to: &one)
        framesPerBlock = max(1, (1 << 20) / one.count)
        block = Array([[UInt8]](repeating: one, count: framesPerBlock).joined())
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { close(fd); return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    var url: String { "ws://127.0.0.1:\(port)/push" }

    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            serve(client)
            close(client)
        }
    }

    private func serve(_ fd: Int32) {
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let read = recv(fd, &chunk, chunk.count, 0)
            guard read > 0 else { return }
            request += chunk[0..<read]
        }
        let text = String(decoding: request, as: UTF8.self)
        guard let line = text.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("sec-websocket-key:") }) else {
            return
        }
        let key = line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n"
        guard write(fd, Array(answer.utf8)) else { return }
        var sent = 0
        while sent < count {
            let frames = min(framesPerBlock, count - sent)
            let bytes = frames == framesPerBlock ? block[...] : block[0..<(frames * (block.count / framesPerBlock))]
            guard write(fd, Array(bytes)) else { return }
            sent += frames
        }
        var closing: [UInt8] = []
        FrameEncoder.append(control: .close(code: .normal, reason: ""), role: .server, to: &closing)
        _ = write(fd, closing)
        // Wait for the client's close or its hang-up before closing TCP.
        while recv(fd, &chunk, chunk.count, 0) > 0 {}
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

/// The limit: a bare reader of the same stream that only finds frame boundaries in 1 MB reads, with no
/// copy, no validation and no hand-off. Returns seconds to read `count` messages, nil on failure.
enum BareWebSocketReader {
    static func time(port: UInt16, count: Int) -> Double? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let start = Date()
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = "GET /push HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var filled = 0
        var headerDone = false
        var seen = 0
        while seen < count {
            let read = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + filled, $0.count - filled, 0) }
            guard read > 0 else { return nil }
            filled += read
            var position = 0
            buffer.withUnsafeBytes { bytes in
                if !headerDone {
                    var index = 3
                    while index < filled && !(bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13 && bytes[index] == 10) {
                        index += 1
                    }
                    guard index < filled else { return }
                    headerDone = true
                    position = index + 1
                }
                while filled - position >= 2 {
                    var length = Int(bytes[position + 1] & 0x7F)
                    var header = 2
                    if length == 126 {
                        guard filled - position >= 4 else { break }
                        length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
                        header = 4
                    }
                    guard filled - position >= header + length else { break }
                    if bytes[position] & 0x0F == 1 { seen += 1 }
                    position += header + length
                }
            }
            if position > 0 {
                buffer.withUnsafeMutableBytes { bytes in
                    bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + position, byteCount: filled - position)
                }
                filled -= position
            }
        }
        return Date().timeIntervalSince(start)
    }
}
