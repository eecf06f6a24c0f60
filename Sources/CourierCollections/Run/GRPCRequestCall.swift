import CourierBody
import CourierGRPC
import CourierHTTP
import CourierMessage
import Foundation

/// One resolved `GRPC` request, for `courier run` and the explorer alike: the schema from `# @proto FILE`
/// (beside the .http file) or server reflection (asked once per server), the `===` separated JSON messages
/// sent as the method's stream, and the reply handed back as a response: the reply as JSON (a stream's
/// replies as a JSON array), headers and trailers together, so handlers, tests, `>>` and
/// `{{name.response.body…}}` read it as HTTP. A status other than OK throws the `APIError` its code maps to
/// (`GRPCStatus.apiError`), message included. Attempts go to `events`, as the HTTP client's do.
public struct GRPCRequestCall: Sendable {
    public let transport: CurlTransport
    public let events: EventSink
    let schemas = SchemaCache()

    /// The tag naming a `.proto` file (or descriptor set) for the request's schema.
    public static let protoTag = "proto"

    public init(transport: CurlTransport, events: EventSink = .none) {
        self.transport = transport
        self.events = events
    }

    /// Takes a streaming call over as it opens (the explorer's live pane): the call, the request's URL and its
    /// messages, not yet sent.
    public typealias Live = @Sendable (GRPCJSONCall, URL, [String]) -> Void

    /// Calls the resolved request; its `# @proto` file is read beside its `.http` file. With `live`, a method
    /// that streams either way is handed to it open, and the send ends as `.cancelled` (nothing to answer).
    public func perform(_ resolved: ResolvedRequest, live: Live? = nil) async throws(APIError) -> HTTPResponse {
        let folder = URL(fileURLWithPath: resolved.template.id.file).deletingLastPathComponent()
        let proto = resolved.template.tags[Self.protoTag].map { URL(fileURLWithPath: $0, relativeTo: folder) }
        return try await perform(resolved.request, messages: resolved.messages.map(\.text), proto: proto, live: live)
    }

    /// Calls `request` (its URL names the server and method, its headers are metadata) with `messages`.
    public func perform(_ request: HTTPRequest, messages written: [String], proto: URL?, live: Live? = nil)
        async throws(APIError) -> HTTPResponse {
        let path = request.url.path
        guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
            throw .badURL(request.url.absoluteString)
        }
        components.path = ""
        components.query = nil
        let target: GRPCTarget
        do {
            target = try GRPCTarget(components.url?.absoluteString ?? "")
        } catch {
            throw GRPCClient.apiError(error)
        }
        var options = GRPCCallOptions(timeout: request.timeout, insecure: request.insecure,
                                      clientCertificate: request.clientCertificate)
        for field in request.headers where !Self.notMetadata.contains(field.name.lowercased()) {
            options.metadata.add(field.name.lowercased(), field.value)
        }
        do {
            let pool = try await schemas.pool(for: target, proto: proto, transport: transport, options: options,
                                              method: path)
            let method = try pool.method(path)
            var messages = written.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            if let live, method.serverStreaming || method.clientStreaming {
                // A client stream starts with the messages written, if any; the user types the rest.
                if messages.isEmpty && !method.clientStreaming { messages = ["{}"] }
                live(try GRPCClient(transport: transport, events: events).start(method, on: target, pool: pool,
                                                                                  options: options),
                     request.url, messages)
                throw APIError.cancelled
            }
            if messages.isEmpty { messages = ["{}"] }
            if !method.clientStreaming && messages.count > 1 {
                throw GRPCError.invalidJSON(path: "messages", reason: "\(method.fullName) is \(method.kind): it takes "
                                            + "one message, not \(messages.count)")
            }
            var headers = HTTPHeaders()
            var replies: [JSONValue] = []
            var ending: (GRPCStatus, Timing?)?
            let client = GRPCClient(transport: transport, events: events)
            for try await part in try client.call(method, on: target, pool: pool, messages: messages,
                                                  options: options) {
                switch part {
                case .attempt: headers = HTTPHeaders()
                case .headers(let received): for field in received { headers.add(field.name, field.value) }
                case .message(let json): replies.append(json)
                case .end(let status, let trailers, let timing):
                    for field in trailers where headers[field.name] == nil { headers.add(field.name, field.value) }
                    ending = (status, timing)
                }
            }
            guard let (status, endTiming) = ending else {
                throw GRPCError.transport(.connectionLost(underlying: "the call ended without a status"))
            }
            if let failure = status.apiError { throw failure }
            let body = Data((method.serverStreaming ? JSONValue.array(replies) : (replies.first ?? .object([])))
                .compactJSON.utf8)
            headers["content-type"] = "application/json"
            // The body is the replies as JSON, not the protobuf bytes that came: its sizes are the JSON's.
            var timing = endTiming ?? Timing(total: .zero, reusedConnection: false)
            timing.bytesReceived = body.count
            timing.bytesOnWire = body.count
            return HTTPResponse(status: 200, reason: "OK", headers: headers, body: .data(body), url: request.url,
                                httpVersion: "HTTP/2", timing: timing)
        } catch let error as APIError {
            throw error
        } catch let error as GRPCError {
            throw GRPCClient.apiError(error)
        } catch {
            throw .protocolError(underlying: "\(error)")
        }
    }

    /// Header fields the resolver adds for HTTP, which are not gRPC metadata.
    static let notMetadata: Set<String> = ["host", "content-type", "content-length", "user-agent", "accept",
                                           "accept-encoding", "connection", "te"]

    /// Schemas by server (or `.proto` file), fetched once per run.
    actor SchemaCache {
        private var pools: [String: DescriptorPool] = [:]

        func pool(for target: GRPCTarget, proto: URL?, transport: CurlTransport, options: GRPCCallOptions,
                  method: String) async throws(GRPCError) -> DescriptorPool {
            let key = proto?.path ?? target.description
            if let pool = pools[key], (try? pool.method(method)) != nil { return pool }
            let pool: DescriptorPool
            if let proto {
                pool = try DescriptorPool(files: try ProtoFiles.load([proto]))
            } else {
                var reflectionOptions = options
                reflectionOptions.timeout = options.timeout ?? .seconds(30)
                reflectionOptions.maxMessageSize = max(options.maxMessageSize, 64 << 20)
                pool = try await ServerReflection(transport: transport, target: target, options: reflectionOptions)
                    .schema().pool
            }
            pools[key] = pool
            return pool
        }
    }
}
