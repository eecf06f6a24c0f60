import CourierCollections
import CourierHTTP
import Foundation

/// `courier import curl|postman`: conversion to `.http`.
enum ImportCommand {
    static let help = """
    OVERVIEW: Convert a curl command or a Postman collection to .http files.

    USAGE: courier import curl '<curl command>' [-o FILE] [--name NAME]
           courier import postman FILE.json [-o DIR]
           courier import openapi FILE|URL [-o DIR]

    ARGUMENTS:
      <curl command>          The whole command in one argument, as copied from browser dev tools
                              ("Copy as cURL") or API docs; '-' reads it from standard input.
      FILE.json               A Postman Collection v2.1 export.
      FILE|URL                An OpenAPI 3.0/3.1 or Swagger 2.0 description, JSON or YAML, as a file or
                              an http(s) URL.

    OPTIONS:
      -o, --output PATH       curl: append the request to FILE (created if missing; default: print it).
                              postman, openapi: write the files into DIR (default: the current folder).
      --name NAME             curl: the request's name.
      -h, --help              Show this help.

    Notes on what could not be converted go to standard error.
    """

    static func run(_ arguments: [String]) -> Int32 {
        var args = Arguments(arguments, command: "import")
        if args.wantsHelp() || arguments.isEmpty {
            Console.out(help)
            return arguments.isEmpty ? 2 : 0
        }
        do {
            let output = try args.option("-o", "--output")
            let name = try args.option("--name")
            let positionals = try args.positionals()
            guard positionals.count == 2 else {
                throw UsageError("expected 'curl <command>', 'postman FILE.json' or 'openapi FILE|URL'", command: "import")
            }
            switch positionals[0] {
            case "curl": return try importCurl(positionals[1], name: name, output: output)
            case "postman": return try importPostman(positionals[1], output: output)
            case "openapi": return try importOpenAPI(positionals[1], output: output)
            default:
                throw UsageError("unknown source '\(positionals[0])'; use curl, postman or openapi", command: "import")
            }
        } catch let error as UsageError {
            return error.report()
        } catch {
            Console.fail("\(error)")
            return 1
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
        for note in result.notes { Console.error("note: \(note)") }
        guard let output else {
            Console.out(result.httpText)
            return 0
        }
        let url = URL(fileURLWithPath: output)
        if FileManager.default.fileExists(atPath: url.path) {
            let loaded = try CollectionLoader.loadFile(url, displayPath: output)
            try CollectionWriter.save(loaded.file.appending(result.request), over: loaded)
        } else {
            try CollectionWriter.write(Data(result.httpText.utf8), to: url, displayPath: output)
        }
        Console.error("wrote \(output)")
        return 0
    }

    static func importPostman(_ path: String, output: String?) throws -> Int32 {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw UsageError("cannot read '\(path)'", command: "import")
        }
        let conversion = try PostmanImporter.convert(data)
        let folder = URL(fileURLWithPath: output ?? ".", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in conversion.files {
            let url = folder.appendingPathComponent(file.name)
            if FileManager.default.fileExists(atPath: url.path) {
                throw UsageError("\(url.path) exists; choose another folder with -o DIR", command: "import")
            }
        }
        for file in conversion.files {
            let url = folder.appendingPathComponent(file.name)
            try CollectionWriter.write(Data(file.text.utf8), to: url, displayPath: url.path)
            Console.error("wrote \(url.path)")
        }
        for line in conversion.report { Console.error("not converted: \(line)") }
        return 0
    }

    /// One `.http` file per tag, `http-client.env.json` (servers) and `http-client.private.env.json`
    /// (credentials, empty), into DIR; an existing file is never overwritten.
    static func importOpenAPI(_ source: String, output: String?) throws -> Int32 {
        let data = try readSource(source)
        let conversion = try OpenAPIImporter.convert(data)
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
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let result = Interruptible.run { () async throws(APIError) -> Data in
                let client = HTTPClient(configuration: HTTPClient.Configuration(transport: CurlTransport()))
                let response = try await client.send(HTTPRequest(url: url))
                guard (200..<300).contains(response.status) else {
                    throw APIError.http(status: response.status, body: Data(), message: nil)
                }
                do { return try response.body.readAll() } catch {
                    throw APIError.protocolError(underlying: "cannot read the body: \(error)")
                }
            }
            switch result {
            case .success(let data): return data
            case .failure(let error): throw UsageError("cannot fetch \(source): \(error.logDescription)", command: "import")
            }
        }
        do { return try Data(contentsOf: URL(fileURLWithPath: source)) } catch {
            throw UsageError("cannot read '\(source)'", command: "import")
        }
    }
}
