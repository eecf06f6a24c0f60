import CourierCollections
import Foundation

/// `courier export curl`: a saved request as a curl command.
enum ExportCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "export", summary: "Export a saved request as a curl command.",
        overview: "Print a saved request as a curl command, quoted for a POSIX shell.",
        arguments: [ArgumentSpec("FILE.http", .file, help: "The collection file.")],
        options: [
            .option("--name", "NAME", help: "The request to export (required when the file has more than one)."),
            .option("--env", "ENV", help: "Resolve variables with environment ENV."),
            .option("--var", "NAME=VALUE", repeatable: true, help: "Set a variable, overriding every other source."),
            .flag("--show-secrets", help: "Keep credentials and private values instead of REDACTED."),
        ],
        subcommands: [
            SubcommandSpec("curl", arguments: "FILE.http",
                           options: ["--name", "--env", "--var", "--show-secrets"],
                           summary: "The request as a curl command line."),
        ])

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments, failing: run)
    }

    private static func run(_ args: ParsedArguments) throws -> Int32 {
        let name = args.value("--name")
        let environmentName = args.value("--env")
        let showSecrets = args.flag("--show-secrets")
        let positionals = args.positionals
        guard positionals.count == 2, positionals[0] == "curl" else {
            throw UsageError("expected 'curl FILE.http --name NAME'", command: "export")
        }
        let overrides = try args.variables()
        let url = URL(fileURLWithPath: positionals[1]).standardizedFileURL
        let loaded = try CollectionLoader.loadFile(url, displayPath: positionals[1])
        let template: RequestTemplate
        if let name {
            let named = try CollectionRunner.selection(of: loaded.file, names: [name], all: false)
            guard let found = named.last(where: { $0.name == name }) else {
                throw CollectionError.unknownRequest(name: name, available: loaded.file.requests.compactMap(\.name))
            }
            template = found
        } else if loaded.file.requests.count == 1 {
            template = loaded.file.requests[0]
        } else {
            throw UsageError("the file has \(loaded.file.requests.count) requests; pick one with --name",
                             command: "export")
        }
        let environment = try EnvironmentSet.discover(near: url, root: RunCommand.collectionRoot(for: url))
            .environment(named: environmentName)
        let resolver = Resolver(file: loaded.file, baseFolder: url.deletingLastPathComponent(),
                                context: VariableContext(overrides: overrides, environment: environment))
        Console.out(CurlExporter.command(for: try resolver.resolve(template), showSecrets: showSecrets))
        return 0
    }
}
