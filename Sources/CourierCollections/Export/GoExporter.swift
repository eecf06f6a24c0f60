import Foundation

/// A request as Go with `net/http`. Header names are set as written (not canonicalised) and bodies are
/// Go strings, which hold any bytes. `--main` makes a `package main` program.
enum GoExporter {
    static func code(_ request: CodeRequest, main: Bool) -> String {
        var imports: Set<String> = ["log", "net/http"]
        var lines: [String] = []
        for secret in request.secrets {
            lines.append("\(secret.environmentName) := os.Getenv(\(string(secret.environmentName)))")
            imports.insert("os")
        }
        var body = "nil"
        switch request.body {
        case .none:
            break
        case .file(let path):
            imports.insert("os")
            lines += ["body, err := os.Open(\(string(path)))", "if err != nil {", "\tlog.Fatal(err)", "}",
                      "defer body.Close()"]
            body = "body"
        case .content(let text):
            imports.insert("strings")
            lines.append("body := strings.NewReader(\(expression(text, request, imports: &imports)))")
            body = "body"
        }
        let url = expression(request.url.whole, request, imports: &imports)
        // `:=` also after `body, err :=`: req is new, err is reused.
        lines.append("req, err := http.NewRequest(\(string(request.method)), \(url), \(body))")
        lines += ["if err != nil {", "\tlog.Fatal(err)", "}"]
        for (name, values) in grouped(request.headers) {
            let rendered = values.map { expression($0, request, imports: &imports) }.joined(separator: ", ")
            lines.append("req.Header[\(string(name))] = []string{\(rendered)}")
        }
        lines += ["resp, err := http.DefaultClient.Do(req)", "if err != nil {", "\tlog.Fatal(err)", "}",
                  "defer resp.Body.Close()"]
        var out = request.introduction().map { "// " + $0 }
        if main {
            imports.formUnion(["io", "os"])
            lines += ["if _, err := io.Copy(os.Stdout, resp.Body); err != nil {", "\tlog.Fatal(err)", "}",
                      "if resp.StatusCode >= 400 {", "\tos.Exit(1)", "}"]
            out += ["", "package main", "", "import ("] + imports.sorted().map { "\t" + string($0) } + [")", ""]
            out += ["func main() {"] + CodeLines.indented(lines, by: "\t") + ["}"]
        } else {
            lines.append("if resp.StatusCode >= 400 {")
            lines.append("\tlog.Fatalf(\"HTTP %d\", resp.StatusCode)")
            lines.append("}")
            out += ["// Imports: " + imports.sorted().joined(separator: ", "), ""] + lines
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Headers by name as written, in first-seen order, each with its values.
    static func grouped(_ headers: [CodeRequest.Header]) -> [(String, [CodeText])] {
        var result: [(String, [CodeText])] = []
        for header in headers {
            if let index = result.firstIndex(where: { $0.0 == header.name }) {
                result[index].1.append(header.value)
            } else {
                result.append((header.name, [header.value]))
            }
        }
        return result
    }

    /// A string expression: literals and the secrets' variables joined with `+`, a line of code per line.
    static func expression(_ text: CodeText, _ request: CodeRequest, imports: inout Set<String>) -> String {
        var encodes = false
        let lines = text.lines().map { line in
            line.map { piece -> String in
                switch piece {
                case .text(let text): return string(text)
                case .bytes(let data): return bytes(data)
                case .secret(let index, let encoded):
                    let name = request.secrets[index].environmentName
                    guard encoded else { return name }
                    encodes = true
                    // QueryEscape writes a space as "+"; Courier sends %20.
                    return "strings.ReplaceAll(url.QueryEscape(\(name)), \"+\", \"%20\")"
                }
            }.joined(separator: " + ")
        }.filter { !$0.isEmpty }
        if encodes { imports.formUnion(["net/url", "strings"]) }
        if lines.isEmpty { return "\"\"" }
        return lines.joined(separator: " +\n\t")
    }

    /// A double-quoted Go string.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where CodeEscaping.isInvisible(scalar):
                result += scalar.value < 0x10000 ? String(format: "\\u%04x", scalar.value)
                    : String(format: "\\U%08x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Bytes as a Go string: printable ASCII as is, every other byte as `\xHH`.
    static func bytes(_ data: Data) -> String {
        "\"" + CodeEscaping.hexEscaped(data, quote: "\"") + "\""
    }
}
