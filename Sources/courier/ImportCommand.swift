import CourierCollections
import CourierHTTP
import Foundation

/// `courier import curl|postman|openapi|har|insomnia|bruno`: conversion to `.http`.
enum ImportCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "import", summary: "Convert curl, Postman, OpenAPI, HAR, Insomnia or Bruno to .http.",
        overview: "Convert a curl command, a Postman collection, an OpenAPI description, a HAR recording, an Insomnia "
            + "export or a Bruno collection to .http files.",
        arguments: [
            ArgumentSpec("CURL-COMMAND", optional: true, help: "The whole command in one argument, as copied from "
                             + "browser dev tools (\"Copy as cURL\") or API docs, or unquoted as its words after "
                             + "'--' (or right after 'curl' when they start with 'curl'); '-' reads it from standard "
                             + "input."),
            ArgumentSpec("FILE.json...", .file, optional: true, help: "A Postman Collection v2.1 export, environment "
                             + "exports (*.postman_environment.json) and a globals export, in any order and any "
                             + "mix (at most one collection); each is recognised by what it holds."),
            ArgumentSpec("FILE|URL", .file, optional: true, help: "An OpenAPI 3.0/3.1 or Swagger 2.0 description, "
                             + "JSON or YAML, as a file or an http(s) URL; its $refs to other files (in its folder "
                             + "tree) and to http(s) URLs are followed."),
            ArgumentSpec("FILE.har", .file, optional: true, help: "A HAR 1.2 file saved by a browser's network "
                             + "panel: one request per entry, one file per host, each response kept in history."),
            ArgumentSpec("EXPORT.json", .file, optional: true, help: "An Insomnia v4 export (Export Data, JSON)."),
            ArgumentSpec("FOLDER", .directory, optional: true, help: "A Bruno collection's folder (.bru files)."),
        ],
        options: [
            .option("--output", short: "o", "PATH", .file, help: "curl: append the request to the file PATH "
                        + "(created if missing; default: print it). postman, openapi: write the files into the "
                        + "folder PATH (default: the current folder); har, insomnia, bruno: likewise. A body "
                        + "whose lines .http would read as its own syntax is written to a file beside them."),
            .option("--name", "NAME", help: "curl: the request's name."),
            .option("--allow-read", "PATH", .file, repeatable: true,
                    help: "openapi: follow $ref into PATH (a file, or every file under a folder) although it is outside "
                        + "the description's folder. Files under /proc, /sys and /dev are never read."),
        ],
        subcommands: [
            SubcommandSpec("curl", arguments: "CURL-COMMAND", options: ["--output", "--name"],
                           summary: "A curl command line."),
            SubcommandSpec("postman", arguments: "FILE.json...", options: ["--output"],
                           summary: "A Postman collection, its environments and globals."),
            SubcommandSpec("openapi", arguments: "FILE|URL", options: ["--output", "--allow-read"],
                           summary: "An OpenAPI or Swagger description."),
            SubcommandSpec("har", arguments: "FILE.har", options: ["--output"],
                           summary: "A browser's HAR recording."),
            SubcommandSpec("insomnia", arguments: "EXPORT.json", options: ["--output"],
                           summary: "An Insomnia v4 export."),
            SubcommandSpec("bruno", arguments: "FOLDER", options: ["--output"],
                           summary: "A Bruno collection."),
        ],
        notes: "Notes on what could not be converted go to standard error.")

    static func run(_ arguments: [String]) -> Int32 {
        // Nothing to import: the help says what can be, as a usage error.
        if arguments.isEmpty {
            Console.out(HelpText.render(spec))
            return 2
        }
        return spec.run(joiningCurlWords(arguments) ?? arguments, failing: run)
    }

    /// `courier import curl [-o FILE] [--name NAME] -- curl -X POST …` (or without `--` when the words start with
    /// `curl`): the command typed as words rather than one quoted argument, joined back into that argument, each
    /// word quoted as a shell reads it. Options of the import come before the command (after it they are the
    /// command's: curl has its own `-o`). Nil when the arguments are not that shape, to be parsed as they are.
    static func joiningCurlWords(_ arguments: [String]) -> [String]? {
        guard arguments.first == "curl" else { return nil }
        var own = ["curl"]
        var index = 1
        var words: [String] = []
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" {
                words = Array(arguments[(index + 1)...])
                break
            }
            if word == "curl" {
                words = Array(arguments[index...])
                break
            }
            if ["-o", "--output", "--name"].contains(word), index + 1 < arguments.count {
                own += [word, arguments[index + 1]]
                index += 2
            } else if word.hasPrefix("--output=") || word.hasPrefix("--name=") || (word.hasPrefix("-o") && word.count > 2) {
                own.append(word)
                index += 1
            } else {
                // The command quoted as one argument, or '-': the ordinary parser reads them.
                return nil
            }
        }
        guard !words.isEmpty else { return nil }
        let command = words.first == "curl" ? words : ["curl"] + words
        return own + [command.map(ShellWords.quote).joined(separator: " ")]
    }

    private static func run(_ args: ParsedArguments) throws -> Int32 {
        let output = args.value("--output")
        let name = args.value("--name")
        let positionals = args.positionals
        if positionals.first == "postman" && positionals.count > 2 {
            return try importPostman(Array(positionals.dropFirst()), output: output)
        }
        guard positionals.count == 2 else {
            throw UsageError("expected 'curl <command>', 'postman FILE.json...', 'openapi FILE|URL', 'har FILE.har', "
                             + "'insomnia EXPORT.json' or 'bruno FOLDER'",
                             command: "import")
        }
        switch positionals[0] {
        case "curl": return try importCurl(positionals[1], name: name, output: output)
        case "postman": return try importPostman([positionals[1]], output: output)
        case "openapi": return try importOpenAPI(positionals[1], output: output, allowedReads: try args.allowedReads())
        case "har": return try importHAR(positionals[1], output: output)
        case "insomnia": return try importInsomnia(positionals[1], output: output)
        case "bruno": return try importBruno(positionals[1], output: output)
        default:
            throw UsageError("unknown source '\(positionals[0])'; use curl, postman, openapi, har, insomnia or bruno",
                             command: "import")
        }
    }

    static func importCurl(_ command: String, name: String?, output: String?) throws -> Int32 {
        let text = command == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                                  : command
        let result: CurlImport
        do {
            result = try CurlImporter.convert(text, name: name)
        } catch {
            // What was typed is not a curl command we can read: a usage error, exit 2.
            throw UsageError("\(error)", command: "import")
        }
        let url = output.map { URL(fileURLWithPath: $0) }
        let folder = url?.deletingLastPathComponent()
        // A body that cannot stand in the block goes to a file beside the output, never over one.
        let stem = url?.deletingPathExtension().lastPathComponent ?? "curl"
        let written = ImportWriter.block(result.imported, sideFileStem: stem, isTaken: { name in
            folder.map { FileManager.default.fileExists(atPath: $0.appendingPathComponent(name).path) } ?? false
        })
        for note in result.notes + written.notes { Console.error("note: \(note)") }
        guard let text = written.text else {
            throw CollectionError.importFailed(source: "curl command", reason: "it cannot be written as a .http request")
        }
        guard let output, let url, let folder else {
            guard written.sideFiles.isEmpty else {
                throw UsageError("the body has lines a .http file would read as its own syntax; "
                                 + "give -o FILE to write it to a file beside FILE", command: "import")
            }
            Console.out(text)
            return 0
        }
        for file in written.sideFiles {
            let sideURL = folder.appendingPathComponent(file.name)
            try CollectionWriter.write(Data(file.text.utf8), to: sideURL, displayPath: sideURL.path)
            Console.error("wrote \(sideURL.path)")
        }
        if FileManager.default.fileExists(atPath: url.path) {
            let loaded = try CollectionLoader.loadFile(url, displayPath: output)
            try CollectionWriter.save(loaded.file.appending(block: text), over: loaded)
        } else {
            try CollectionWriter.write(Data(text.utf8), to: url, displayPath: output)
        }
        Console.error("wrote \(output)")
        return 0
    }

    /// One `.http` file per tag, `http-client.env.json` (servers) and `http-client.private.env.json`
    /// (credentials, empty), into DIR; an existing file is never overwritten.
    static func importOpenAPI(_ source: String, output: String?, allowedReads: [String]) throws -> Int32 {
        let data = try readSource(source)
        let (location, load) = referenceLoader(for: source, allowedReads: allowedReads)
        let conversion = try OpenAPIImporter.convert(data, location: location, load: load)
        let folder = URL(fileURLWithPath: output ?? ".", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = conversion.files.map { ($0.name, $0.text) }
            + [(EnvironmentSet.publicFileName, conversion.environment),
               (EnvironmentSet.privateFileName, conversion.privateEnvironment)]
        for (name, _) in files where FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            throw UsageError("\(folder.appendingPathComponent(name).path) exists; choose another folder with -o DIR",
                             command: "import")
        }
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            // The private file will hold credentials: readable by the user only.
            try CollectionWriter.write(Data(text.utf8), to: url, displayPath: url.path,
                                       permissions: name == EnvironmentSet.privateFileName ? 0o600 : nil)
            Console.error("wrote \(url.path)")
        }
        for note in conversion.notes { Console.error("note: \(note)") }
        Console.error("\(conversion.requestCount) requests in \(conversion.files.count) files")
        return 0
    }

    /// A file's bytes, or an http(s) URL's body fetched with the client core.
    static func readSource(_ source: String) throws -> Data {
        if let url = URL(string: source), isWeb(url) {
            switch fetch(url) {
            case .success(let data): return data
            case .failure(let error): throw UsageError("cannot fetch \(source): \(error.logDescription)", command: "import")
            }
        }
        do { return try Data(contentsOf: URL(fileURLWithPath: source)) } catch {
            throw UsageError("cannot read '\(source)'", command: "import")
        }
    }
}
