import CourierCollections
import CourierHTTP
import CourierSecurity
import Foundation

/// `courier load FILE --name REQ`: one saved request sent over and over by concurrent workers, through the
/// path `courier run` takes, with a live view and a summary of throughput, statuses, errors and latency.
enum LoadCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "load", summary: "Send one saved request under load and summarise latency and throughput.",
        overview: "Send the request called NAME of a .http file again and again from --concurrency workers, as "
            + "'courier run' sends it (pre-request scripts, auth, variables), for a duration or a number of "
            + "requests, then print requests/s, statuses, errors by kind, bytes, latency percentiles and the "
            + "mean time of each phase.",
        arguments: [ArgumentSpec("FILE.http", .file, help: "The collection file holding the request.")],
        options: [
            .option("--name", "NAME", help: "The request to send (needed when the file holds more than one). "
                        + "Requests whose responses it uses run once first."),
            .option("--concurrency", short: "c", "N", .number, default: "1",
                    help: "Workers sending at once; each sends its next request when its last one ends."),
            .option("--duration", "SECONDS", .number, help: "Stop sending after SECONDS."),
            .option("--requests", "N", .number, help: "Send exactly N requests."),
            .option("--rate", "R", .number, help: "Open loop: start R requests a second whatever the server "
                        + "does; latency counts from when each request was due, so a server that falls behind "
                        + "shows in the percentiles."),
            .option("--env", "ENV", help: "Use environment ENV from http-client.env.json and "
                        + "http-client.private.env.json, as 'courier run' does."),
            .option("--var", "NAME=VALUE", repeatable: true, help: "Set a variable, overriding every other source."),
            .option("--retry", "N", .number, help: "Retry failed attempts as 'courier run' does, up to N attempts "
                        + "a request (retries are off under load: a retry hides the failure it repeats)."),
            .flag("--json", help: "Print the summary as one JSON object."),
            .option("--idle-timeout", "SECONDS", .number, default: "30",
                    help: "Give up on a request when no byte arrives for SECONDS; 0 waits for ever."),
            .option("--cacert", "FILE", .file, help: "Verify servers' TLS certificates against the PEM "
                        + "certificates in FILE instead of the system's."),
        ],
        notes: "Exactly one of --duration and --requests. Without a terminal on standard error there is no\n"
            + "live view. Ctrl-C stops sending and prints the summary of what was sent.\n\n"
            + ExitStatus.notes(success: "every request succeeded (as 'courier run' judges it)",
                               failure: "a request failed"))

    /// Everything the command line asked for.
    struct Invocation: Sendable {
        var run: RunCommand.Invocation
        /// Nil for a file that holds one request.
        var name: String?
        var concurrency = 1
        var limit: LoadRun.Limit
        var rate: Double?
        var retryAttempts: Int?
        var json = false
    }

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments) { args throws(UsageError) in execute(try parse(args)) }
    }

    static func parse(_ args: ParsedArguments) throws(UsageError) -> Invocation {
        guard args.positionals.count == 1 else {
            throw UsageError(args.positionals.isEmpty ? "missing FILE.http; try: courier load api.http --name "
                                 + "health --requests 100" : "one file at a time", command: "load")
        }
        let name = args.value("--name")
        var run = RunCommand.Invocation(path: args.positionals[0])
        run.names = name.map { [$0] } ?? []
        run.environment = args.value("--env")
        run.overrides = try args.variables()
        run.idleTimeout = try args.idleTimeout()
        run.trustedCertificates = try args.certificateFile()
        let limit: LoadRun.Limit
        switch (args.number("--duration"), args.value("--requests")) {
        case (let seconds?, nil):
            guard seconds > 0, seconds <= 86_400 else {
                throw UsageError("--duration takes seconds above 0, up to a day", command: "load")
            }
            limit = .duration(.seconds(seconds))
        case (nil, _?):
            limit = .requests(try wholeNumber(args, "--requests", upTo: 1_000_000_000)!)
        default:
            throw UsageError("give exactly one of --duration SECONDS and --requests N", command: "load")
        }
        var invocation = Invocation(run: run, name: name, limit: limit)
        invocation.concurrency = try wholeNumber(args, "--concurrency", upTo: 10_000) ?? 1
        if let rate = args.number("--rate") {
            guard rate > 0, rate <= 1_000_000 else {
                throw UsageError("--rate takes requests a second above 0", command: "load")
            }
            invocation.rate = rate
        }
        invocation.retryAttempts = try wholeNumber(args, "--retry", upTo: 10)
        invocation.json = args.flag("--json")
        return invocation
    }

    private static func wholeNumber(_ args: ParsedArguments, _ name: String, upTo limit: Int) throws(UsageError)
        -> Int? {
        guard let text = args.value(name) else { return nil }
        guard let value = Int(text), value >= 1, value <= limit else {
            throw UsageError("\(name) takes a whole number from 1 to \(limit), not '\(text)'", command: "load")
        }
        return value
    }

    static func execute(_ invocation: Invocation) -> Int32 {
        let plan: RunPlan
        do {
            plan = try RunPlan.make(invocation.run)
        } catch {
            Console.fail("\(error)")
            return 2
        }
        for diagnostic in plan.diagnostics { Console.error(diagnostic.description) }
        guard let entry = plan.entries.first, let target = entry.requests.last else { return 2 }
        // A file of one request needs no --name; with more, which one is not guessed.
        if invocation.name == nil && entry.requests.count > 1 {
            let names = entry.requests.compactMap(\.name)
            let listed = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
            Console.fail("\(entry.displayPath) holds \(entry.requests.count) requests: pick one with --name NAME"
                         + (names.isEmpty ? "" : " (\(listed))"))
            return 2
        }
        let environment: CourierCollections.Environment
        switch entry.environment {
        case .success(let found): environment = found
        case .failure(let error):
            Console.fail("\(error)")
            return 2
        }
        if let unverifiedBy = environment.tls.unverifiedBy {
            Console.warnUnverified(because: "verifyHostCertificate: false in \(unverifiedBy)")
        }
        var setup = ClientSetup()
        setup.retry = invocation.retryAttempts.map { RetryPolicy(maxAttempts: $0) }
        // As `courier run`: the environment's cookie jar (a login's session cookie goes with every request)
        // and OAuth 2.0 tokens kept between runs, so a token is fetched once, not once per request. The jar is
        // saved once, at the end, rather than after every response that sets a cookie.
        let cookies = CookieJarStore(saving: .whenTold)
        cookies.reportSaveFailures { Console.error("Warning: " + $0) }
        setup.cookies = cookies
        AuthProgress.configure(&setup)
        setup.events = AuthProgress.sink
        setup.transportConfiguration = .init(trustedCertificates: invocation.run.trustedCertificates,
                                             idleTimeout: invocation.run.idleTimeout)
        // A client, so a libcurl loop thread, per core (at most one per worker): under load the loop that drives
        // the sockets is the busiest thread, and one thread uses one core at most. They share the cookie jar and
        // the first client's OAuth 2.0 session, so a token is still fetched once for the run.
        let clients = setup.makeClients(count: min(invocation.concurrency,
                                                   ProcessInfo.processInfo.activeProcessorCount))
        let sends = clients.map { setup.send(through: $0) }
        // Load watches no attempt events (its sink prints only sign-ins), so a request no step has work for
        // goes straight to the transport.
        let directs = clients.map { [setup] client in { @Sendable (request: HTTPRequest) in
            client.direct(setup.applyingDefaults(to: request))
        } }
        // Each client's workers run on its loop thread, as wrk's connections run on their thread's event loop.
        let executors = clients.map(ClientSetup.loopExecutor(of:))
        var start = VariableContext(overrides: invocation.run.overrides, environment: environment)
        start.fileAccess = CollectionFileAccess(root: nil, allowedReads: [], allowsOverwrite: false,
                                                ledger: .standard())
        let runner = { @Sendable (context: VariableContext, send: @escaping CollectionRunner.Send) in
            CollectionRunner(file: entry.loaded.file, baseFolder: entry.loaded.url.deletingLastPathComponent(),
                             context: context, imports: entry.imports, send: send)
        }
        let tally = LoadTally()
        let origin = LoadRun.Origin(rate: invocation.rate, retries: invocation.retryAttempts != nil)
        let result = Interruptible.run(on: executors[0]) {
            [start] () async throws(APIError) -> (LoadRun.Report, resolvedOnce: Bool, direct: Bool) in
            // The requests whose responses it uses run once, before the clock starts.
            var context = start
            let before = Array(entry.requests.dropLast())
            if !before.isEmpty {
                let kept = await runner(context, sends[0]).runKeepingState(before)
                context.responses = kept.responses
                context.globals = kept.globals
            }
            let requests = zip(sends, directs).map { send, direct in
                LoadRequest(template: target, runner: runner(context, send), send: send, direct: direct)
            }
            let load = LoadRun(requests: requests, executors: executors, concurrency: invocation.concurrency,
                               limit: invocation.limit, rate: invocation.rate, tally: tally, origin: origin)
            let view = LoadLiveView.available ? Task { await LoadLiveView(tally: tally).run() } : nil
            let report = await load.run()
            view?.cancel()
            await view?.value
            return (report, requests.allSatisfy(\.resolvedOnce), requests.allSatisfy(\.sentDirect))
        }
        let (report, resolvedOnce, direct) = (try? result.get()) ?? (LoadRun.Report(elapsed: .zero), false, false)
        cookies.saveChanges()
        let snapshot = tally.snapshot
        var summary = LoadSummary(snapshot: snapshot, elapsed: report.elapsed, concurrency: invocation.concurrency,
                                  rate: invocation.rate, retryAttempts: invocation.retryAttempts)
        summary.resolvedOnce = resolvedOnce
        summary.sentDirect = direct
        summary.sentOnLoop = report.sentOnLoop
        summary.sentOnWire = report.sentOnWire
        summary.handedOver = report.handedOver
        summary.origin = origin
        if invocation.json {
            Console.out(CompactJSON.string(summary.json) ?? "{}")
        } else {
            Console.out(summary.text)
        }
        return snapshot.failed == 0 && snapshot.requests > 0 ? 0 : 1
    }
}
