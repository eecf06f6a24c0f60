import Foundation

/// One message on the socket between Courier and a script process (`ScriptProcess`): a kind byte, the
/// payload's length (four bytes, big-endian) and the payload (JSON). Courier sends the job; the child may ask
/// for a request to be sent or a dynamic variable's value, each answered before it goes on, and ends with its
/// result. Framed, rather than read to the end, because the socket stays open both ways while the script runs.
enum ScriptFrame {
    enum Kind: UInt8 {
        /// Courier → child: the script and its input (`ScriptJob`).
        case job = 0x4A
        /// Child → Courier: `pm.sendRequest`'s request (`ScriptOutgoingRequest`).
        case send = 0x53
        /// Child → Courier: a dynamic variable's expression (`ScriptAsk`).
        case dynamic = 0x44
        /// Child → Courier: a call on the cookie jar (`ScriptAsk`, its expression the call as JSON).
        case cookies = 0x43
        /// Courier → child: the answer to the last question (`ScriptAnswer`).
        case answer = 0x41
        /// Child → Courier: what the script did (`ScriptResult`), its last frame.
        case result = 0x52
    }

    static let headerSize = 5

    static func encode(_ kind: Kind, _ payload: Data) -> Data {
        let length = UInt32(clamping: payload.count)
        var frame = Data([kind.rawValue, UInt8(length >> 24), UInt8((length >> 16) & 0xff),
                          UInt8((length >> 8) & 0xff), UInt8(length & 0xff)])
        frame.append(payload)
        return frame
    }

    /// Takes the first whole frame off the front of `buffer`; nil while none is whole, or when the bytes are
    /// not a frame (`malformed` is then set).
    static func take(from buffer: inout Data, malformed: inout Bool) -> (Kind, Data)? {
        guard buffer.count >= headerSize else { return nil }
        let bytes = [UInt8](buffer.prefix(headerSize))
        guard let kind = Kind(rawValue: bytes[0]) else {
            malformed = true
            return nil
        }
        let length = bytes[1...4].reduce(0) { $0 << 8 | Int($1) }
        guard buffer.count >= headerSize + length else { return nil }
        let start = buffer.startIndex + headerSize
        let payload = Data(buffer[start..<start + length])
        buffer = Data(buffer[(start + length)...])
        return (kind, payload)
    }

    /// Reads one frame from `descriptor`, waiting for it (the child's side); nil at the end of the stream or
    /// on bytes that are not a frame.
    static func read(from descriptor: Int32) -> (Kind, Data)? {
        guard let header = readExactly(headerSize, from: descriptor), let kind = Kind(rawValue: header[0]) else {
            return nil
        }
        let length = header[1...4].reduce(0) { $0 << 8 | Int($1) }
        guard let payload = readExactly(length, from: descriptor) else { return nil }
        return (kind, Data(payload))
    }

    /// Writes a whole frame to `descriptor`; false when it could not.
    static func write(_ kind: Kind, _ payload: Data, to descriptor: Int32) -> Bool {
        writeAll(encode(kind, payload), to: descriptor)
    }

    /// Writes all of `data` to `descriptor`, however many writes it takes; false when it could not.
    @discardableResult
    static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    private static func readExactly(_ count: Int, from descriptor: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + offset, count - offset) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { return nil }
            offset += got
        }
        return bytes
    }
}

/// What a script process asks Courier besides sending: a dynamic variable's expression.
struct ScriptAsk: Codable {
    var expression: String
}

/// Courier's answer to a script process's question: the response or why there is none, or a value.
struct ScriptAnswer: Codable {
    var response: ScriptResponse?
    var error: String?
    var value: String?

    init(response: ScriptResponse? = nil, error: String? = nil, value: String? = nil) {
        self.response = response
        self.error = error
        self.value = value
    }

    init(_ result: Result<ScriptResponse, ScriptSendFailure>) {
        switch result {
        case .success(let response): self.init(response: response)
        case .failure(let failure): self.init(error: failure.message)
        }
    }

    var sendResult: Result<ScriptResponse, ScriptSendFailure> {
        if let response { return .success(response) }
        return .failure(ScriptSendFailure(error ?? "no answer from Courier"))
    }
}
