import Foundation

/// A request as an HTTPie (3.2+) command for a POSIX shell: secrets as `"$NAME"` expansions, the body
/// with `--raw` (binary bodies piped in from base64), a `< ./file` body redirected from the file.
enum HTTPieExporter {
    static func code(_ request: CodeRequest, main: Bool) -> String {
        var words = ["http"]
        if main { words += ["--check-status", "--body"] }
        var input: String?
        var raw: String?
        switch request.body {
        case .none:
            words.append("--ignore-stdin")
        case .file(let path):
            input = "< " + ShellWords.quote(path)
        case .content(let text) where text.isBinary:
            input = "{ " + text.pieces.map { piece -> String in
                switch piece {
                case .text(let text): "printf %s \(CurlExporter.quoteBody(text));"
                case .bytes(let data): "printf %s \(data.base64EncodedString()) | base64 -d;"
                case .secret(let index, _): "printf %s \"$\(request.secrets[index].environmentName)\";"
                }
            }.joined(separator: " ") + " }"
        case .content(let text):
            words.append("--ignore-stdin")
            raw = word(text, request)
        }
        // Secret query values become `name==value` items, which HTTPie encodes (an expansion in the URL
        // would not be).
        var url = request.url
        var items: [String] = []
        url.query.removeAll { item in
            guard let value = item.value, value.pieces.count == 1, case .secret(let index, true) = value.pieces[0]
            else { return false }
            let name = item.name.removingPercentEncoding ?? item.name
            items.append(word(CodeText.joined([.text(name + "=="), .secret(index, percentEncoded: false)]), request))
            return true
        }
        words += [ShellWords.quote(request.method), word(url.whole, request)]
        for header in request.headers {
            // `Name;` sends a header with an empty value; `Name:` would remove it.
            let item = header.value.isEmpty ? CodeText(header.name + ";")
                : CodeText.joined([.text(header.name + ":")] + header.value.pieces)
            words.append(word(item, request))
        }
        words += items
        if let raw { words += ["--raw", raw] }
        var out = request.introduction().map { "# " + $0 }
        let command = words.joined(separator: " \\\n  ")
        out.append(input.map { $0.hasPrefix("<") ? command + " \\\n  " + $0 : $0 + " |\n" + command } ?? command)
        return out.joined(separator: "\n") + "\n"
    }

    /// One shell word: quoted literals, and secrets as double-quoted expansions of their variables.
    static func word(_ text: CodeText, _ request: CodeRequest) -> String {
        let parts = text.pieces.map { piece -> String in
            switch piece {
            case .text(let text): CurlExporter.quoteBody(text)
            case .bytes(let data): CurlExporter.quoteBytes(data)
            case .secret(let index, _): "\"$\(request.secrets[index].environmentName)\""
            }
        }
        return parts.isEmpty ? "''" : parts.joined()
    }
}
