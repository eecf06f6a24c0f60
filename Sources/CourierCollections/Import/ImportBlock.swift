import CourierHTTP
import CourierMessage

/// Writes one imported request as a `.http` block and proves it: the block is parsed back and must give
/// exactly the request meant (name, method, URL, headers, body, variables, tags, scripts, nothing more),
/// else the body moves to a side file, and a request that still does not read back is left out with a note.
struct ImportBlock {
    /// Side files for bodies that cannot stay in the block, named after the `.http` file.
    struct SideFiles {
        let stem: String
        /// Whether a name is already used (other files of the import, files on disk).
        let isTaken: (String) -> Bool
        private(set) var files: [ImportOutput.File] = []

        init(stem: String, isTaken: @escaping (String) -> Bool) {
            self.stem = stem
            self.isTaken = isTaken
        }

        /// Adds a file holding `text`; returns its name.
        mutating func add(_ text: String, extension ext: String) -> String {
            var number = files.count + 1
            var name = "\(stem).\(number).\(ext)"
            while isTaken(name) || files.contains(where: { $0.name == name }) {
                number += 1
                name = "\(stem).\(number).\(ext)"
            }
            files.append(ImportOutput.File(name: name, text: text))
            return name
        }
    }

    /// The variable that stands for a `{` of data (`DataSpelling.spelled`).
    let brace: String
    /// Whether `{{brace}}` must be defined inside the block (a block appended on its own) or is a file
    /// variable the caller writes.
    let definesBrace: Bool
    var sideFiles: SideFiles
    var notes: [String] = []
    /// Whether any block used `{{brace}}`.
    private(set) var usedBrace = false

    init(brace: String, definesBrace: Bool, sideFiles: SideFiles) {
        self.brace = brace
        self.definesBrace = definesBrace
        self.sideFiles = sideFiles
    }

    /// What the block should read back as, next to its lines.
    struct Written {
        var lines: [String]
        var expected: RequestTemplate
    }

    /// The block's lines, or nil when the request cannot be written (a note says why).
    mutating func lines(for request: ImportedRequest) -> [String]? {
        let label = DataSpelling.oneLine(request.label)
        guard let method = DataSpelling.method(request.method) else {
            notes.append("\(label): method '\(DataSpelling.oneLine(request.method))' is not an HTTP method a "
                         + ".http request line can hold; request left out")
            return nil
        }
        guard !request.url.isEmpty else {
            notes.append("\(label): no URL; request left out")
            return nil
        }
        // Each attempt renders into a copy, so a given-up attempt leaves no side file and no note behind.
        for inline in [true, false] {
            var attempt = self
            guard let written = attempt.render(request, method: method, label: label, inlineBody: inline) else {
                notes = attempt.notes
                return nil
            }
            if Self.readsBack(written) {
                self = attempt
                return written.lines
            }
        }
        notes.append("\(label): could not be written so that it reads back as imported; request left out")
        return nil
    }

    // MARK: - Rendering

    private mutating func render(_ request: ImportedRequest, method: String, label: String,
                                 inlineBody: Bool) -> Written? {
        var expected = RequestTemplate(id: RequestTemplateID(file: "", ordinal: 1), url: "")
        // The text after `###` loses its leading `#`s when read: a title keeps none.
        let title = request.title.map { String(DataSpelling.oneLine($0).drop { $0 == "#" }).trimmingBlanks } ?? ""
        var lines = [title.isEmpty ? "###" : "### " + title]
        if !title.isEmpty { expected.name = title }
        if let name = request.name.map(DataSpelling.oneLine), !name.isEmpty {
            // `# @name = x` reads as `x`: a name starting with `=` keeps it only after an explicit `=`.
            lines.append(name.hasPrefix("=") ? "# @name = \(name)" : "# @name \(name)")
            expected.name = name
        }
        for comment in request.comments { lines += DataSpelling.commentLines(comment) }
        for key in request.tags.keys.sorted() {
            guard DataSpelling.isVariableName(key), !key.contains("."), key != "name", key != "prompt" else {
                notes.append("\(label): tag '\(DataSpelling.oneLine(key))' left out")
                continue
            }
            let value = DataSpelling.oneLine(request.tags[key] ?? "")
            // `# @key = =x` reads as `=x`, as a name does.
            lines.append(value.isEmpty ? "# @\(key)" : value.hasPrefix("=") ? "# @\(key) = \(value)"
                                                                               : "# @\(key) \(value)")
            expected.tags[key] = value
        }
        var variableLines: [String] = []
        for variable in request.variables {
            guard let (line, definition) = variableLine(variable, label: label) else { continue }
            variableLines.append(line)
            expected.variables.append(definition)
        }
        var scripts: [RequestScript] = []
        var scriptLines: [String] = []
        for code in request.preRequestScripts {
            guard let block = scriptBlock(code, opening: "< {%", label: label) else { continue }
            scriptLines += block.lines
            scripts.append(block.script(.preRequest))
        }

        expected.method = HTTPMethod(method)
        expected.url = DataSpelling.url(request.url)
        var headerLines: [String] = []
        for header in request.headers {
            guard DataSpelling.isHeaderName(header.name) else {
                notes.append("\(label): header name '\(DataSpelling.oneLine(header.name))' is not an HTTP token; "
                             + "header left out")
                continue
            }
            // VS Code's marker would turn the request into a GraphQL one.
            guard !header.name.caseInsensitiveEquals(HTTPFileParser.graphQLRequestTypeHeader) else {
                notes.append("\(label): header \(header.name) would make it a GraphQL request; header left out")
                continue
            }
            let value = spelled(header.value, label: label, field: "header \(header.name)")
            headerLines.append("\(header.name): \(value)")
            expected.headers.add(header.name, value)
        }
        let contentType = request.headers.last { $0.name.caseInsensitiveEquals("Content-Type") }?.value.description
        guard let body = bodyPlan(request.body, contentType: contentType, inline: inlineBody, label: label) else {
            return nil
        }
        expected.body = body.template

        var responseLines: [String] = []
        for code in request.responseScripts {
            guard let block = scriptBlock(code, opening: "> {%", label: label) else { continue }
            responseLines += [""] + block.lines
            scripts.append(block.script(.response))
        }
        expected.scripts = scripts

        if usedBraceInThisRequest && definesBrace {
            variableLines.insert("@\(brace) = {", at: 0)
            expected.variables.insert(VariableDefinition(name: brace, value: "{"), at: 0)
        }
        lines += variableLines + scriptLines + ["\(method) \(expected.url)"]
        lines += request.disabledHeaders.map { "# disabled: " + DataSpelling.oneLine($0) }
        lines += headerLines
        if !body.lines.isEmpty { lines += [""] + body.lines }
        lines += responseLines
        usedBraceInThisRequest = false
        return Written(lines: lines, expected: expected)
    }

