/// Bodies: in the block when every line reads back as body text, else in a side file beside the `.http`
/// file, referenced with `< ./file` (sent as it is) or `<@ ./file` (when it holds variables).
extension ImportBlock {
    /// The body's lines in the block and what they read back as.
    struct BodyPlan {
        var lines: [String]
        var template: BodyTemplate
    }

    /// How the Content-Type makes the resolver treat an inline body.
    private enum Kind {
        /// `&` lines join, every line is trimmed and blank ones dropped.
        case form
        /// Lines go out with CRLF and `< file` lines embed files.
        case multipart
        case other
    }

    /// The plan for `body`, kept in the block only when `inline` allows; nil (noted) when the request
    /// cannot be written.
    mutating func bodyPlan(_ body: ImportedBody, contentType: String?, inline: Bool, label: String) -> BodyPlan? {
        switch body {
        case .none:
            return BodyPlan(lines: [], template: .none)
        case .file(let path):
            guard let path = filePath(path, label: label, what: "body file") else { return nil }
            return BodyPlan(lines: ["< " + path], template: .file(path: path, substituteVariables: false))
        case .text(let given):
            guard !given.isEmpty else { return BodyPlan(lines: [], template: .none) }
            let type = contentType?.lowercased() ?? ""
            let kind: Kind = type.hasPrefix("application/x-www-form-urlencoded") ? .form
                : type.hasPrefix("multipart/") ? .multipart : .other
            let text = kind == .other && type.contains("json") ? given.jsonLineEnds : given
            let spelled = DataSpelling.spelled(text, brace: brace)
            if inline, Self.readsAsBody(spelled.text, kind: kind) {
                if spelled.escaped { noteBraceUse() }
                return BodyPlan(lines: Self.lines(spelled.text), template: .text(spelled.text))
            }
            let line = sideFile(text, extension: Self.fileExtension(type))
            return BodyPlan(lines: [line], template: BodyTemplate.fileReference(line) ?? .none)
        case .multipart(let boundary, let parts):
            var lines: [String] = []
            for part in parts {
                var head = ["--\(boundary)",
                            "Content-Disposition: form-data; name=\"\(DataSpelling.quotedParameter(part.name))\""
                                + (part.fileName.map { "; filename=\"\(DataSpelling.quotedParameter($0))\"" } ?? "")]
                if let type = part.contentType { head.append("Content-Type: " + DataSpelling.folded(type).text) }
                head.append("")
                switch part.value {
                case .file(let path):
                    guard let path = filePath(path, label: label, what: "file of part '\(part.name)'") else {
                        continue
                    }
                    lines += head + ["< " + path]
                case .text(let text):
                    let spelled = DataSpelling.spelled(text, brace: brace)
                    if inline, Self.readsAsPart(spelled.text) {
                        if spelled.escaped { noteBraceUse() }
                        lines += head + Self.lines(spelled.text)
                    } else {
                        lines += head + [sideFile(text, extension: "txt")]
                    }
                }
            }
            lines.append("--\(boundary)--")
            return BodyPlan(lines: lines, template: .text(lines.joined(separator: "\n")))
        }
    }

    /// Writes `text` to a side file; the line that references it.
    private mutating func sideFile(_ text: ImportedText, extension ext: String) -> String {
        // Data alone goes byte for byte and is sent as it is; with variables it is spelled as in the block
        // and substituted when sent.
        guard text.hasVariables else { return "< ./" + sideFiles.add(text.description, extension: ext) }
        let spelled = DataSpelling.spelled(text, brace: brace)
        if spelled.escaped { noteBraceUse() }
        return "<@ ./" + sideFiles.add(spelled.text, extension: ext)
    }

    /// A path on one line, or nil (noted) when it has line breaks or nothing in it.
    private mutating func filePath(_ path: ImportedText, label: String, what: String) -> String? {
        let spelled = DataSpelling.spelled(path, brace: brace)
        let line = spelled.text.trimmingBlanks
        guard !line.isEmpty, !line.unicodeScalars.contains(where: DataSpelling.isLineBreak) else {
            notes.append("\(label): the \(what) '\(DataSpelling.oneLine(path.description))' is not a path on one line; "
                         + (what == "body file" ? "request left out" : "part left out"))
            return nil
        }
        if spelled.escaped { noteBraceUse() }
        return line
    }

    // MARK: - What reads back as body text

    /// Whether `text`, written under the headers, reads back as exactly this body: no line the file reads
    /// as syntax (a `###` separator, a handler, `>>` redirect, `??` test or `<>` line, a `< file` reference),
    /// no line break but "\n", no trailing blank or comment line (both dropped when read), and for form and
    /// multipart bodies, whose lines the resolver joins or re-ends, a single line.
    private static func readsAsBody(_ text: String, kind: Kind) -> Bool {
        guard !text.unicodeScalars.contains(where: { DataSpelling.isLineBreak($0) && $0 != "\n" }) else { return false }
        let lines = lines(text)
        if kind != .other && (lines.count != 1 || text != text.trimmingBlanks) { return false }
        guard let last = lines.last?.trimmingBlanks, !last.isEmpty, HTTPFileParser.commentBody(last) == nil else {
            return false
        }
        return lines.allSatisfy { !isSyntax($0.trimmingBlanks) }
    }

    /// Whether a multipart text value can stand between its part's head and the next boundary.
    private static func readsAsPart(_ text: String) -> Bool {
        !text.unicodeScalars.contains { DataSpelling.isLineBreak($0) && $0 != "\n" }
            && lines(text).allSatisfy { !isSyntax($0.trimmingBlanks) }
    }

    private static func isSyntax(_ trimmed: String) -> Bool {
        trimmed.hasPrefix("###") || HTTPFileParser.isHandlerStart(trimmed) || trimmed.hasPrefix("<>")
            || BodyTemplate.fileReference(trimmed) != nil
    }

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The side file's extension, from the Content-Type.
    private static func fileExtension(_ type: String) -> String {
        if type.contains("json") { return "json" }
        if type.contains("xml") { return "xml" }
        if type.contains("html") { return "html" }
        return "txt"
    }
}
