import CourierMessage
import Foundation
import Synchronization

/// One HTTP exchange whose request body is written, and whose response is read, while it runs: what a
/// gRPC call rides on. Events come in order: the response head, body bytes as they arrive, the trailers,
/// then `finished`; a failure ends `events` with an `APIError`. Cancelling (or dropping the iteration of
/// `events`) takes the transfer off its connection, which on HTTP/2 resets only this stream.
///
/// Debian 12's libcurl (7.88) hands over nothing that arrives for an HTTP/2 stream while its upload is
/// paused for want of bytes (measured: a response that ends then waits for ever; later libcurl versions
/// fix it). So a caller that must read answers before it sends more (an interactive bidirectional
/// stream) gets them only once more bytes or the end of the body are queued; callers that know their
/// messages queue them all and `finishSending` first.
public final class HTTPStream: Sendable {
    /// What arrives on the stream.
    public enum Event: Sendable {
        /// The status line and header fields.
        case head(ResponseHead)
        /// Body bytes, as they came off the connection.
        case data(Data)
        /// The fields sent after the body (HTTP/2 trailers); absent when the server sent none.
        case trailers(HTTPHeaders)
        /// The exchange is over: its timings and the HTTP version it was spoken in.
        case finished(Timing, httpVersion: String)
    }

    /// Response events, in order; ends with the exchange.
    public let events: AsyncThrowingStream<Event, any Error>
    let upload: StreamUpload
    private let id: UInt64
    private let loop: CurlMultiLoop
    private let ticket: TransferTicket
    /// The transfer, until the first bytes (or the end) of the body are queued.
    private let pending: Mutex<(any LoopJob)?>

    init(id: UInt64, loop: CurlMultiLoop, events: AsyncThrowingStream<Event, any Error>, upload: StreamUpload,
         ticket: TransferTicket, job: any LoopJob) {
        self.id = id
        self.loop = loop
        self.events = events
        self.upload = upload
        self.ticket = ticket
        pending = Mutex(job)
    }

    /// Queues bytes of the request body; they go out as the connection takes them.
    public func send(_ data: Data) {
        if upload.append(data) { loop.poke(id) }
        start()
    }

    /// Queues the whole request body at once and ends it. When nothing was sent before, the request goes
    /// out with its length known, so the last DATA frame ends the stream (with a length unknown, libcurl
    /// 7.88 ends it with an empty frame of its own, which a server that has already answered may meet
    /// with RST_STREAM, failing the exchange).
    public func sendAll(_ data: Data) {
        _ = upload.append(data)
        finishSending()
    }

    /// Ends the request body once what is queued has gone out.
    public func finishSending() {
        if upload.finish() { loop.poke(id) }
        start()
    }

    /// Submits the transfer once it has something to send: libcurl 7.88 ends an HTTP/2 stream whose
    /// first read of the body pauses (the DATA sent after the pause is refused by the server), so the
    /// request goes out with its first message. (Later pauses have a limit of their own in 7.88: while
    /// the upload is paused, what the server sends for the stream is not handed over; see `HTTPStream`.)
    private func start() {
        guard let job = pending.withLock({ pending in defer { pending = nil }; return pending }) else { return }
        if !ticket.submit({ loop.submit(job) }) { job.fail(APIError.cancelled) }
    }

    /// Aborts the exchange; `events` ends with `APIError.cancelled`.
    public func cancel() {
        ticket.cancel { [loop, id] in loop.cancel(id) }
    }
}

/// The request body of a stream: bytes queued by the caller, taken by libcurl's read callback on the loop
/// thread. When the queue runs dry before the body ends, the read pauses the upload, and the next bytes
/// (or the end) ask the loop to resume it.
final class StreamUpload: Sendable {
    private struct State {
        var chunks: [Data] = []
        var offset = 0
        var finished = false
        var paused = false
    }

    private let state = Mutex(State())

    /// What the read callback hands libcurl: bytes copied, the end of the body, or a pause.
    enum Read { case bytes(Int), end, pause }

    /// The body's length when all of it is queued and nothing has been read yet, else nil.
    var knownLength: Int? {
        state.withLock { state in
            state.finished && state.offset == 0 ? state.chunks.reduce(0) { $0 + $1.count } : nil
        }
    }

    /// Queues `data`; true when the upload was paused and must be resumed.
    func append(_ data: Data) -> Bool {
        guard !data.isEmpty else { return false }
        return state.withLock { state in
            guard !state.finished else { return false }
            state.chunks.append(data)
            defer { state.paused = false }
            return state.paused
        }
    }

    /// Marks the end of the body; true when the upload was paused and must be resumed to send it.
    func finish() -> Bool {
        state.withLock { state in
            guard !state.finished else { return false }
            state.finished = true
            defer { state.paused = false }
            return state.paused
        }
    }

    /// Copies up to `capacity` queued bytes into `buffer` (on the loop thread).
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Read {
        state.withLock { state in
            var copied = 0
            while copied < capacity, let first = state.chunks.first {
                let available = first.count - state.offset
                let count = min(available, capacity - copied)
                first.withUnsafeBytes { bytes in
                    (buffer + copied).copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count)
                }
                copied += count
                state.offset += count
                if state.offset == first.count {
                    state.chunks.removeFirst()
                    state.offset = 0
                }
            }
            if copied > 0 { return .bytes(copied) }
            if state.finished { return .end }
            state.paused = true
            return .pause
        }
    }
}
