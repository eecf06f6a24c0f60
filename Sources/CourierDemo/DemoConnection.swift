#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CourierHTTP
import Foundation

/// One client connection: reads requests (pipelined ones too), answers each in order, keeps the
/// connection alive when both sides want it, and hands WebSocket upgrades to `DemoWebSocketRoutes`.
struct DemoConnection {
    let socket: DemoSocket
    let number: Int
    let core: DemoServerCore

    /// Size of each read from the socket.
    private static let readSize = 64 * 1024
    /// Bytes a closing connection reads and drops so the client sees the response, not a reset.
    private static let drainLimit = 1 << 20
    /// A connection silent for this long is closed, so forgotten keep-alive connections do not pile up.
    static let idleTimeoutMilliseconds: Int32 = 300_000

    /// Serves the connection until either side closes it; the caller closes the descriptor.
    func run() {
        var parser = DemoRequestParser()
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        var continueSent = false
        while !core.isStopping {
            do {
                while let request = try parser.next() {
                    continueSent = false
                    if request.isWebSocketUpgrade && DemoWebSocketRoutes.handles(path: request.path) {
                        handOver(request, leftover: parser.takeLeftover())
                        return
                    }
                    switch respond(to: request) {
                    case .keepOpen: continue
                    case .close: return closeGracefully()
                    case .reset: return
                    }
                }
            } catch {
                return refuse(error)
            }
            if parser.awaitingContinue && !continueSent {
                // curl waits for this before sending a large body.
                guard (try? socket.write("HTTP/1.1 100 Continue\r\n\r\n")) != nil else { return }
                continueSent = true
            }
            guard socket.waitReadable(milliseconds: Self.idleTimeoutMilliseconds) else { return }
            let count = socket.read(into: &buffer)
            guard count > 0 else { return }
            parser.append(buffer[0..<count])
        }
    }

    /// What happens to the connection after a response.
    private enum Ending { case keepOpen, close, reset }

    private func respond(to request: DemoRequest) -> Ending {
        let sequence = core.logReceived(request, connection: number)
        let context = DemoContext(request: request, core: core, connection: number)
        let response = DemoRouter.route(context)
        // HTTP/1.0 has no chunked coding: a body of unknown length is delimited by closing instead.
        let unframed = request.version == "HTTP/1.0" && { if case .stream(nil, _) = response.body { true } else { false } }()
        let closing = !request.keepsAlive || response.closesConnection || core.isStopping || unframed
        var writer: DemoStreamWriter?
        do {
            if response.delayMilliseconds > 0 { try socket.pause(milliseconds: response.delayMilliseconds) }
            let headOnly = request.method == "HEAD"
            switch response.body {
            case .bytes(let bytes):
                let body = headOnly || DemoResponse.isBodiless(response.status) ? [] : bytes
                let head = Self.head(for: response, framing: ("Content-Length", String(bytes.count)),
                                     closing: closing)
                try socket.write(head + body)
                core.logFinished(sequence, status: response.status, completed: true,
                                 bytesSent: head.count + body.count)
            case .stream(let length, let produce):
                let framing = length.map { ("Content-Length", String($0)) } ?? ("Transfer-Encoding", "chunked")
                let head = Self.head(for: response, framing: unframed ? nil : framing, closing: closing)
                try socket.write(head)
                let stream = DemoStreamWriter(socket: socket, chunked: length == nil && !unframed)
                writer = stream
                if !headOnly {
                    try produce(stream)
                    try stream.finish()
                }
                core.logFinished(sequence, status: response.status, completed: true,
                                 bytesSent: head.count + stream.bytesWritten)
            case .raw(let produce):
                let stream = DemoStreamWriter(socket: socket, chunked: false)
                writer = stream
                try produce(stream)
                core.logFinished(sequence, status: response.status, completed: true, bytesSent: stream.bytesWritten)
                return stream.wantsReset ? .reset : .close
            }
        } catch {
            core.logFinished(sequence, status: response.status, completed: false,
                             bytesSent: writer?.bytesWritten ?? 0)
            return writer?.wantsReset == true ? .reset : .close
        }
        return closing ? .close : .keepOpen
    }

    /// Answers a request the parser refused, then closes.
    private func refuse(_ error: DemoError) {
        let request = DemoRequest(method: "-", path: "-")
        let sequence = core.logReceived(request, connection: number)
        let response = DemoResponse.error(error.status, error.message)
        let bytes: [UInt8]
        if case .bytes(let body) = response.body {
            bytes = Self.head(for: response, framing: ("Content-Length", String(body.count)), closing: true) + body
        } else {
            bytes = []
        }
        let written = (try? socket.write(bytes)) != nil
        core.logFinished(sequence, status: error.status, completed: written, bytesSent: written ? bytes.count : 0)
        if written { closeGracefully() }
    }

    private func handOver(_ request: DemoRequest, leftover: [UInt8]) {
        let sequence = core.logReceived(request, connection: number)
        DemoWebSocketRoutes.serve(fd: socket.fd, request: request, leftover: leftover)
        core.logFinished(sequence, status: 101, completed: true, bytesSent: 0)
    }

    /// Sends FIN, then reads and drops what the client still sends (bounded), so that closing with
    /// unread bytes does not turn into a reset that destroys the response in flight.
    private func closeGracefully() {
        _ = shutdown(socket.fd, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var drained = 0
        while drained < Self.drainLimit {
            var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 1000) > 0 else { return }
            let count = socket.read(into: &buffer)
            guard count > 0 else { return }
            drained += count
        }
    }

    /// The status line and header fields, with Date, Server, framing and Connection added.
    static func head(for response: DemoResponse, framing: (String, String)?, closing: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(DemoStatus.reason(response.status))\r\n"
        text += "Date: \(HTTPDate.format(Date()))\r\nServer: courier-demo\r\n"
        for field in response.headers { text += "\(field.name): \(field.value)\r\n" }
        if let framing, !DemoResponse.isBodiless(response.status) { text += "\(framing.0): \(framing.1)\r\n" }
        if closing { text += "Connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }
}

/// Reason phrases for the status codes the demo server sends.
enum DemoStatus {
    /// Reason phrases by code (RFC 9110 section 15 and common extensions).
    static let reasons: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
        203: "Non-Authoritative Information", 204: "No Content", 206: "Partial Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
        402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required",
        412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 418: "I'm a teapot", 422: "Unprocessable Content",
        425: "Too Early", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        505: "HTTP Version Not Supported",
    ]

    /// The reason phrase for a code, or a generic one for its class.
    static func reason(_ status: Int) -> String {
        reasons[status] ?? ["Informational", "Success", "Redirection", "Client Error", "Server Error"][
            min(max(status / 100 - 1, 0), 4)]
    }
}
