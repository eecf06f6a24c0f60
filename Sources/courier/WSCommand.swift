import CourierHTTP
import CourierTerminal
import CourierWebSocket
import Dispatch
import Foundation
import Synchronization
import CourierSecurity

/// `courier ws URL`: a websocat-style WebSocket client on top of `WebSocketSession`.
enum WSCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "ws", summary: "Open a WebSocket, send and print messages.",
        arguments: [ArgumentSpec("URL", help: "A ws:// or wss:// URL.")],
        options: [
            .option("--header", short: "H", "'Name: value'", repeatable: true,
                    help: "Add a header to the upgrade request."),
            .option("--protocol", "NAME", repeatable: true, help: "Offer a subprotocol."),
            .option("--send", "MESSAGE", repeatable: true, help: "Send a text message once the connection opens."),
            .option("--subscribe", "MESSAGE", repeatable: true,
                    help: "Send a text message on every connect and reconnect."),
            .option("--count", "N", .number, help: "Exit after receiving N messages."),
            .option("--timeout", "SECONDS", .number, help: "Exit after SECONDS."),
            .flag("--reconnect", help: "Reconnect with backoff after an abnormal close or a missed pong."),
            .option("--ping", "SECONDS", .number, default: "30", help: "Keepalive ping interval; 0 turns it off."),
            ConnectionOptions.insecureSpec,
            ConnectionOptions.trustedCertificatesSpec(
                help: "Verify the server's TLS certificate against the PEM certificates in FILE."),
            .option("--graphql", "DOCUMENT", help: "Run a GraphQL subscription: connection_init, then the "
                        + "subscription (again after every reconnect); each result prints as it arrives."),
            .option("--variables", "JSON", help: "With --graphql: the subscription's variables, a JSON object."),
            .option("--graphql-protocol", "NAME", .choice(GraphQLSubscription.WireProtocol.allCases.map(\.rawValue)),
                    default: "graphql-transport-ws",
                    help: "With --graphql: the subprotocol; graphql-ws is the older subscriptions-transport-ws one."),
        ] + ConnectionOptions.clientCertificateSpecs + [
            .flag("--json", help: "Print one JSON object per event."),
        ],
        notes: "Lines on standard input are sent as text messages when it is not a terminal.\n\n"
            + ExitStatus.notes(success: "after a normal close, --count or --timeout",
                               failure: "the connection failed or was broken off"))

    /// What the command line asked for.
    struct Options {
        var configuration: WebSocketConfiguration
        var sends: [String]
        var subscriptions: [String]
        var count: Int?
        var timeout: Double?
        var reconnect: Bool
        var json: Bool
        /// `--graphql`: a subscription instead of raw messages.
        var graphql: GraphQLSubscription?
    }

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments) { args throws(UsageError) in
            let options = try parse(args)
            return options.graphql == nil ? WSRunner(options: options).run() : GraphQLWSRunner(options: options).run()
        }
    }

    /// The options the parsed command line asks for.
    static func parse(_ args: ParsedArguments) throws(UsageError) -> Options {
        let reconnect = args.flag("--reconnect")
        let json = args.flag("--json")
        let protocols = args.values("--protocol")
        let sends = args.values("--send")
        let subscriptions = args.values("--subscribe")
        let timeout = args.number("--timeout")
        let ping = args.number("--ping")
        let connection = try ConnectionOptions(args)
        let positionals = args.positionals
        guard let text = positionals.first else {
            throw UsageError("missing URL; try: courier ws ws://127.0.0.1:8088/ws/echo", command: "ws")
        }
        guard positionals.count == 1 else { throw UsageError("unexpected argument '\(positionals[1])'", command: "ws") }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              ["ws", "wss", "http", "https"].contains(scheme), url.host != nil else {
            throw UsageError("'\(text)' is not a ws:// or wss:// URL", command: "ws")
        }
        let headers = try args.headers()
        let count = try args.wholeNumber("--count", in: 1...ParsedArguments.largestWholeNumber) { _ in
            "--count takes a whole number of messages of at least 1"
        }
        let graphql = try graphQL(args)
        var configuration = WebSocketConfiguration(url: url, headers: headers,
                                                   protocols: graphql.map { [$0.wireProtocol.rawValue] } ?? protocols,
                                                   insecure: connection.insecure,
                                                   pingInterval: ping == 0 ? nil : (ping ?? 30),
                                                   trustedCertificates: connection.trustedCertificates)
        configuration.clientCertificate = connection.clientCertificate
        return Options(configuration: configuration, sends: sends, subscriptions: subscriptions,
                       count: count, timeout: timeout, reconnect: reconnect, json: json,
                       graphql: graphql)
    }

    /// `--graphql DOCUMENT [--variables JSON] [--graphql-protocol NAME]`.
    private static func graphQL(_ args: ParsedArguments) throws(UsageError) -> GraphQLSubscription? {
        guard let document = args.value("--graphql") else {
            if args.value("--variables") != nil || args.value("--graphql-protocol") != nil {
                throw UsageError("--variables and --graphql-protocol go with --graphql DOCUMENT", command: "ws")
            }
            return nil
        }
        guard GraphQLSubscription.isSubscription(document) else {
            throw UsageError("--graphql takes a subscription ('subscription { … }'); send queries with courier send",
                             command: "ws")
        }
        let wire = args.value("--graphql-protocol").flatMap(GraphQLSubscription.WireProtocol.init(rawValue:))
        do {
            return try GraphQLSubscription(query: document, variables: args.value("--variables"),
                                           wireProtocol: wire ?? .transportWS)
        } catch {
            throw UsageError("--variables: \(error)", command: "ws")
        }
    }
}

