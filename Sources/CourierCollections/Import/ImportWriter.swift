import Foundation

/// What an import writes: `.http` files, the side files some bodies went to, and notes on what was
/// changed or left out on the way.
public struct ImportOutput: Sendable, Hashable {
    /// One file, named relative to the output folder.
    public struct File: Sendable, Hashable {
        public var name: String
        public var text: String
        public init(name: String, text: String) { self.name = name; self.text = text }
    }

    public var files: [File]
    public var notes: [String]
    /// How many requests the `.http` files hold (a request that cannot be written is left out, noted).
    public var requestCount: Int
}

/// The one way imports write `.http` text: Postman, OpenAPI and curl hand over `ImportedRequest`s, and
/// every name, URL, header, variable, comment and body in them is written as data. The files read back as
/// exactly the imported requests, never holding syntax the source did not mean (`###`, tags, `< file`,
/// `>> file`, scripts, request lines) nor a variable it did not mean (`{{$processEnv HOME}}`).
public enum ImportWriter {
    /// The variable a `{` of data is written as where the format has no escape (`DataSpelling.spelled`),
    /// unless the file already uses the name.
    static let braceName = "lbrace"

    /// Writes `files`. A body that cannot stay in its block goes to a side file named after its `.http`
    /// file (`Orders.2.json` beside `Orders.http`).
    public static func write(_ files: [ImportedFile]) -> ImportOutput {
        var taken = Set(files.map(\.name))
        var output = ImportOutput(files: [], notes: [], requestCount: 0)
        for file in files {
            let stem = file.name.hasSuffix(".http") ? String(file.name.dropLast(5)) : file.name
            let takenNow = taken
            var writer = ImportBlock(brace: braceName(avoiding: names(in: file)), definesBrace: false,
                                     sideFiles: .init(stem: sideFileStem(stem), isTaken: { takenNow.contains($0) }))
            var variableLines: [String] = []
            for variable in file.variables {
                guard DataSpelling.isVariableName(variable.name) else {
                    let name = DataSpelling.oneLine(variable.name)
                    output.notes.append("\(file.name): variable '\(name)' has characters .http names cannot hold; left out")
                    continue
                }
                let value = writer.spelled(variable.value, label: file.name, field: "variable \(variable.name)")
                variableLines.append("@\(variable.name) = \(value)")
            }
            var blocks: [[String]] = []
            for request in file.requests {
                if let lines = writer.lines(for: request) { blocks.append(lines) }
            }
            var header = file.comments.flatMap(DataSpelling.commentLines)
            if writer.usedBrace {
                header.append("# {{\(writer.brace)}} stands for a \"{\" of imported data, which .http would "
                              + "otherwise read as the start of a variable")
                variableLines.insert("@\(writer.brace) = {", at: 0)
            }
            // The header is a block of its own (the file's variables); the requests follow, a blank line apart.
            let text = (header + variableLines).map { $0 + "\n" }.joined() + "\n"
                + blocks.map { $0.joined(separator: "\n") + "\n" }.joined(separator: "\n")
            output.files.append(.init(name: file.name, text: text))
            output.files += writer.sideFiles.files
            output.requestCount += blocks.count
            taken.formUnion(writer.sideFiles.files.map(\.name))
            output.notes += writer.notes
        }
        return output
    }

    /// One request as a block of its own (`###` to its last line), to append to a file or print; its side
    /// files are named `STEM.N.EXT` where `isTaken` says the name is free. The text is nil when the request
    /// cannot be written (the notes say why).
    public static func block(_ request: ImportedRequest, sideFileStem stem: String,
                             isTaken: @escaping (String) -> Bool)
        -> (text: String?, sideFiles: [ImportOutput.File], notes: [String]) {
        let brace = braceName(avoiding: names(in: ImportedFile(name: "", requests: [request])))
        var writer = ImportBlock(brace: brace, definesBrace: true,
                                 sideFiles: .init(stem: sideFileStem(stem), isTaken: isTaken))
        let lines = writer.lines(for: request)
        return (lines.map { $0.joined(separator: "\n") + "\n" }, writer.sideFiles.files, writer.notes)
    }

    /// An environment file's value that is a URL or a part of one (a server's URL, its variables): written
    /// as the request line writes a URL's data, since environment values are read with variables too.
    public static func environmentURL(_ data: String) -> String { DataSpelling.url(.data(data)) }

    // MARK: - Names

    /// Every variable name a file defines or refers to.
    static func names(in file: ImportedFile) -> Set<String> {
        var names = Set(file.variables.map(\.name))
        func add(_ text: ImportedText) { names.formUnion(text.variableNames) }
        for variable in file.variables { add(variable.value) }
        for request in file.requests {
            names.formUnion(request.variables.map(\.name))
            add(request.url)
            for field in request.headers + request.variables { add(field.value) }
            switch request.body {
            case .none: break
            case .text(let text), .file(let text): add(text)
            case .multipart(_, let parts):
                for part in parts {
                    switch part.value {
                    case .text(let text), .file(let text): add(text)
                    }
                }
            }
        }
        return names
    }

    /// `lbrace`, or `lbrace-2`, … when the file uses that name for something else.
    static func braceName(avoiding names: Set<String>) -> String {
        var candidate = braceName
        var number = 2
        while names.contains(candidate) {
            candidate = "\(braceName)-\(number)"
            number += 1
        }
        return candidate
    }

    /// A side file's stem: letters, digits, spaces, dots, dashes and underscores, since its name goes into a
    /// `< ./file` line whose path is read with variables. No combining mark: one after the `/` of `./` would
    /// make a different character of it.
    static func sideFileStem(_ stem: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in stem.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .decimalNumber:
                kept.append(scalar)
            default:
                kept.append(" ._-".unicodeScalars.contains(scalar) ? scalar : "-")
            }
        }
        let name = String(kept).trimmingBlanks
        return name.isEmpty ? "body" : name
    }
}
