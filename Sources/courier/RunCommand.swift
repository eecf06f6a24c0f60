import CourierBody
import CourierCollections
import CourierHTTP
import CourierSecurity
import Foundation

/// `courier run FILE.http`: saved requests headless, in file order, named responses feeding later ones.
enum RunCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "run", summary: "Run saved requests from a .http file headless.",
        overview: "Run the saved requests of a .http file, or of every .http file under a folder, headless.",
        arguments: [
            ArgumentSpec("FILE.http|FOLDER", .file, help: "The collection file, or a folder: its .http and .rest "
                             + "files run in path order (results grouped by file; a malformed file is reported as "
                             + "file:line and the others still run)."),
        ],
        options: [
            .option("--name", "NAME", repeatable: true, help: "Run the request called NAME. Requests whose "
                        + "responses it uses ({{login.response.body.$.token}}) run first."),
            .flag("--all", help: "Run every request (the default when no --name is given)."),
            .option("--env", "ENV", help: "Use environment ENV from http-client.env.json and "
                        + "http-client.private.env.json, beside each file or in a parent folder (up to FOLDER, or "
                        + "to the current folder for a single file)."),
            .option("--var", "NAME=VALUE", repeatable: true,
                    help: "Set a variable, overriding every other source."),
            .flag("--json", help: "Print one JSON object per request (as 'courier send --json', plus \"name\"; "
                      + "plus \"file\" for a folder)."),
            .flag("--fail-fast", help: "Stop after the first request that fails."),
            .flag("--quiet", short: "q", help: "Print only the requests that failed, then the summary."),
            .flag("--summary", help: "Print one line per request: ✓ or ✗, status or error, name, time and size."),
            .flag("--full-bodies", help: "Print whole bodies; text output cuts a body after "
                      + "\(MediaKind.formatSize(bodyLimit)) and says how much more there was."),
            .option("--data", short: "d", "FILE", .file, help: "Run once per row of FILE, a CSV file (its first line "
                        + "names the columns) or a JSON array of objects, as newman's --iteration-data: each row's "
                        + "values are variables ({{name}}, below --var) and pm.iterationData."),
            .option("--iteration-count", short: "n", "N", .number, help: "Run N times (default: once, or once per "
                        + "row of --data; past the last row the last row is used again)."),
        ] + ciOptions + [
            .flag("--timing", help: "Show where the time of each request went."),
            ConnectionOptions.idleTimeoutSpec(
                help: "Give up on a request when no byte arrives for SECONDS; 0 waits for ever."),
            .option("--ws-wait", "SECONDS", .number, default: "2",
                    help: "How long a WebSocket request waits for the server's next message."),
            .flag("--show-secrets", help: "Print Authorization, cookies, tokens and private values as they are."),
            .flag("--allow-insecure-redirect", help: "Follow redirects from https to plain http (refused by "
                      + "default; one request can allow it with '# @allow-insecure-redirect')."),
            FileAccessOptions.allowRead,
            FileAccessOptions.allowOverwrite,
            ConnectionOptions.trustedCertificatesSpec(help: "Verify servers' TLS certificates against the PEM "
                + "certificates in FILE instead of the system's (HTTP and WebSocket requests)."),
        ] + ConnectionOptions.clientCertificateSpecs + ConnectionOptions.cacheSpecs,
        notes: """
            A request succeeds with a status below 400, or with one listed in its '# @expect-status' line,
            and when its response handler ran without an error and its tests passed (a line per test: ✓ or ✗).
            A WEBSOCKET request connects, sends its === messages in order ('=== wait-for-server': once the
            server has said something) and closes once the server has sent as many messages as it was sent,
            or after --ws-wait seconds without a message, or at its '# @timeout' (default: 30 s). It succeeds
            when the handshake did (101) and the connection was not broken off.
            Named responses carry over from one file to the next, in path order.
            A collection reads body and script files ('< ./file') only inside its folder (the FOLDER given, or
            the file's folder) unless --allow-read allows more, and writes responses ('>> ./file') only inside
            the folder of the .http file, never into hidden files or folders or through symbolic links;
            '>>!' replaces only what an earlier '>>' wrote unless --allow-overwrite.

            """ + "\n\n" + ExitStatus.notes(success: "every request succeeded",
                                             failure: "a request failed",
                                             extra: [("3", badInputNote)])
            + "\n\nA run ends with 6 to 35 only when every request that failed failed that way.")

    /// Everything the command line asked for.
    struct Invocation: Sendable {
        var path: String
        var names: [String] = []
        var all = false
        var environment: String?
        var overrides: [String: String] = [:]
        var json = false
        var failFast = false
        /// `--quiet`: only the requests that failed are printed.
        var quiet = false
        /// `--summary`: one line per request.
        var summary = false
        /// `--full-bodies`: text output prints bodies whole instead of cutting them at `bodyLimit`.
        var fullBodies = false
        var timing = false
        var showSecrets = false
        var cacheDirectory: URL?
        /// `--idle-timeout`: no byte for this long fails a request; nil waits for ever.
        var idleTimeout: Duration? = .seconds(ParsedArguments.defaultIdleTimeout)
        var cacheMode: CacheMode?
        var webSocketWait = RunWebSocketExchange.defaultQuietSeconds
        var trustedCertificates: URL?
        /// `--report FORMAT FILE`, each one given.
        var reports: [(format: RunReport.Format, file: URL)] = []
        /// `--jobs N`: how many requests may be in flight at once.
        var jobs = 1
        /// `--repeat N`: how many times the whole run goes through.
        var repeats = 1
        /// `--delay MS`: the wait before each request after the first.
        var delay: Duration?
        /// `--test-only`: a line per request and per test, no responses.
        var testOnly = false
        var allowInsecureRedirect = false
        /// `--allow-read`: files and folders requests may read besides their collection's folder (absolute).
        var allowedReads: [String] = []
        /// `--allow-overwrite`: `>>!` may replace files Courier did not write.
        var allowOverwrite = false
        /// `--cert` and friends: presented instead of any certificate the environment names.
        var clientCertificate: ClientCertificate?
        /// `--pass`: unlocks the `--cert` key or the environment's certificate. A secret.
        var certificatePassphrase: String?
        /// `--data FILE`: read when the run starts.
        var dataFile: String?
        /// `--iteration-count N`.
        var iterationCount: Int?
    }

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments) { args throws(UsageError) in execute(try parse(args)) }
    }

    /// The invocation the parsed command line asks for.
    static func parse(_ args: ParsedArguments) throws(UsageError) -> Invocation {
        let names = args.values("--name")
        let environment = args.value("--env")
        let webSocketWait = args.number("--ws-wait")
        let connection = try ConnectionOptions(args)
        var invocation = Invocation(path: "")
        invocation.idleTimeout = connection.idleTimeout
        invocation.all = args.flag("--all")
        invocation.json = args.flag("--json")
        invocation.failFast = args.flag("--fail-fast") || args.flag("--bail")
        invocation.quiet = args.flag("--quiet")
        invocation.summary = args.flag("--summary")
        invocation.fullBodies = args.flag("--full-bodies")
        if invocation.quiet && invocation.summary {
            throw UsageError("--quiet and --summary exclude each other", command: "run")
        }
        if invocation.json && invocation.summary {
            throw UsageError("--summary prints text; --json prints every request (with --quiet, the failed ones)",
                             command: "run")
        }
        invocation.timing = args.flag("--timing")
        invocation.showSecrets = args.flag("--show-secrets")
        invocation.allowInsecureRedirect = args.flag("--allow-insecure-redirect")
        invocation.allowedReads = try args.allowedReads()
        invocation.allowOverwrite = args.flag("--allow-overwrite")
        let positionals = args.positionals
        guard positionals.count == 1 else {
            let message = positionals.isEmpty
                ? "missing FILE.http or FOLDER; try: courier run Collections/demo.http --all"
                : "one file or folder at a time, not '\(positionals.joined(separator: " "))'"
            throw UsageError(message, command: "run")
        }
        invocation.path = positionals[0]
        invocation.names = names
        invocation.environment = environment
        invocation.overrides = try args.variables()
        invocation.cacheMode = connection.cacheMode
        if let webSocketWait {
            guard webSocketWait > 0 else {
                throw UsageError("--ws-wait takes a number of seconds above 0", command: "run")
            }
            invocation.webSocketWait = webSocketWait
        }
        invocation.trustedCertificates = connection.trustedCertificates
        invocation.clientCertificate = connection.clientCertificate
        invocation.certificatePassphrase = connection.certificatePassphrase
        invocation.dataFile = args.value("--data")
        invocation.iterationCount = try args.wholeNumber("--iteration-count", in: 1...1_000_000) { _ in
            "--iteration-count takes a whole number of runs from 1"
        }
        try parseCIOptions(args, into: &invocation)
        invocation.cacheDirectory = connection.cacheDirectory
        if invocation.all && !names.isEmpty {
            throw UsageError("--all and --name exclude each other", command: "run")
        }
        return invocation
    }

    /// Where text output cuts a body unless `--full-bodies`: a screenful of JSON many times over, while a
    /// 50 MB body (the demo's `large50`) would be millions of lines.
    static let bodyLimit = 64 * 1024

    // MARK: Running

    static func execute(_ given: Invocation) -> Int32 {
        let plan: RunPlan
        let iterations: Iterations
        var invocation = given
        var converted: URL?
        defer { converted.map(PostmanCollectionRun.remove) }
        do {
            converted = try PostmanCollectionRun.convert(&invocation)
            plan = try RunPlan.make(invocation)
            iterations = try Iterations(invocation)
        } catch {
            Console.fail("\(error)")
            return 2
        }
        for diagnostic in plan.diagnostics { Console.error(diagnostic.description) }
        Console.batchOutput()
        defer { Console.flush() }

        let recorder = AttemptRecorder()
        var setup = ClientSetup()
        do {
            setup.cache = try ClientSetup.cache(directory: invocation.cacheDirectory,
                                                requested: invocation.cacheMode != nil)
        } catch {
            Console.fail("cannot open the HTTP cache: \(error)")
            return 1
        }
        // Cookies set by one request (a login) go with the next, and are kept for the next run: on disk at once,
        // then at most once a second while the run goes on, and at its end.
        let cookies = CookieJarStore(saving: .atMostEvery(.seconds(1)))
        // A jar that cannot be saved (a full disk) still serves this run; the user is told it will not last.
        cookies.reportSaveFailures { Console.error("Warning: " + $0) }
        setup.cookies = cookies
        setup.transportConfiguration = .init(trustedCertificates: invocation.trustedCertificates,
                                             idleTimeout: invocation.idleTimeout)
        setup.events = recorder.sink.merged(with: AuthProgress.sink)
        AuthProgress.configure(&setup)
        setup.cacheMode = invocation.cacheMode
        setup.allowInsecureRedirect = invocation.allowInsecureRedirect
        // A run in order waits on its requests one after another: one client. A parallel run has a client, so a
        // libcurl loop thread, per core (at most one per job), its requests spread over them: one loop thread ran
        // every request's resolving, sending and checking and kept one core busy.
        let clients = setup.makeClients(count: invocation.jobs > 1
                                        ? min(invocation.jobs, ProcessInfo.processInfo.activeProcessorCount) : 1)
        let exchange = RunWebSocketExchange(quietSeconds: invocation.webSocketWait,
                                            trustedCertificates: invocation.trustedCertificates, cookies: cookies)
        let grpc = GRPCRequestCall(transport: CurlTransport(configuration: .init(
            trustedCertificates: invocation.trustedCertificates)), events: recorder.sink)
        let call: CollectionRunner.Call = { resolved async throws(APIError) in try await grpc.perform(resolved) }
        // One pacing for every client: --delay spaces the run's requests, not each client's.
        let pacing = invocation.delay.map(RequestPacing.init(delay:))
        let lanes = setup.lanes(through: clients).map { lane in
            SendLanes.Lane(executor: lane.executor, send: pacing?.pacing(lane.send) ?? lane.send)
        }
        let scheduler = RunScheduler(plan: plan, invocation: invocation, iterations: iterations, recorder: recorder,
                                     lanes: lanes, exchange: { resolved in await exchange.perform(resolved) },
                                     call: pacing?.pacing(call) ?? call, cookies: cookies)
        // The run waits on its requests one after another: on the first client's loop thread it is resumed with no
        // hand-off (a parallel run's requests run on the loop of the client each goes through).
        // A run in order prints each response on a lane of its own while the next request goes out (2,000
        // requests: 414 -> 367 ms). Not a parallel run's, whose loop threads would all queue up behind it for
        // each outcome (20,000 quiet requests at --jobs 64: 0.67 -> 0.97 s), nor a quiet one, which prints little.
        let runs = {
            Interruptible.run(on: lanes.lanes[0].executor) { () async throws(APIError) -> RunTally in
                await scheduler.run()
            }
        }
        let result = invocation.jobs == 1 && !invocation.quiet ? Console.printingOnALane(runs) : runs()
        let tally = (try? result.get()) ?? RunTally()
        cookies.saveChanges()
        let planned = plan.requestCount * iterations.count * invocation.repeats
        var summary = tally.summary(planned: planned)
        if plan.isFolder {
            let files = plan.entries.count
            let malformed = plan.diagnostics.filter { $0.severity == .error }.map(\.file)
            let withErrors = tally.filesWithErrors.union(malformed)
            summary += " in \(files) \(files == 1 ? "file" : "files")"
            if !withErrors.isEmpty { summary += "; \(withErrors.count) with errors" }
        }
        Console.error(summary)
        for (format, url) in invocation.reports {
            do {
                try tally.report.write(format, to: url)
            } catch {
                Console.error("Error: \(error)")
                return RunTally.ExitCode.badInput
            }
        }
        return tally.exitCode(planned: planned, planHasErrors: plan.hasErrors)
    }

    /// `# @insecure` on an https or wss request: said on standard error before it is sent, as `--insecure`
    /// and `verifyHostCertificate: false` are.
    static func warnIfUnverified(_ request: HTTPRequest) {
        guard request.insecure, let scheme = request.url.scheme?.lowercased(),
              scheme == "https" || scheme == "wss" else { return }
        Console.warnUnverified(because: "# @insecure on \(request.method.rawValue) "
                                   + SecretPolicy.maskedURL(request.url.absoluteString))
    }

    /// Environment files are searched from the file's folder upward: to the project's root (the nearest
    /// folder above holding `.git`), else to the current folder when the file is inside it, else only
    /// beside the file; but never short of the nearest folder holding httpyac's configuration, httpyac's own
    /// root (a project copied without `.git` and run from the request file's folder still finds it).
    static func collectionRoot(for file: URL) -> URL {
        let folder = file.deletingLastPathComponent().standardizedFileURL
        var candidate = folder
        var httpyacRoot: URL?
        while candidate.path != "/" {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(".git").path) { return candidate }
            if httpyacRoot == nil, EnvironmentSet.httpyacConfigNames.contains(where: {
                FileManager.default.fileExists(atPath: candidate.appendingPathComponent($0).path)
            }) {
                httpyacRoot = candidate
            }
            candidate = candidate.deletingLastPathComponent().standardizedFileURL
        }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        let root = file.standardizedFileURL.path.hasPrefix(current.path + "/") ? current : folder
        if let httpyacRoot, root.path.hasPrefix(httpyacRoot.path + "/") { return httpyacRoot }
        return root
    }
}
