import CourierSecurity
import CourierCollections
import CourierTerminal
import Foundation

/// `courier check`: parses and resolves `.http` files without sending anything, for CI and editors.
enum CheckCommand {
    static let help = """
    OVERVIEW: Check .http files without sending: list each request and every problem as file:line: message.

    USAGE: courier check FILE.http|FOLDER [--env ENV] [--var NAME=VALUE ...]

    ARGUMENTS:
      FILE.http|FOLDER        A collection file, or a folder whose .http and .rest files are all checked.

    OPTIONS:
      --env ENV               Resolve variables with environment ENV.
      --var NAME=VALUE        Set a variable, overriding every other source (repeatable).
      -h, --help              Show this help.

    Responses of named requests ({{login.response.body.$.token}}) are taken as given when the named
    request exists; '# @prompt' values are taken as given unless --var sets them.

    EXIT CODES: 0 when no file has a problem, 1 when one has, 2 for usage errors.
    """

    static func run(_ arguments: [String]) -> Int32 {
        do throws(UsageError) {
            var args = Arguments(arguments, command: "check")
            if args.wantsHelp() {
                Console.out(help)
                return 0
            }
            let environmentName = try args.option("--env")
            let variables = try args.options("--var")
            let positionals = try args.positionals()
            guard positionals.count == 1 else {
                throw UsageError("give one file or folder; try: courier check Collections", command: "check")
            }
            var overrides: [String: String] = [:]
            for variable in variables {
                guard let equals = variable.firstIndex(of: "="), equals != variable.startIndex else {
                    throw UsageError("--var takes NAME=VALUE, not '\(variable)'", command: "check")
                }
                overrides[String(variable[..<equals])] = String(variable[variable.index(after: equals)...])
            }
            return check(positionals[0], environment: environmentName, overrides: overrides)
        } catch {
            return error.report()
        }
    }

    /// Prints every request and problem; 1 when there are problems.
    static func check(_ path: String, environment environmentName: String?, overrides: [String: String]) -> Int32 {
        let collection = CollectionLoader.load(path)
        let isFolder = (try? URL(fileURLWithPath: path).resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory ?? false
        let prefix = isFolder ? RunPlan.displayPrefix(path) : ""
        var problems = 0
        var checked = 0
        for diagnostic in collection.diagnostics {
            var shown = diagnostic
            shown.file = prefix + diagnostic.file
            Console.out(Sanitizer.sanitize(shown.description))
            if diagnostic.severity == .error { problems += 1 }
        }
        let names = collection.files.flatMap { $0.file.requests.compactMap(\.name) }
        for loaded in collection.files {
            let display = prefix + loaded.file.path
            let root = isFolder ? collection.root : RunCommand.collectionRoot(for: loaded.url)
            let found: EnvironmentSet
            let environment: CourierCollections.Environment
            do {
                found = try EnvironmentSet.discover(near: loaded.url, root: root)
                environment = try found.environment(named: environmentName)
            } catch {
                Console.out(Sanitizer.sanitize("\(display):1: \(error)"))
                problems += 1
                continue
            }
            var responses = ResponseStore()
            responses.declare(names)
            responses.assumeAnswered(names)
            for request in loaded.file.requests {
                var given = overrides
                for prompt in request.prompts where given[prompt.name] == nil { given[prompt.name] = "prompted" }
                let context = VariableContext(overrides: given, environment: environment, responses: responses)
                let resolver = Resolver(file: loaded.file, baseFolder: loaded.url.deletingLastPathComponent(),
                                        context: context)
                checked += 1
                let line = request.lines.lowerBound + (request.sourceText.hasPrefix("###") ? 1 : 0)
                Console.out(Sanitizer.sanitize("\(display):\(line): \(request.method.rawValue) \(request.url)"
                                           + (request.name.map { "  (\($0))" } ?? "")))
                var reported = Set<String>()
                for (_, error) in resolver.unresolved(in: request) {
                    report(error, request, loaded, display, found, environmentName, &reported, &problems)
                }
                do { _ = try resolver.resolve(request) } catch {
                    report(error, request, loaded, display, found, environmentName, &reported, &problems)
                }
            }
        }
        let summary = "\(checked) \(checked == 1 ? "request" : "requests") checked in \(collection.files.count) "
            + "\(collection.files.count == 1 ? "file" : "files"): "
            + (problems == 0 ? "no problems" : "\(problems) \(problems == 1 ? "problem" : "problems")")
        Console.error(summary)
        return problems == 0 ? 0 : 1
    }

    private static func report(_ error: CollectionError, _ request: RequestTemplate, _ loaded: LoadedFile,
                               _ display: String, _ found: EnvironmentSet, _ selected: String?,
                               _ reported: inout Set<String>, _ problems: inout Int) {
        let text = error.located(in: request, file: display, fileVariables: loaded.file.fileVariables,
                                 environments: RunPlan.describe(found, selected: selected))
        guard reported.insert(text).inserted else { return }
        problems += 1
        Console.out(Sanitizer.sanitize(text))
    }
}
