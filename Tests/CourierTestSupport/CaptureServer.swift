import Foundation
import Synchronization

/// A loopback HTTP/1.1 server that keeps the exact head and body of every request it receives, for
/// tests that check what went on the wire. Answers `{"token":"t0k"}` (or the token it was given, with the
/// request's header lines echoed under `"echo"`); paths under `/digest` first challenge for Digest
/// authentication and answer 200 once a Digest Authorization comes; paths under `/ntlm` run an NTLM handshake
/// (a bare challenge, then a type 2 message for the client's type 1) and answer 200 to its type 3.
public final class CaptureServer: Sendable {
    public typealias Received = LoopbackRequest

    /// What the connection threads record, shared with them before the server itself exists.
    private final class Record: Sendable {
        let requests = Mutex<[Received]>([])
    }

    private let listener: LoopbackListener
    private let record: Record

    public init(issuing token: String? = nil) throws {
        let record = Record()
        self.record = record
        listener = try LoopbackListener(backlog: 16) { socket, _ in Self.serve(socket, record: record, token: token) }
    }

    public var port: UInt16 { listener.port }
    public var requests: [Received] { record.requests.withLock { $0 } }
    public var base: String { "http://127.0.0.1:\(port)" }

    public func stop() { listener.stop() }

    private static func serve(_ socket: Int32, record: Record, token: String?) {
        var buffer = Data()
        while let request = LoopbackSocket.readRequest(socket, buffer: &buffer) {
            record.requests.withLock { $0.append(request) }
            let authorization = request.header("Authorization") ?? ""
            var challenge: String?
            if request.target.hasPrefix("/digest") && !authorization.hasPrefix("Digest ") {
                challenge = "Digest realm=\"courier\", nonce=\"abc123\", qop=\"auth\""
            } else if request.target.hasPrefix("/ntlm") && !authorization.hasPrefix("NTLM TlRMTVNTUAAD") {
                // Type 1 (TlRMTVNTUAAB…) gets the server's challenge; no Authorization gets the scheme's name.
                challenge = authorization.hasPrefix("NTLM TlRMTVNTUAAB") ? "NTLM " + ntlmChallenge : "NTLM"
            }
            let body = challenge != nil ? "" : answer(to: request, token: token)
            let head = challenge.map { "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: \($0)\r\n" }
                ?? "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            guard LoopbackSocket.send(socket, head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body) else { return }
        }
    }

    /// An NTLM type 2 message: the signature, type 2, an empty target name, flags (Unicode, NTLM, always
    /// sign), an 8-byte challenge, and an empty target information block.
    static let ntlmChallenge: String = {
        var bytes = Array("NTLMSSP\u{0}".utf8) + [2, 0, 0, 0]
        bytes += [0, 0, 0, 0, 48, 0, 0, 0]
        bytes += [0x01, 0x82, 0x00, 0x00]
        bytes += [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 0, 48, 0, 0, 0]
        return Data(bytes).base64EncodedString()
    }()

    /// The JSON body of a 200: the fixed token, or the issued one with the request's headers echoed back.
    private static func answer(to request: Received, token: String?) -> String {
        guard let token else { return "{\"token\":\"t0k\"}" }
        let echo = (try? JSONSerialization.data(withJSONObject: request.headerLines)).map {
            String(decoding: $0, as: UTF8.self)
        } ?? "[]"
        return "{\"token\":\"\(token)\",\"echo\":\(echo)}"
    }
}