    /// Set while one request is rendered; `usedBrace` keeps it for the file.
    private var usedBraceInThisRequest = false

    /// `text` spelled for a value field, folded onto one line (noted when it had line breaks).
    mutating func spelled(_ text: ImportedText, label: String, field: String) -> String {
        let (value, escaped) = DataSpelling.spelled(text, brace: brace)
        if escaped { usedBraceInThisRequest = true; usedBrace = true }
        let (line, folded) = DataSpelling.folded(value)
        if folded { notes.append("\(label): \(field) had line breaks; each became a space") }
        return line
    }

    /// Marks `{{brace}}` as used by the request being rendered.
    mutating func noteBraceUse() {
        usedBraceInThisRequest = true
        usedBrace = true
    }

    private mutating func variableLine(_ variable: ImportedRequest.Field, label: String)
        -> (String, VariableDefinition)? {
        guard DataSpelling.isVariableName(variable.name) else {
            notes.append("\(label): variable '\(DataSpelling.oneLine(variable.name))' has characters .http names "
                         + "cannot hold; left out")
            return nil
        }
        let value = spelled(variable.value, label: label, field: "variable \(variable.name)")
        return ("@\(variable.name) = \(value)", VariableDefinition(name: variable.name, value: value))
    }

    /// A script's `{% %}` block, indented; nil (noted) when its code would end the block early or split
    /// the file.
    private mutating func scriptBlock(_ code: String, opening: String, label: String)
        -> (lines: [String], script: (RequestScript.Phase) -> RequestScript)? {
        let codeLines = code.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }
        let breaks = code.contains("%}") || code.unicodeScalars.contains { DataSpelling.isLineBreak($0) && $0 != "\n" }
            || codeLines.contains { $0.trimmingBlanks.hasPrefix("###") }
        guard !breaks else {
            notes.append("\(label): a script contains '%}', a '###' line or a line break other than a newline; "
                         + "script left out")
            return nil
        }
        let indented = codeLines.map { $0.trimmingBlanks.isEmpty ? "" : "    " + $0 }
        let source = "\n" + indented.joined(separator: "\n") + "\n"
        return ([opening] + indented + ["%}"], { RequestScript(phase: $0, source: .inline(source), line: 0) })
    }

    // MARK: - Reading back

    /// Whether the block parses back to exactly what it was written for, with no diagnostic at all.
    static func readsBack(_ written: Written) -> Bool {
        // A first line of its own, so the block is not the file's first (whose variables are the file's).
        let file = HTTPFile(path: "", text: (["# check"] + written.lines).joined(separator: "\n") + "\n")
        guard file.diagnostics.isEmpty, file.fileVariables.isEmpty, file.imports.isEmpty,
              file.requests.count == 1, let parsed = file.requests.first else { return false }
        let expected = written.expected
        return parsed.name == expected.name && parsed.kind == .http && parsed.method == expected.method
            && parsed.url == expected.url && parsed.httpVersion == nil && parsed.headers == expected.headers
            && parsed.body == expected.body && parsed.variables == expected.variables && parsed.tags == expected.tags
            && parsed.messages.isEmpty && parsed.unsupported.isEmpty && parsed.prompts.isEmpty && parsed.runs.isEmpty
            && parsed.scripts.map(\.phase) == expected.scripts.map(\.phase)
            && parsed.scripts.map(\.source) == expected.scripts.map(\.source)
    }
}
