import CourierCollections
import Foundation

/// `courier import curl|postman`: conversion to `.http`.
enum ImportCommand {
    static let help = """
    OVERVIEW: Convert a curl command or a Postman collection to .http files.

    USAGE: courier import curl '<curl command>' [-o FILE] [--name NAME]
           courier import postman FILE.json [-o DIR]

    ARGUMENTS:
      <curl command>          The whole command in one argument, as copied from browser dev tools
                              ("Copy as cURL") or API docs; '-' reads it from standard input.
      FILE.json               A Postman Collection v2.1 export.

    OPTIONS:
      -o, --output PATH       curl: append the request to FILE (created if missing; default: print it).
                              postman: write the files into DIR (default: the current folder).
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
                throw UsageError("expected 'curl <command>' or 'postman FILE.json'", command: "import")
            }
            switch positionals[0] {
            case "curl": return try importCurl(positionals[1], name: name, output: output)
            case "postman": return try importPostman(positionals[1], output: output)
            default:
                throw UsageError("unknown source '\(positionals[0])'; use curl or postman", command: "import")
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
}
