import CourierCollections
import CourierHTTP
import Foundation

/// `courier run FILE.http`: saved requests headless, in file order, named responses feeding later ones.
enum RunCommand {
    static let help = """
    OVERVIEW: Run saved requests from a .http file, in file order, without the explorer.

    USAGE: courier run FILE.http [--name NAME ...] [--all] [--env ENV] [--var NAME=VALUE ...] [options]

    ARGUMENTS:
      FILE.http               The collection file.

    OPTIONS:
      --name NAME             Run the request called NAME (repeatable). Requests whose responses it
                              uses ({{login.response.body.$.token}}) run first.
      --all                   Run every request (the default when no --name is given).
      --env ENV               Use environment ENV from http-client.env.json and
                              http-client.private.env.json (beside the file or in a parent folder).
      --var NAME=VALUE        Set a variable, overriding every other source (repeatable).
      --json                  Print one JSON object per request (as 'courier send --json', plus "name").
      --fail-fast             Stop after the first request that fails.
      --timing                Show where the time of each request went.
      --show-secrets          Print Authorization, cookies, tokens and private values as they are.
      --cache-dir DIR         Use the HTTP cache stored in DIR.
      --cache-mode MODE       Use the HTTP cache (in ~/.cache/courier unless --cache-dir) in MODE:
                              default, revalidate, reload, only-if-cached or bypass.
      -h, --help              Show this help.

    A request succeeds with a status below 400, or with one listed in its '# @expect-status' line.
    WebSocket requests are skipped here; run them with 'courier ws' or in the explorer.

    EXIT CODES: 0 when every request succeeded, 1 when one failed or the file has errors, 2 for usage errors.
    """

    /// Everything the command line asked for.
    struct Invocation {
        var path: String
        var names: [String] = []
        var all = false
        var environment: String?
        var overrides: [String: String] = [:]
        var json = false
        var failFast = false
        var timing = false
        var showSecrets = false
        var cacheDirectory: URL?
        var cacheMode: CacheMode?
    }

    static func run(_ arguments: [String]) -> Int32 {
        do {
            guard let invocation = try parse(arguments) else {
                Console.out(help)
                return 0
            }
            return execute(invocation)
        } catch {
            return error.report()
        }
    }

    /// The invocation, or nil when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation? {
        var args = Arguments(arguments, command: "run")
        if args.wantsHelp() { return nil }
        let names = try args.options("--name")
        let environment = try args.option("--env")
        let variables = try args.options("--var")
        let cacheDirectory = try args.option("--cache-dir")
        let cacheModeText = try args.option("--cache-mode")
        var invocation = Invocation(path: "")
        invocation.all = args.flag("--all")
        invocation.json = args.flag("--json")
        invocation.failFast = args.flag("--fail-fast")
        invocation.timing = args.flag("--timing")
        invocation.showSecrets = args.flag("--show-secrets")
        let positionals = try args.positionals()
        guard positionals.count == 1 else {
            throw UsageError(positionals.isEmpty ? "missing FILE.http; try: courier run Collections/demo.http --all"
                             : "one file at a time, not '\(positionals.joined(separator: " "))'", command: "run")
        }
        invocation.path = positionals[0]
        invocation.names = names
        invocation.environment = environment
        for variable in variables {
            guard let equals = variable.firstIndex(of: "="), equals != variable.startIndex else {
                throw UsageError("--var takes NAME=VALUE, not '\(variable)'", command: "run")
            }
            invocation.overrides[String(variable[..<equals])] = String(variable[variable.index(after: equals)...])
        }
        if let cacheModeText {
            guard let mode = CacheMode(rawValue: cacheModeText) else {
                let modes = CacheMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("--cache-mode takes one of \(modes), not '\(cacheModeText)'", command: "run")
            }
            invocation.cacheMode = mode
        }
        invocation.cacheDirectory = cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        if invocation.all && !names.isEmpty {
            throw UsageError("--all and --name exclude each other", command: "run")
        }
        return invocation
    }

    // MARK: Running

    static func execute(_ invocation: Invocation) -> Int32 {
        let url = URL(fileURLWithPath: invocation.path).standardizedFileURL
        let loaded: LoadedFile
        let requests: [RequestTemplate]
        let environment: CourierCollections.Environment
        do {
            loaded = try CollectionLoader.loadFile(url, displayPath: invocation.path)
            requests = try CollectionRunner.selection(of: loaded.file, names: invocation.names, all: invocation.all)
            let environments = try EnvironmentSet.discover(near: url, root: collectionRoot(for: url))
            environment = try environments.environment(named: invocation.environment)
        } catch {
            Console.error("Error: \(error)")
            return 2
        }
        for diagnostic in loaded.file.diagnostics { Console.error(diagnostic.description) }
        let hasErrors = loaded.file.diagnostics.contains { $0.severity == .error }

        let recorder = AttemptRecorder()
        let cache: (any Middleware)?
        do {
            cache = try SendCommand.makeCache(directory: invocation.cacheDirectory,
                                              requested: invocation.cacheMode != nil)
        } catch {
            Console.error("Error: cannot open the HTTP cache: \(error)")
            return 1
        }
        let client = HTTPClient(configuration: HTTPClient.Configuration(
            transport: CurlTransport(), cache: cache, events: recorder.sink))
        let cacheMode = invocation.cacheMode
        let secrets = Set(environment.values.values.filter(\.isSecret).map(\.value))
        let context = VariableContext(overrides: invocation.overrides, environment: environment)
        let runner = CollectionRunner(file: loaded.file, baseFolder: url.deletingLastPathComponent(),
                                      context: context) { request, context async throws(APIError) -> HTTPResponse in
            var request = request
            if let cacheMode { request.cacheMode = cacheMode }
            return try await client.send(request, context: context)
        }
        let result = Interruptible.run { () async throws(APIError) -> [RunOutcome] in
            await runner.run(requests, failFast: invocation.failFast) { outcome in
                print(outcome, attempts: recorder.attempts(for: outcome.context.id), invocation: invocation,
                      secrets: secrets)
            }
        }
        let outcomes = (try? result.get()) ?? []
        let failed = outcomes.filter { !$0.succeeded }.count
        let skipped = outcomes.filter { $0.skipped != nil }.count
        let notRun = requests.count - outcomes.count
        var summary = "\(outcomes.count - failed - skipped) succeeded, \(failed) failed"
        if skipped > 0 { summary += ", \(skipped) skipped" }
        if notRun > 0 { summary += ", \(notRun) not run" }
        Console.error(summary)
        return failed > 0 || notRun > 0 || hasErrors ? 1 : 0
    }

    /// Environment files are searched up to the current folder when the file is inside it, else only
    /// beside the file.
    static func collectionRoot(for file: URL) -> URL {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        return file.path.hasPrefix(current.path + "/") ? current : file.deletingLastPathComponent()
    }
}
