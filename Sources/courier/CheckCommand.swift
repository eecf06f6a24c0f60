import CourierSecurity
import CourierCollections
import CourierTerminal
import Foundation

/// `courier check`: parses and resolves `.http` files without sending anything, for CI and editors.
enum CheckCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "check", summary: "Check .http files without sending; list problems as file:line.",
        overview: "Check .http files without sending: list each request and every problem as file:line: message.",
        arguments: [
            ArgumentSpec("FILE.http|FOLDER", .file,
                         help: "A collection file, or a folder whose .http and .rest files are all checked."),
        ],
        options: [
            .option("--env", "ENV", help: "Resolve variables with environment ENV."),
            .option("--var", "NAME=VALUE", repeatable: true, help: "Set a variable, overriding every other source."),
            FileAccessOptions.allowRead,
        ],
        notes: """
            Responses of named requests ({{login.response.body.$.token}}) are taken as given when the named
            request exists; '# @prompt' values are taken as given unless --var sets them. A body or script file
            outside the collection's folder is a problem unless --allow-read allows it, as in 'courier run'.

            EXIT CODES: 0 when no file has a problem, 1 when one has, 2 for usage errors.
            """)

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments) { args throws(UsageError) in
            guard args.positionals.count == 1 else {
                throw UsageError("give one file or folder; try: courier check Collections", command: "check")
            }
            return check(args.positionals[0], environment: args.value("--env"), overrides: try args.variables(),
                         allowedReads: try args.allowedReads())
        }
    }

    /// Prints every request and problem; 1 when there are problems.
    static func check(_ path: String, environment environmentName: String?, overrides: [String: String],
                      allowedReads: [String] = []) -> Int32 {
        let collection = CollectionLoader.load(path)
        let isFolder = (try? URL(fileURLWithPath: path).resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory ?? false
        let prefix = isFolder ? RunPlan.displayPrefix(path) : ""
        var problems = 0
        var checked = 0
        if isFolder && collection.files.isEmpty && collection.diagnostics.isEmpty {
            let reason = CollectionLoader.emptyFolderReason(URL(fileURLWithPath: path), shownAs: path)
            Console.out(Sanitizer.sanitize("\(path): \(reason)"))
            problems += 1
        }
        for diagnostic in collection.diagnostics {
            var shown = diagnostic
            shown.file = prefix + diagnostic.file
            Console.out(Sanitizer.sanitize(shown.description))
            if diagnostic.severity == .error { problems += 1 }
        }
        let names = collection.files.flatMap { $0.file.requests.compactMap(\.name) }
        var settingsWarnings: [Diagnostic] = []
        for loaded in collection.files {
            let display = prefix + loaded.file.path
            let root = isFolder ? collection.root : RunCommand.collectionRoot(for: loaded.url)
            let found: EnvironmentSet
            let environment: CourierCollections.Environment
            var selected = environmentName
            do {
                found = try EnvironmentSet.discover(near: loaded.url, root: root)
                // What the environment files ask that Courier does not do (httpyac's configuration), said once.
                for warning in found.warnings where !settingsWarnings.contains(warning) {
                    settingsWarnings.append(warning)
                    Console.out(Sanitizer.sanitize(warning.description))
                }
                selected = RunPlan.chosenEnvironment(environmentName, in: found)
                environment = try found.environment(named: selected)
            } catch {
                Console.out(Sanitizer.sanitize("\(display):1: \(error)"))
                problems += 1
                continue
            }
            // Imports (a missing file, a cycle) and run lines that name nothing are problems too.
            let imports = ImportedFiles.load(for: loaded,
                                             values: .init(overrides: overrides, environment: environment))
            for diagnostic in imports.diagnostics {
                Console.out(Sanitizer.sanitize("\(prefix)\(diagnostic)"))
                if diagnostic.severity == .error { problems += 1 }
            }
            let folder = loaded.url.deletingLastPathComponent()
            for block in loaded.file.requests where block.isRunBlock {
                checked += 1
                for directive in block.runs {
                    Console.out(Sanitizer.sanitize("\(display):\(directive.line): \(directive.text)"))
                    let target = imports.target(of: directive, from: loaded.file, baseFolder: folder)
                    if case .failure(let missing) = target {
                        Console.out(Sanitizer.sanitize("\(display):\(directive.line): \(missing.message)"))
                        problems += 1
                    }
                }
            }
            var responses = ResponseStore()
            responses.declare(names + imports.names)
            responses.assumeAnswered(names + imports.names)
            let file = imports.addingVariables(to: loaded.file)
            let scripts = file.requests.flatMap(\.scripts) + file.fileScripts
            // Read once: Foundation builds the dictionary anew on each read, which was half of checking a long file.
            let processEnvironment = ProcessInfo.processInfo.environment
            // Whether a script of the file sets a name, asked once per name rather than once per request using it.
            var setByScript: [String: Bool] = [:]
            for request in file.requests where !request.isRunBlock {
                var given = overrides
                for prompt in request.prompts where given[prompt.name] == nil { given[prompt.name] = "prompted" }
                // httpyac's loop sets its item and `$index` for each pass.
                if let loop = request.loop {
                    given[RequestLoop.indexVariable] = given[RequestLoop.indexVariable] ?? "0"
                    if case .forOf(let item, _) = loop.kind, given[item] == nil { given[item] = "item" }
                }
                // A value a script of the file sets (`client.global.set`, httpyac's `exports`) is there when run.
                // httpyac's `...defaultHeaders` spreads what a script exports, as `{{defaultHeaders}}` reads it.
                let spread = request.headerSpreads.map { expression in
                    String(expression.prefix { $0.isLetter || $0.isNumber || "_$".contains($0) })
                }
                let used = CollectionRunner.variableNames(in: request.sourceText).union(spread)
                for name in used where given[name] == nil {
                    let scripted = setByScript[name] ?? scripts.contains { $0.mentionsSetting(name) }
                    setByScript[name] = scripted
                    if scripted { given[name] = "scripted" }
                }
                var context = VariableContext(overrides: given, environment: environment,
                                              processEnvironment: processEnvironment, responses: responses)
                // A check sends nothing, so it asks no secret store (and no gpg-agent) for a value, and runs
                // no httpyac `{{ expression }}` JavaScript.
                context.readsSecretStores = false
                context.scriptExpressions = .assumed
                // A client certificate's passphrase is asked when sending; a check takes it as given.
                context.certificatePassphrase = "checked"
                context.fileAccess = CollectionFileAccess(root: isFolder ? collection.root : nil,
                                                          allowedReads: allowedReads)
                let resolver = Resolver(file: file, baseFolder: folder, context: context)
                checked += 1
                let line = request.lines.lowerBound + (request.sourceText.hasPrefix("###") ? 1 : 0)
                // What the request would send as credentials, written in the file or private: never printed.
                // A credential written as one `{{reference}}` names where the value comes from, not the value:
                // it stays readable in the problems reported.
                let written = request.headers.flatMap { field in
                    SecretPolicy.credentials(inHeader: field.name, value: field.value)
                }.filter { !Self.isOneReference($0) }
                let masker = SecretMasker(secrets: environment.secretValues
                    .union(SecretPolicy.credentials(inURL: request.url)).union(written))
                let url = SecretPolicy.maskedURL(request.url, masker: masker)
                // A WEBSOCKET request is kept as a GET (its handshake), but it is listed as it is written.
                let verb = request.kind == .websocket ? "WEBSOCKET" : request.method.rawValue
                Console.out(Sanitizer.sanitize("\(display):\(line): \(verb) \(url)"
                                           + (request.name.map { "  (\($0))" } ?? "")))
                var reported = Set<String>()
                let place = Place(loaded: loaded, display: display, found: found, selected: selected,
                                  masker: masker)
                for reference in request.references where !(names + imports.names).contains(reference.name) {
                    Console.out(Sanitizer.sanitize("\(display):\(reference.line): '# @ref \(reference.name)' names no "
                                                   + "request of this file or the files it imports"))
                    problems += 1
                }
                for (_, error) in resolver.unresolved(in: request) {
                    report(error, request, place, &reported, &problems)
                }
                do { _ = try resolver.resolve(request) } catch {
                    report(error, request, place, &reported, &problems)
                }
                for script in request.scripts {
                    guard case .file(let path) = script.source else { continue }
                    do {
                        _ = try context.fileAccess.read(path, from: folder, streamed: false)
                            .file(.read, path: path, request: request.displayName, line: script.line)
                    } catch {
                        report(error, request, place, &reported, &problems)
                    }
                }
            }
        }
        let summary = "\(checked) \(checked == 1 ? "request" : "requests") checked in \(collection.files.count) "
            + "\(collection.files.count == 1 ? "file" : "files"): "
            + (problems == 0 ? "no problems" : "\(problems) \(problems == 1 ? "problem" : "problems")")
        Console.error(summary)
        return problems == 0 ? 0 : 1
    }

    /// Where a request's problems are reported, and what in them is masked.
    private struct Place {
        var loaded: LoadedFile
        var display: String
        var found: EnvironmentSet
        var selected: String?
        var masker: SecretMasker
    }

    private static func report(_ error: CollectionError, _ request: RequestTemplate, _ place: Place,
                               _ reported: inout Set<String>, _ problems: inout Int) {
        let variables = place.loaded.file.fileVariables
        let located = error.located(in: request, file: place.display, fileVariables: variables,
                                    environments: RunPlan.describe(place.found, selected: place.selected))
        let text = place.masker.mask(located, sparing: place.display)
        guard reported.insert(text).inserted else { return }
        problems += 1
        Console.out(Sanitizer.sanitize(text))
    }

    /// Whether `text` is a single `{{…}}` reference and nothing else.
    static func isOneReference(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("{{") && trimmed.hasSuffix("}}") && trimmed.dropFirst(2).range(of: "{{") == nil
    }
}
