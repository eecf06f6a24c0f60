import CourierMessage
import Foundation

extension CurlTransport {
    /// Opens an exchange whose body is written with `HTTPStream.send` and whose response is read as it
    /// arrives (see `HTTPStream`). It shares this transport's thread and connections: streams to one
    /// HTTP/2 server may share a connection. The request starts when its first body bytes are queued.
    /// `http://` speaks HTTP/2 with prior knowledge when `http2PriorKnowledge` is set (h2c, as gRPC does);
    /// `https://` offers HTTP/2 by ALPN.
    ///
    /// `endsConnection` is asked about the response head: when it says so, the connection is closed after
    /// this stream instead of serving the next one. (With libcurl 7.88, an HTTP/2 stream that the server
    /// ends with its head alone, as a trailers-only gRPC error does, leaves the connection failing the next
    /// stream with a framing error; measured against grpcio.)
    public func openStream(_ request: HTTPRequest, http2PriorKnowledge: Bool = false,
                           endsConnection: @escaping @Sendable (ResponseHead) -> Bool = { _ in false })
        throws(APIError) -> HTTPStream {
        guard let scheme = request.url.scheme?.lowercased(), Self.supportedSchemes.contains(scheme),
              request.url.host?.isEmpty == false else {
            throw APIError.badURL(request.url.absoluteString)
        }
        let id = nextTransferID()
        let (events, continuation) = AsyncThrowingStream<HTTPStream.Event, any Error>.makeStream()
        let upload = StreamUpload()
        let ticket = TransferTicket()
        let job = StreamJob(id: id, request: request, configuration: configuration, upload: upload,
                            http2PriorKnowledge: http2PriorKnowledge, endsConnection: endsConnection,
                            continuation: continuation)
        let stream = HTTPStream(id: id, loop: loop, events: events, upload: upload, ticket: ticket, job: job)
        continuation.onTermination = { [weak stream] termination in
            if case .cancelled = termination { stream?.cancel() }
        }
        return stream
    }
}

/// A stream waiting for the loop thread.
struct StreamJob: LoopJob {
    let id: UInt64
    let request: HTTPRequest
    let configuration: CurlTransport.Configuration
    let upload: StreamUpload
    let http2PriorKnowledge: Bool
    let endsConnection: @Sendable (ResponseHead) -> Bool
    let continuation: AsyncThrowingStream<HTTPStream.Event, any Error>.Continuation

    func start(on easy: UnsafeMutableRawPointer) -> any LoopTransfer {
        CurlStreamTransfer(job: self, easy: easy)
    }

    func fail(_ error: APIError) { continuation.finish(throwing: error) }
}