/// Runs one `courier ws` session: prints events, sends --send and stdin lines, stops on --count,
/// --timeout, Ctrl-C (close 1001) or the end of the session.
final class WSRunner: Sendable {
    let options: WSCommand.Options
    let session: WebSocketSession
    private let output = LineOutput()
    private let state = Mutex(RunState())

    private struct RunState {
        var received = 0
        var timedOut = false
        var closeRequested = false
        var lastClose: WebSocketCloseInfo?
        var failed = false
        /// The last failure's kind, for its exit status (a refused connection's 7).
        var failure: WebSocketError.Kind?
        var startedInput = false
        /// When the last message came in, for the linger after the end of standard input.
        var lastActivity = 0.0
    }

    /// Whether standard output is a terminal (then message text is sanitised).
    static let stdoutIsTerminal = isatty(1) == 1

    /// How long the end of standard input waits for a quiet connection before closing.
    static let lingerSeconds = 0.5

    init(options: WSCommand.Options) {
        self.options = options
        session = WebSocketSession(configuration: options.configuration,
                                   subscriptions: options.subscriptions.map { .text($0) },
                                   reconnect: options.reconnect ? .standard : nil)
    }

    func run() -> Int32 {
        if options.configuration.insecure { Console.warnUnverified(because: "--insecure") }
        signal(SIGPIPE, SIG_IGN)
        let done = DispatchSemaphore(value: 0)
        let consumer = Task { [self] in
            // One hand-off per read's worth of messages, not per message; one encoder for the whole
            // stream, so it formats each second's date once.
            var encoder = WebSocketEventJSONEncoder()
            for await batch in session.batches {
                for event in batch { handle(event, encoder: &encoder) }
            }
            done.signal()
        }
        let interrupt = installInterruptHandler()
        if let timeout = options.timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                state.withLock { $0.timedOut = true }
                requestClose(code: .normal)
            }
        }
        session.start()
        done.wait()
        _ = consumer
        interrupt.stop()
        output.stop()
        return exitCode()
    }

    private func handle(_ event: WebSocketEvent, encoder: inout WebSocketEventJSONEncoder) {
        if case .message(let record) = event, record.direction == .incoming,
           let count = options.count, state.withLock({ $0.received >= count }) {
            // Messages that arrive while the close handshake runs are past --count: not printed.
            return
        }
        if options.json {
            // Written straight into the output buffer: no String per line.
            output.append { bytes in
                let start = bytes.count
                encoder.append(event, to: &bytes)
                Sanitizer.escapeJSON(&bytes, from: start)
            }
        } else {
            printPlain(event)
        }
        switch event {
        case .connected:
            let first = state.withLock { state -> Bool in
                defer { state.startedInput = true }
                return !state.startedInput
            }
            if first { startSending() }
        case .message(let record) where record.direction == .incoming:
            let reached = state.withLock { state -> Bool in
                state.received += 1
                state.lastActivity = Monotonic.seconds
                return options.count.map { state.received >= $0 } ?? false
            }
            if reached { requestClose(code: .normal) }
        case .closed(let info):
            state.withLock { $0.lastClose = info }
        case .error(let error):
            state.withLock {
                $0.failed = true
                $0.failure = error.kind
            }
        default: break
        }
    }

    /// --send messages once, then standard input line by line when it is not a terminal.
    private func startSending() {
        for text in options.sends { trySend(text) }
        guard isatty(0) == 0 else { return }
        let thread = Thread { [self] in
            while let line = readLine(strippingNewline: true) { trySend(line) }
            // With nothing else to wait for, the end of input ends the session (as websocat does), once
            // the answers have had a moment to arrive: the close waits for a quiet spell.
            guard options.count == nil && options.timeout == nil && !options.reconnect else { return }
            state.withLock { $0.lastActivity = Monotonic.seconds }
            while Monotonic.seconds - state.withLock({ $0.lastActivity }) < Self.lingerSeconds {
                usleep(50_000)
            }
            requestClose(code: .normal)
        }
        thread.start()
    }

    private func trySend(_ text: String) {
        do {
            try session.send(.text(text))
        } catch {
            Console.fail("not sent (\(error)): \(text.prefix(80))")
        }
    }

    private func requestClose(code: WebSocketCloseCode) {
        let first = state.withLock { state -> Bool in
            defer { state.closeRequested = true }
            return !state.closeRequested
        }
        if first { session.close(code: code) }
    }

    /// Ctrl-C closes politely with 1001 (going away); a second Ctrl-C quits at once.
    private func installInterruptHandler() -> InterruptWatch {
        InterruptWatch { [self] in
            if state.withLock({ $0.closeRequested }) {
                output.flush()
                exit(130)
            }
            requestClose(code: .goingAway)
        }
    }

    private func exitCode() -> Int32 {
        state.withLock { state in
            if let count = options.count, state.received >= count { return 0 }
            if state.timedOut { return options.count == nil ? 0 : 1 }
            guard let close = state.lastClose else { return state.failure.map(ExitStatus.of) ?? ExitStatus.failed }
            if close.byUser { return 0 }
            if let error = close.error { return ExitStatus.of(error.kind) }
            if close.wasClean && [WebSocketCloseCode.normal, .goingAway].contains(close.code) { return 0 }
            return 1
        }
    }

    private func printPlain(_ event: WebSocketEvent) {
        switch event {
        case .connecting: break
        case .connected(let url, let chosen):
            Console.error("connected to \(url.absoluteString)" + (chosen.map { " (protocol \($0))" } ?? ""))
        case .message(let record):
            guard record.direction == .incoming else { return }
            switch record.message {
            // A server's escape sequences are shown, never executed, on a terminal and in a pipe alike.
            case .text(let text): output.line(Sanitizer.escaped(text))
            case .binary(let data): output.line("[binary \(data.count) bytes] \(data.base64EncodedString())")
            }
        case .ping, .pong: break
        case .closed(let info):
            output.flush()
            Console.error("closed \(info.code.rawValue)"
                          + (info.reason.isEmpty ? "" : " \(Sanitizer.escaped(info.reason, keepingLayout: false))")
                          + (info.error.map { ": \($0)" } ?? ""))
        case .reconnecting(let delay, let attempt):
            Console.error("reconnecting in \(DurationText.format(seconds: delay)) (attempt \(attempt))")
        case .error(let error):
            output.flush()
            Console.fail("\(error)")
        }
    }
}

/// Monotonic seconds for the linger timer.
enum Monotonic {
    static var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// Standard output with a buffer: lines are collected and written in batches (at 64 KB or every
/// 50 ms), so a fast stream is not bound by one write(2) per message yet a slow one shows at once.
final class LineOutput: Sendable {
    private let buffer = Mutex<[UInt8]>([])
    private let stopped = Atomic<Bool>(false)

    init() {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                usleep(50_000)
                flush()
            }
        }
        thread.start()
    }

    /// Stops the periodic flushing after a last flush.
    func stop() {
        stopped.store(true, ordering: .releasing)
        flush()
    }

    func line(_ text: String) {
        append { $0.append(contentsOf: text.utf8) }
    }

    /// One line that `write` appends to the buffer itself (the newline is added after it).
    func append(_ write: (inout [UInt8]) -> Void) {
        let full = buffer.withLock { bytes -> Bool in
            write(&bytes)
            bytes.append(10)
            return bytes.count >= 64 * 1024
        }
        if full { flush() }
    }

    func flush() {
        buffer.withLock { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { Foundation.write(1, $0.baseAddress! + offset, $0.count - offset) }
                if written <= 0 { break }
                offset += written
            }
            bytes.removeAll(keepingCapacity: true)
        }
    }
}
