import CourierCollections
import CourierHTTP
import CourierSecurity
import Foundation
import Synchronization

/// `courier send [METHOD] URL`: one request, curl/HTTPie style, with its retries and timing.
enum SendCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "send", summary: "Send one request, curl/HTTPie style.",
        overview: "Send one request, curl/HTTPie style, and show its retries and timing.",
        arguments: [
            ArgumentSpec("METHOD", .choice(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]), optional: true,
                         help: "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or any other word in capitals "
                             + "(default: GET, or POST when a body is given)."),
            ArgumentSpec("URL", help: "An http:// or https:// URL (http:// is assumed when missing; :3000/x is "
                             + "localhost:3000/x)."),
            ArgumentSpec("ITEM", optional: true, repeatable: true, help: "HTTPie request items: Name:value a header, "
                             + "name==value a query parameter, field=value a JSON string field, field:=json raw JSON "
                             + "(3, true, [1, 2]), field=@FILE and field:=@FILE a value read from FILE, field@FILE "
                             + "a file upload (with --form). Data items make the method POST and the body a JSON "
                             + "object; a backslash makes a separator plain (a\\=b=c)."),
        ],
        options: [
            .option("--header", short: "H", "'Name: value'", repeatable: true, help: "Add a request header."),
            .option("--data", short: "d", "BODY", help: "Send BODY; -d @FILE sends the contents of FILE."),
            .flag("--json-body", help: "Send the body as JSON (Content-Type and Accept: application/json)."),
            .flag("--form", short: "f", help: "Send the data items as a form: urlencoded, or multipart/form-data "
                      + "when one of them is a file (field@FILE)."),
            .option("--retry", "N", .number, default: "2", help: "Retries after the first attempt; 0 disables."),
            .option("--timeout", "SECONDS", .number,
                    help: "Give up after SECONDS, for each attempt and all retries together."),
            ConnectionOptions.idleTimeoutSpec(help: "Give up when no byte arrives for SECONDS; 0 waits for ever."),
            .option("--idempotency-key", "KEY", help: "Send Idempotency-Key: KEY, which lets a POST be retried."),
            .option("--output", short: "o", "FILE", .file,
                    help: "Write the body to FILE instead of printing it (streamed to disk)."),
            .flag("--stream", help: "Print the body record by record as it arrives (events or lines); automatic "
                      + "for text/event-stream and application/x-ndjson bodies."),
            .option("--line-limit", "MB", .number, default: "16",
                    help: "Stop a body printed as a stream when one event or line passes MB megabytes."),
            .flag("--timing", help: "Show where the time of the last attempt went."),
            ConnectionOptions.insecureSpec,
            .flag("--allow-insecure-redirect", help: "Follow a redirect from https to plain http (refused by default)."),
            ConnectionOptions.trustedCertificatesSpec(help: "Verify the server's TLS certificate against the PEM "
                + "certificates in FILE instead of the system's (trusts a self-signed development server)."),
        ] + ConnectionOptions.clientCertificateSpecs + SendAuthOptions.specs + [
            .flag("--json", help: "Print one JSON object instead of text."),
            .flag("--show-secrets", help: "Print Authorization, cookies and tokens instead of REDACTED."),
            .flag("--verbose", short: "v",
                  help: "Log each attempt to standard error: the whole URL and the request head as sent (every "
                      + "header, secrets masked unless --show-secrets)."),
        ] + ConnectionOptions.cacheSpecs,
        notes: ExitStatus.notes(success: "a status below 400",
                                failure: "a status of 400 or more, or a failure without a number of its own"))

    /// Everything the command line asked for.
    struct Invocation {
        var request: HTTPRequest
        var json = false
        var timing = false
        var showSecrets = false
        var verbose = false
        /// `--stream`: print records as they arrive even when the body does not look like a stream.
        var stream = false
        /// `--line-limit`: the most bytes one event or line of a stream may hold.
        var lineLimit = StreamPrinter.defaultLineLimit
        var output: URL?
        /// `--cacert FILE`: the certificates servers are verified against instead of the system's.
        var trustedCertificates: URL?
        var cacheDirectory: URL?
        /// `--cache-mode` was given: use the cache (in the default folder unless `--cache-dir`).
        var usesCache = false
        var deadline: Duration?
        /// `--idle-timeout`: no byte for this long fails the transfer; nil waits for ever.
        var idleTimeout: Duration? = .seconds(ParsedArguments.defaultIdleTimeout)

        /// What the request carries that must never be printed: its secret set (`HTTPRequest.secretValues`:
        /// credential headers, URL user info and its Basic form, `access_token=` values, the passphrase).
        var secrets: [String] { request.secretValues.sorted() }
    }

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments) { args throws(UsageError) in
            switch try parse(args) {
            case .success(let invocation): send(invocation)
            // A URL that cannot be sent as written is reported as the transport would report it.
            case .failure(let error): report(nil, error: error, attempts: [], invocation: nil)
            }
        }
    }

    // MARK: Parsing

    /// The invocation the parsed command line asks for, or the `badURL` failure of a URL that cannot be sent.
    static func parse(_ args: ParsedArguments) throws(UsageError) -> Result<Invocation, APIError> {
        let data = args.value("--data")
        let deadline = try args.seconds("--timeout")
        let key = args.value("--idempotency-key")
        let output = args.value("--output")
        let connection = try ConnectionOptions(args)
        let clientCertificate = connection.clientCertificate
        let jsonBody = args.flag("--json-body")
        let timing = args.flag("--timing")
        let allowInsecureRedirect = args.flag("--allow-insecure-redirect")
        let json = args.flag("--json")
        let showSecrets = args.flag("--show-secrets")
        let verbose = args.flag("--verbose")
        let stream = args.flag("--stream")
        let lineLimit = args.number("--line-limit")
        // Another protocol's word (GRPC, SSE, MQTT, in any case) is never sent as an HTTP method or taken for a URL.
        if args.positionals.count > 1, let refusal = HTTPFile.refusal(ofMethod: args.positionals[0].uppercased()) {
            throw UsageError(refusal, command: "send")
        }
        let words = try SendRequestItems.split(args.positionals)
        let (methodText, urlText) = (words.method, words.url)
        guard var url = makeURL(urlText) else { return .failure(.badURL(urlText)) }

        var headers = try args.headers()
        if data != nil, words.items.contains(where: \.kind.isData) {
            throw UsageError("-d and data items (field=value) exclude each other: give the body one way",
                             command: "send")
        }
        let itemsBody = try SendRequestItems.apply(words.items, form: args.flag("--form"), url: &url, headers: &headers)
        if jsonBody {
            if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
            if !headers.contains("Accept") { headers["Accept"] = "application/json" }
        }
        if let key { headers["Idempotency-Key"] = key }

        var body = itemsBody ?? .empty
        if let data {
            if data.hasPrefix("@") {
                let path = String(data.dropFirst())
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw UsageError("cannot read the body file '\(path)'", command: "send")
                }
                body = .file(URL(fileURLWithPath: path))
            } else {
                body = .data(Data(data.utf8))
            }
            // As curl's -d: the transport adds no Content-Type of its own.
            if !headers.contains("Content-Type") { headers["Content-Type"] = "application/x-www-form-urlencoded" }
        }
        if let output {
            // The body streams into this folder while it arrives, so it must be writable before sending.
            let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
                  FileManager.default.isWritableFile(atPath: folder) else {
                throw UsageError("-o: cannot write into the folder '\(folder)'", command: "send")
            }
        }
        let retry = try args.wholeNumber("--retry", in: 0...ParsedArguments.largestWholeNumber) {
            "--retry takes a whole number, not '\($0)'"
        }
        if let lineLimit, !(lineLimit > 0) || lineLimit > 1_048_576 {
            throw UsageError("--line-limit takes a number of megabytes above 0, not '\(args.value("--line-limit") ?? "")'",
                             command: "send")
        }
        let lineLimitBytes = lineLimit.map { Int($0 * Double(1 << 20)) } ?? StreamPrinter.defaultLineLimit
        let method = methodText.map { HTTPMethod(rawValue: $0.uppercased()) }
            ?? (body.isEmpty && data == nil && itemsBody == nil ? .get : .post)
        var request = HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: deadline,
                                  cacheMode: connection.cacheMode ?? .default, maxAttempts: retry.map { $0 + 1 },
                                  insecure: connection.insecure)
        request.allowInsecureRedirect = allowInsecureRedirect
        request.clientCertificate = clientCertificate
        try args.applySignIn(to: &request)
        if let passphrase = clientCertificate?.passphrase { request.knownSecrets.insert(passphrase) }
        return .success(Invocation(request: request, json: json, timing: timing, showSecrets: showSecrets,
                                   verbose: verbose, stream: stream, lineLimit: lineLimitBytes,
                                   output: output.map { URL(fileURLWithPath: $0) },
                                   trustedCertificates: connection.trustedCertificates,
                                   cacheDirectory: connection.cacheDirectory, usesCache: connection.cacheMode != nil,
                                   deadline: deadline, idleTimeout: connection.idleTimeout))
    }

    /// The URL as typed, with http:// assumed when no scheme is given, and `:3000/x` read as
    /// `localhost:3000/x`, as HTTPie reads it.
    static func makeURL(_ text: String) -> URL? {
        let text = text.hasPrefix(":") ? "localhost" + text : text
        // The one URL builder, as `courier run` uses it: escapes already there are kept, never encoded twice.
        guard let url = URLBuilder.url(typed: text), url.host?.isEmpty == false else { return nil }
        return url
    }

    // MARK: Sending

    static func send(_ invocation: Invocation) -> Int32 {
        if invocation.request.insecure { Console.warnUnverified(because: "--insecure") }
        let recorder = AttemptRecorder()
        var policy = RetryPolicy.standard
        if let deadline = invocation.deadline { policy.deadline = deadline }
        if let attempts = invocation.request.maxAttempts { policy.maxAttempts = max(1, attempts) }
        let cache: HTTPCacheMiddleware?
        do {
            cache = try ClientSetup.cache(directory: invocation.cacheDirectory, requested: invocation.usesCache)
        } catch {
            Console.fail("cannot open the HTTP cache: \(error)")
            return 1
        }
        // Records stream to standard output unless the body goes to a file (or there is none: HEAD).
        // Each record is a whole unit, so the secrets the request sent are masked record by record.
        let sent = invocation.showSecrets ? [] : invocation.secrets
        let printer = invocation.output == nil && invocation.request.method != .head
            ? StreamPrinter(json: invocation.json, forced: invocation.stream, showSecrets: invocation.showSecrets,
                            lineLimit: invocation.lineLimit,
                            write: { Console.out(SecretPolicy.masking($0, secrets: sent)) })
            : nil
        let progress = ProgressLine.forTerminal(json: invocation.json) { printer?.isStreaming ?? false }
        var events = recorder.sink
        if let printer {
            events = events.merged(with: EventSink { event in
                if case .attemptStarted(_, let attempt, _, _, _, _) = event, attempt > 1 { printer.restart() }
            })
        }
        if invocation.verbose {
            let logger = RedactingLogger(policy: LogPolicy(includeHeaders: true, fullURL: true)) { Console.error($0) }
            events = events.merged(with: logger.sink)
        }
        var transportConfiguration = BodyFile.transportConfiguration(for: invocation.output)
        transportConfiguration.trustedCertificates = invocation.trustedCertificates
        transportConfiguration.idleTimeout = invocation.idleTimeout
        var setup = ClientSetup()
        setup.transportConfiguration = transportConfiguration
        setup.cache = cache
        setup.retry = policy
        setup.events = events
        let client = setup.makeClient()
        var context = RequestContext()
        if let progress { context.onProgress = { progress.update($0) } }
        if invocation.verbose {
            let showSecrets = invocation.showSecrets
            context.onRequestHead = { head in
                for line in RequestHeadLines.lines(head, secrets: sent, showSecrets: showSecrets) { Console.error(line) }
            }
        }
        if let printer {
            context.onHead = { printer.begin($0) }
            context.onChunk = { printer.feed($0) }
            context.streamFailure = { printer.failure }
            // A stream printed as it arrives is not also kept (no spill file, no size limit, so an endless
            // stream runs for ever), unless a cache is to store it.
            if cache == nil { context.keepsBody = { !printer.isStreaming } }
        }
        let request = invocation.request
        CrashTestHook.fireIfRequested()
        // On the transport's loop thread: the request and its answer cross no thread (a one-shot process on a
        // busy machine waited for a CPU at every hand-off), and no pool thread is started.
        let executor = ClientSetup.loopExecutor(of: client)
        let result = Interruptible.run(on: executor) { [context] () async throws(APIError) -> HTTPResponse in
            let response = try await client.send(request, context: context)
            // A stale response served while it is validated: the validation ends before the process does.
            await cache?.finishBackgroundRevalidations()
            return response
        }
        progress?.finish()
        let attempts = recorder.attempts(for: context.id)
        switch result {
        case .success(let response):
            defer { TemporaryBodyFiles.release(response.body) }
            if let output = invocation.output {
                do {
                    try BodyFile.save(response.body, to: output)
                } catch {
                    Console.fail("cannot write \(output.path): \(error.localizedDescription)")
                    return 1
                }
            }
            printer?.replay(response.body)
            let streamed = printer?.finish(contentType: response.headers["Content-Type"])
            return report(response, error: nil, attempts: attempts, invocation: invocation, streamed: streamed,
                          headShown: printer?.headShown ?? false)
        case .failure(let error):
            // Records printed before a failure (Ctrl-C ends a stream) are counted, never printed twice.
            let streamed = (printer?.isStreaming ?? false) ? printer?.finish(contentType: nil) : nil
            return report(nil, error: error, attempts: attempts, invocation: invocation, streamed: streamed)
        }
    }

    /// Prints the outcome and returns the exit code: 0 for 2xx/3xx, the failure's own (`ExitStatus`) otherwise.
    static func report(_ response: HTTPResponse?, error: APIError?, attempts: [AttemptRecord],
                       invocation: Invocation?, streamed: Int? = nil, headShown: Bool = false) -> Int32 {
        // An error status is reported as the error it stands for (kind http or unauthorized).
        let error = error ?? response.flatMap { APIError(response: $0) }
        var options = ResponseOutput.Options(showSecrets: invocation?.showSecrets ?? false,
                                             timing: invocation?.timing ?? false, bodyFile: invocation?.output,
                                             streamed: streamed)
        // Only a streamed body's head is printed ahead of it; any other response is shown whole.
        options.headShown = headShown && streamed != nil
        options.showsCache = invocation.map { $0.usesCache || $0.cacheDirectory != nil } ?? false
        // The secrets this request sent are masked wherever they come back (a server echoing the request),
        // with those the pipeline added (a followed redirect's user info).
        let secrets = (invocation?.showSecrets ?? true) ? []
            : (invocation?.secrets ?? []) + (response?.sentSecrets.sorted() ?? [])
        func masked(_ text: String) -> String { SecretPolicy.masking(text, secrets: secrets) }
        if invocation?.json ?? false, let response, case .file(let file, _) = response.body, streamed == nil,
           invocation?.output == nil {
            do {
                try JSONBodyWriter.print(response: response, file: file, error: error, attempts: attempts,
                                         options: options, secrets: Set(secrets))
            } catch {
                Console.fail("cannot read the body: \(error.localizedDescription)")
            }
        } else if invocation?.json ?? false {
            Console.out(masked(ResponseOutput.json(response: response, error: error, attempts: attempts, options: options)))
        } else if let response, case .file(let file, let size) = response.body, streamed == nil,
                  invocation?.output == nil {
            // A spilled body is printed from its file in chunks, never read into memory whole.
            Console.out(masked(ResponseOutput.humanHead(response: response, options: options).text))
            do {
                try BodyPrinter.print(file: file, size: size, contentType: response.headers["Content-Type"],
                                      secrets: Set(secrets))
            } catch {
                Console.fail("cannot read the body: \(error.localizedDescription)")
            }
            Console.out(masked(ResponseOutput.humanTail(response: response, error: error, attempts: attempts,
                                                        options: options).text))
        } else if response != nil {
            Console.out(masked(ResponseOutput.human(response: response, error: error, attempts: attempts, options: options)))
        } else {
            Console.error(masked(ResponseOutput.human(response: nil, error: error, attempts: attempts, options: options)))
        }
        guard let response else { return error.map { ExitStatus.of($0.kind) } ?? ExitStatus.failed }
        return response.status < 400 ? ExitStatus.success : ExitStatus.failed
    }
}

/// Runs async work from synchronous `main`, cancelling it on Ctrl-C (SIGINT) so the transfer is
/// aborted and the command can report `cancelled`. With `executor` (a transport's, `CurlTransport.executor`)
/// the work runs on that transport's loop thread, so its requests and their answers do not cross threads.
/// The calling thread itself waits for the work and watches for Ctrl-C: no thread is started for either.
enum Interruptible {
    static func run<T: Sendable>(on executor: (any TaskExecutor)? = nil,
                                 _ operation: @escaping @Sendable () async throws(APIError) -> T)
        -> Result<T, APIError> {
        let outcome = Mutex<Result<T, APIError>?>(nil)
        let done = DoneSignal()
        // Before the work starts: its first output may come before this thread runs again on a busy machine,
        // and a Ctrl-C meant for it must not find the default action.
        let interrupts = InterruptWatch.arm()
        let task = Task(executorPreference: executor) {
            do throws(APIError) {
                let value = try await operation()
                outcome.withLock { $0 = .success(value) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        interrupts.wait(for: done) { task.cancel() }
        return outcome.withLock { $0 } ?? .failure(.cancelled)
    }
}
