import CourierHTTP
import CourierMessage
import Foundation

/// What a gRPC call sends besides its messages.
public struct GRPCCallOptions: Sendable {
    /// Custom metadata, sent as header fields (`-bin` names carry base64 values).
    public var metadata: HTTPHeaders
    /// The call's deadline: sent as `grpc-timeout` and enforced locally too.
    public var timeout: Duration?
    /// The largest message accepted from the server, compressed or not.
    public var maxMessageSize: Int
    /// Whether request messages go out gzip-compressed (`grpc-encoding: gzip`).
    public var compressRequests: Bool
    /// Skip TLS verification (`--insecure`).
    public var insecure: Bool
    public var clientCertificate: ClientCertificate?

    /// gRPC's own default receive limit: 4 MiB.
    public static let defaultMaxMessageSize = 4 << 20

    public init(metadata: HTTPHeaders = [:], timeout: Duration? = nil, maxMessageSize: Int = defaultMaxMessageSize,
                compressRequests: Bool = false, insecure: Bool = false, clientCertificate: ClientCertificate? = nil) {
        self.metadata = metadata
        self.timeout = timeout
        self.maxMessageSize = maxMessageSize
        self.compressRequests = compressRequests
        self.insecure = insecure
        self.clientCertificate = clientCertificate
    }
}

/// What comes back on a call, in order: the response headers, each message, then the status.
public enum GRPCResponsePart: Sendable {
    case headers(HTTPHeaders)
    case message([UInt8])
    case end(GRPCStatus, trailers: HTTPHeaders, timing: Timing?)
}

/// One gRPC call on an HTTP/2 stream, of any kind: messages are sent with `send` (framed, compressed when
/// asked) and `closeSend` ends them; `parts` yields what comes back as it arrives. Transport failures end
/// `parts` with `GRPCError.transport`, broken framing with the framing error; a non-OK status is an `end`
/// part, so a stream's messages before it are not lost.
public final class GRPCCall: Sendable {
    public let parts: AsyncThrowingStream<GRPCResponsePart, any Error>
    private let stream: HTTPStream
    private let compress: Bool
    private let reader: Task<Void, Never>

    /// Starts a call to `path` (`/package.Service/Method`) on `target`.
    public init(transport: CurlTransport, target: GRPCTarget, path: String,
                options: GRPCCallOptions) throws(GRPCError) {
        var request = HTTPRequest(method: .post, url: target.url(path: path))
        request.headers.add("content-type", "application/grpc")
        request.headers.add("te", "trailers")
        request.headers.add("grpc-accept-encoding", "gzip")
        if options.compressRequests { request.headers.add("grpc-encoding", "gzip") }
        if let timeout = options.timeout {
            request.headers.add("grpc-timeout", Self.timeoutHeader(timeout))
            // The server enforces the deadline; the local limit, a little later, catches a server that does not.
            request.timeout = timeout + .seconds(1)
        }
        for field in options.metadata { request.headers.add(field.name, field.value) }
        request.insecure = options.insecure
        request.clientCertificate = options.clientCertificate
        let stream: HTTPStream
        do {
            // A head that carries the status is a trailers-only answer: see `openStream` on why its connection closes.
            stream = try transport.openStream(request, http2PriorKnowledge: true,
                                              endsConnection: { head in head.headers["grpc-status"] != nil })
        } catch {
            throw .transport(error)
        }
        self.stream = stream
        compress = options.compressRequests
        let (parts, continuation) = AsyncThrowingStream<GRPCResponsePart, any Error>.makeStream()
        self.parts = parts
        let limit = options.maxMessageSize
        reader = Task {
            do {
                try await Self.read(stream, limit: limit, into: continuation)
                continuation.finish()
            } catch let error as GRPCError {
                stream.cancel()
                continuation.finish(throwing: error)
            } catch let error as APIError {
                continuation.finish(throwing: GRPCError.transport(error))
            } catch {
                continuation.finish(throwing: GRPCError.transport(.protocolError(underlying: "\(error)")))
            }
        }
        continuation.onTermination = { [reader, stream] termination in
            if case .cancelled = termination {
                stream.cancel()
                reader.cancel()
            }
        }
    }

    /// Sends one serialized request message.
    public func send(_ message: [UInt8]) throws(GRPCError) {
        let payload = compress ? try GzipCodec.compress(message) : message
        stream.send(GRPCFraming.frame(payload, compressed: compress))
    }

    /// Sends every request message and ends them, in one go: what unary and server-streaming calls do,
    /// and any call whose messages are all known.
    public func sendAll(_ messages: [[UInt8]]) throws(GRPCError) {
        var body = Data()
        for message in messages {
            let payload = compress ? try GzipCodec.compress(message) : message
            body.append(GRPCFraming.frame(payload, compressed: compress))
        }
        stream.sendAll(body)
    }

    /// Ends the request messages (half-close).
    public func closeSend() { stream.finishSending() }

    /// Aborts the call: the HTTP/2 stream is reset and `parts` ends with a cancelled transport error.
    public func cancel() { stream.cancel() }

    // MARK: Reading

    private static func read(_ stream: HTTPStream, limit: Int,
                             into continuation: AsyncThrowingStream<GRPCResponsePart, any Error>.Continuation)
        async throws {
        var decoder = GRPCFrameDecoder(limit: limit)
        var head = ResponseHead()
        var trailers = HTTPHeaders()
        for try await event in stream.events {
            switch event {
            case .head(let received):
                head = received
                let contentType = head.headers["content-type"]
                let isGRPC = contentType?.lowercased().hasPrefix("application/grpc") ?? false
                guard head.status == 200 && isGRPC || GRPCStatus(fields: head.headers) != nil else {
                    throw GRPCError.notGRPC(httpStatus: head.status, contentType: contentType)
                }
                continuation.yield(.headers(head.headers))
            case .data(let bytes):
                for frame in try decoder.append(bytes) {
                    continuation.yield(.message(try decode(frame, head: head, limit: limit)))
                }
            case .trailers(let fields):
                trailers = fields
            case .finished(let timing, _):
                try decoder.finish()
                // A trailers-only answer (an immediate error) carries its status in the head.
                let status = GRPCStatus(fields: trailers) ?? GRPCStatus(fields: head.headers)
                    ?? GRPCStatus(code: .internal, message: "the server ended the call without a grpc-status")
                continuation.yield(.end(status, trailers: trailers.isEmpty ? head.headers : trailers, timing: timing))
            }
        }
    }

    private static func decode(_ frame: GRPCFrameDecoder.Frame, head: ResponseHead, limit: Int)
        throws(GRPCError) -> [UInt8] {
        guard frame.compressed else { return frame.payload }
        let encoding = (head.headers["grpc-encoding"] ?? "identity").lowercased()
        guard encoding == "gzip" else {
            throw .compression("the server sent a message compressed with '\(encoding)', which Courier does not read")
        }
        return try GzipCodec.decompress(frame.payload, limit: limit)
    }

    /// `grpc-timeout`: at most eight digits and a unit.
    static func timeoutHeader(_ timeout: Duration) -> String {
        let milliseconds = max(1, Int64((timeout.milliseconds).rounded(.up)))
        if milliseconds < 100_000_000 { return "\(milliseconds)m" }
        return "\(min(99_999_999, milliseconds / 1000))S"
    }
}
