import CourierHTTP
import CourierMessage

/// The server's answer to the upgrade request, read off the socket before libcurl's HTTP machinery is
/// out of the way: the same `ResponseHead` as every other response, found in the bytes read so far.
extension ResponseHead {
    /// The largest head accepted, so a server cannot make the client buffer without end.
    static let maxHandshakeHeadSize = 64 * 1024

    /// Parses the head from the start of `bytes`: nil when the blank line has not arrived yet,
    /// otherwise the head and how many bytes it used (what follows belongs to the frames or the body).
    public static func parse(_ bytes: [UInt8]) throws(WebSocketError) -> (head: ResponseHead, length: Int)? {
        guard let end = headEnd(bytes) else {
            if bytes.count > maxHandshakeHeadSize { throw .handshakeInvalid(reason: "response head larger than 64 KB") }
            return nil
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.first ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), Int(parts[1]) != nil else {
            throw .handshakeInvalid(reason: "not an HTTP answer: '\(statusLine.prefix(80))'")
        }
        return (ResponseHead(lines: lines), end + 4)
    }

    /// The index of the CRLF CRLF that ends the head.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
