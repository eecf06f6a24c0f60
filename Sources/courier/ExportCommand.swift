import CourierCollections
import CourierHTTP
import Foundation

/// `courier export LANG FILE.http`: a saved request as code (curl, HTTPie, Python, JavaScript, Go, Kotlin,
/// Swift), and for Swift `Codable` models of its response; `courier export postman` a whole collection.
enum ExportCommand {
    static let languages = CodeLanguage.allCases.map(\.rawValue) + [postman]
    /// The one target that is a collection format rather than code.
    static let postman = "postman"

    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "export", summary: "Export a saved request as code (curl, HTTPie, Python, JavaScript, Go, Kotlin, "
            + "Swift), or a collection to Postman.",
        overview: "Print a saved request as code that sends the same method, URL, headers and body bytes, or write "
            + "a collection as a Postman Collection v2.1.",
        arguments: [
            ArgumentSpec("LANG", .choice(languages), help: "curl, httpie, python (requests), js (fetch), "
                             + "go (net/http), kotlin (OkHttp) or swift (URLSession, async/await); postman: the "
                             + "whole file or folder as a Postman Collection v2.1."),
            ArgumentSpec("FILE.http", .file, help: "The collection file (postman: a file or a folder)."),
        ],
        options: [
            .option("--output", short: "o", "FILE", .file, help: "postman: write the collection to FILE "
                        + "(default: print it)."),
            .option("--name", "NAME", help: "The request to export (required when the file has more than one)."),
            .option("--env", "ENV", help: "Resolve variables with environment ENV."),
            .option("--var", "NAME=VALUE", repeatable: true, help: "Set a variable, overriding every other source."),
            .flag("--show-secrets", help: "Write credentials and private values into the code. Without it, Swift "
                      + "takes them as parameters and the other languages read environment variables (curl: "
                      + "REDACTED)."),
            .flag("--main", help: "A complete program: it sends the request and prints the body (with --models, "
                      + "the decoded value). Not for curl."),
            .flag("--models", help: "swift: also Codable models of the response, which the function decodes. "
                      + "The request is sent once (scripts, cookies and the requests it depends on as 'courier "
                      + "run' does)."),
            .flag("--from-history", help: "With --models: use the request's newest response in the explorer's "
                      + "history instead of sending it (for an offline machine)."),
            .option("--cache-dir", "DIR", .directory, help: "With --models: use the HTTP cache stored in DIR."),
            .option("--cache-mode", "MODE", .choice(CacheMode.allCases.map(\.rawValue)),
                    help: "With --models: use the HTTP cache (in ~/.cache/courier unless --cache-dir) in MODE."),
        ],
        notes: """
            Secrets (credentials in Authorization and other secret headers, the URL's password, secret query
            parameters, private environment values) are never written into the code unless --show-secrets:
            the comment at its top names the environment variable (or Swift parameter) that holds each one.
            """)

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments, failing: run)
    }

    private static func run(_ args: ParsedArguments) throws -> Int32 {
        let positionals = args.positionals
        guard positionals.count == 2 else {
            throw UsageError("expected 'LANG FILE.http --name NAME' (LANG: \(languages.joined(separator: ", ")))",
                             command: "export")
        }
        if positionals[0] == postman { return try exportPostman(positionals[1], output: args.value("--output")) }
        if args.value("--output") != nil {
            throw UsageError("--output goes with 'courier export postman'; code is printed", command: "export")
        }
        guard let language = CodeLanguage(rawValue: positionals[0]) else {
            throw UsageError("unknown language '\(positionals[0])'; use \(languages.joined(separator: ", "))",
                             command: "export")
        }
        let models = args.flag("--models")
        let main = args.flag("--main")
        if models && language != .swift {
            throw UsageError("--models makes Swift models; use 'courier export swift … --models'", command: "export")
        }
        if main && language == .curl {
            throw UsageError("a curl command is already a program; drop --main", command: "export")
        }
        let modelOptions = ["--from-history", "--cache-dir", "--cache-mode"]
        if !models, let option = modelOptions.first(where: { !args.occurrences(of: $0).isEmpty }) {
            throw UsageError("\(option) goes with --models", command: "export")
        }
        let showSecrets = args.flag("--show-secrets")
        let url = URL(fileURLWithPath: positionals[1]).standardizedFileURL
        let loaded = try CollectionLoader.loadFile(url, displayPath: positionals[1])
        let template = try pick(args.value("--name"), in: loaded.file)
        let environment = try EnvironmentSet.discover(near: url, root: RunCommand.collectionRoot(for: url))
            .environment(named: args.value("--env"))
        var context = VariableContext(overrides: try args.variables(), environment: environment)
        // Code never holds a secret store's value, not even with --show-secrets: it names the store instead.
        context.readsSecretStores = false
        var resolved: ResolvedRequest?
        var swiftModels: SwiftModels?
        if models {
            let source = ExportResponse(file: url, displayPath: positionals[1], template: template,
                                        environmentName: args.value("--env"), overrides: context.overrides)
            let response = args.flag("--from-history")
                ? try source.fromHistory()
                : try source.send(cacheDirectory: args.value("--cache-dir"), cacheMode: args.value("--cache-mode"))
            resolved = response.resolved
            swiftModels = try SwiftModels.infer(from: response.body, requestName: template.name ?? "response")
        }
        let resolver = Resolver(file: loaded.file, baseFolder: url.deletingLastPathComponent(), context: context)
        // The request as sent holds what the stores gave: code is made from one that names the stores.
        let readFromStores = environment.values.values.contains { $0.store != nil }
        let request = try (readFromStores ? nil : resolved) ?? resolver.resolve(template)
        let code = language.code(for: request, context: context, baseFolder: url.deletingLastPathComponent(),
                                 fileName: url.lastPathComponent, showSecrets: showSecrets, main: main,
                                 models: swiftModels)
        // Code is plain text: the sanitiser finds nothing to escape in it (the generators escape control
        // and invisible characters themselves).
        Console.out(code.hasSuffix("\n") ? String(code.dropLast()) : code)
        return 0
    }

    /// The request called `name`, or the file's only request.
    static func pick(_ name: String?, in file: HTTPFile) throws -> RequestTemplate {
        if let name {
            let named = try CollectionRunner.selection(of: file, names: [name], all: false)
            guard let found = named.last(where: { $0.name == name }) else {
                throw CollectionError.unknownRequest(name: name, available: file.requests.compactMap(\.name))
            }
            return found
        }
        guard file.requests.count == 1 else {
            throw UsageError("the file has \(file.requests.count) requests; pick one with --name", command: "export")
        }
        return file.requests[0]
    }
}
