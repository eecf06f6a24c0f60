import CourierCollections
import Foundation

/// `courier export curl`: a saved request as a curl command.
enum ExportCommand {
    static let help = """
    OVERVIEW: Print a saved request as a curl command, quoted for a POSIX shell.

    USAGE: courier export curl FILE.http --name NAME [--env ENV] [--var NAME=VALUE ...] [--show-secrets]

    ARGUMENTS:
      FILE.http               The collection file.

    OPTIONS:
      --name NAME             The request to export (required when the file has more than one).
      --env ENV               Resolve variables with environment ENV.
      --var NAME=VALUE        Set a variable, overriding every other source (repeatable).
      --show-secrets          Keep credentials and private values instead of REDACTED.
      -h, --help              Show this help.
    """

    static func run(_ arguments: [String]) -> Int32 {
        var args = Arguments(arguments, command: "export")
        if args.wantsHelp() {
            Console.out(help)
            return 0
        }
        do {
            let name = try args.option("--name")
            let environmentName = try args.option("--env")
            let variables = try args.options("--var")
            let showSecrets = args.flag("--show-secrets")
            let positionals = try args.positionals()
            guard positionals.count == 2, positionals[0] == "curl" else {
                throw UsageError("expected 'curl FILE.http --name NAME'", command: "export")
            }
            var overrides: [String: String] = [:]
            for variable in variables {
                guard let equals = variable.firstIndex(of: "="), equals != variable.startIndex else {
                    throw UsageError("--var takes NAME=VALUE, not '\(variable)'", command: "export")
                }
                overrides[String(variable[..<equals])] = String(variable[variable.index(after: equals)...])
            }
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
        } catch let error as UsageError {
            return error.report()
        } catch {
            Console.fail("\(error)")
            return 1
        }
    }
}
