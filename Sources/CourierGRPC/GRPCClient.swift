import CourierBody
import CourierHTTP
import CourierMessage
import Foundation

/// What a JSON-level call yields, in order: each attempt's start, the response headers, each message as
/// JSON, then the status with the trailers and timings.
public enum GRPCJSONPart: Sendable {
    case attempt(Int)
    case headers(HTTPHeaders)
    case message(JSONValue)
    case end(GRPCStatus, trailers: HTTPHeaders, timing: Timing?)
}

/// Calls gRPC methods with JSON messages, converting both ways through a schema's descriptors, and
/// reports each attempt as the HTTP client does (`ClientEvent`s on `events`), so the Log shows them.
public struct GRPCClient: Sendable {
    public let transport: CurlTransport
    public let events: EventSink

    public init(transport: CurlTransport, events: EventSink = .none) {
        self.transport = transport
        self.events = events
    }

    /// A call whose messages are sent one by one as JSON (client and bidirectional streams).
    public func start(_ method: MethodDescriptor, on target: GRPCTarget, pool: DescriptorPool,
                      options: GRPCCallOptions) throws(GRPCError) -> GRPCJSONCall {
        try GRPCJSONCall(call: GRPCCall(transport: transport, target: target, path: method.path, options: options),
                         method: method, codec: ProtoJSON(pool: pool))
    }

    /// Sends `messages` (JSON texts), closes the request stream and yields what comes back, retrying by
    /// `retry` while no response message has arrived. Every message is converted before anything is sent,
    /// so a mistake in the third one sends nothing.
    public func call(_ method: MethodDescriptor, on target: GRPCTarget, pool: DescriptorPool, messages: [String],
                     options: GRPCCallOptions, retry: GRPCRetryPolicy = .standard,
                     idempotent: Bool? = nil) throws(GRPCError) -> AsyncThrowingStream<GRPCJSONPart, any Error> {
        let codec = ProtoJSON(pool: pool)
        var encoded: [[UInt8]] = []
        for (index, text) in messages.enumerated() {
            do {
                encoded.append(try codec.message(fromJSONText: text, type: method.inputType))
            } catch {
                if case .invalidJSON(let path, let reason) = error, messages.count > 1 {
                    throw .invalidJSON(path: "message \(index + 1): \(path)", reason: reason)
                }
                throw error
            }
        }
        if encoded.isEmpty && !method.clientStreaming { encoded = [[]] }
        let (stream, continuation) = AsyncThrowingStream<GRPCJSONPart, any Error>.makeStream()
        let idempotent = idempotent ?? method.isIdempotent
        let task = Task { [self, encoded] in
            do {
                try await run(method, target: target, codec: codec, messages: encoded, options: options,
                              retry: retry, idempotent: idempotent, into: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    private func run(_ method: MethodDescriptor, target: GRPCTarget, codec: ProtoJSON, messages: [[UInt8]],
                     options: GRPCCallOptions, retry: GRPCRetryPolicy, idempotent: Bool,
                     into continuation: AsyncThrowingStream<GRPCJSONPart, any Error>.Continuation) async throws {
        let id = RequestID.next()
        let url = target.url(path: method.path)
        var attempt = 0
        while true {
            attempt += 1
            continuation.yield(.attempt(attempt))
            events.emit(.attemptStarted(id, attempt: attempt, method: .post, url: url, headers: options.metadata,
                                        at: Date()))
            var received = false
            var ending: (status: GRPCStatus?, error: GRPCError?) = (nil, nil)
            var lastTiming: Timing?
            do {
                let call = try GRPCCall(transport: transport, target: target, path: method.path, options: options)
                try call.sendAll(messages)
                try await withTaskCancellationHandler {
                    for try await part in call.parts {
                        switch part {
                        case .headers(let headers): continuation.yield(.headers(headers))
                        case .message(let bytes):
                            received = true
                            continuation.yield(.message(try codec.json(from: bytes, type: method.outputType)))
                        case .end(let status, let trailers, let timing):
                            ending.status = status
                            lastTiming = timing
                            if status.isOK || received || retry.retryReason(status: status, error: nil,
                                                                             idempotent: idempotent) == nil
                                || attempt >= retry.maxAttempts {
                                continuation.yield(.end(status, trailers: trailers, timing: timing))
                            }
                        }
                    }
                } onCancel: {
                    call.cancel()
                }
            } catch let error as GRPCError {
                ending.error = error
            }
            let outcome: AttemptOutcome = if let error = ending.error {
                .failure(Self.apiError(error))
            } else if let status = ending.status, let failure = status.apiError {
                .failure(failure)
            } else {
                .response(status: 200, headers: [:])
            }
            events.emit(.attemptFinished(id, attempt: attempt, outcome: outcome, timing: lastTiming))
            if Task.isCancelled { throw GRPCError.transport(.cancelled) }
            let reason = received ? nil : retry.retryReason(status: ending.status, error: ending.error,
                                                           idempotent: idempotent)
            guard let reason, attempt < retry.maxAttempts else {
                if let error = ending.error { throw error }
                return
            }
            let delay = retry.backoff(after: attempt)
            events.emit(.retryScheduled(id, attempt: attempt, reason: reason, delay: delay))
            try? await Task.sleep(for: delay)
            if Task.isCancelled { throw GRPCError.transport(.cancelled) }
        }
    }

    /// The HTTP client's error for a gRPC failure, for the Log and the retry events.
    public static func apiError(_ error: GRPCError) -> APIError {
        switch error {
        case .transport(let failure): failure
        case .status(let status): status.apiError ?? .protocolError(underlying: status.description)
        case .messageTooLarge(_, let limit): .tooLarge(limit: limit)
        default: .protocolError(underlying: error.description)
        }
    }
}

/// A call whose messages are JSON: `send` converts and sends one, `responses` yields replies as JSON.
public final class GRPCJSONCall: Sendable {
    public let method: MethodDescriptor
    private let call: GRPCCall
    private let codec: ProtoJSON
    public let responses: AsyncThrowingStream<GRPCJSONPart, any Error>

    init(call: GRPCCall, method: MethodDescriptor, codec: ProtoJSON) {
        self.call = call
        self.method = method
        self.codec = codec
        let (responses, continuation) = AsyncThrowingStream<GRPCJSONPart, any Error>.makeStream()
        self.responses = responses
        let task = Task {
            do {
                for try await part in call.parts {
                    switch part {
                    case .headers(let headers): continuation.yield(.headers(headers))
                    case .message(let bytes):
                        continuation.yield(.message(try codec.json(from: bytes, type: method.outputType)))
                    case .end(let status, let trailers, let timing):
                        continuation.yield(.end(status, trailers: trailers, timing: timing))
                    }
                }
                continuation.finish()
            } catch {
                call.cancel()
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination {
                call.cancel()
                task.cancel()
            }
        }
    }

    /// Converts one JSON message to the method's input type and sends it.
    public func send(json text: String) throws(GRPCError) {
        try call.send(try codec.message(fromJSONText: text, type: method.inputType))
    }

    /// Ends the request messages.
    public func closeSend() { call.closeSend() }

    /// Aborts the call (RST_STREAM).
    public func cancel() { call.cancel() }
}
