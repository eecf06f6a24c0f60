import Foundation

/// A request as JavaScript `fetch` (Node 18+ and browsers): the exact URL, headers and body bytes Courier
/// sends. The snippet uses top-level `await`; `--main` wraps it in a function Node runs as a script.
enum JavaScriptExporter {
    static func code(_ request: CodeRequest, main: Bool) -> String {
        var out = request.introduction().map { "// " + $0 }
        var lines: [String] = []
        for secret in request.secrets {
            lines.append("const \(secret.environmentName) = process.env.\(secret.environmentName);")
        }
        let encodes = request.url.whole.pieces.contains { if case .secret(_, true) = $0 { true } else { false } }
        if encodes {
            lines += [
                "// Percent-encodes a value as Courier does: all but letters, digits and -._~.",
                "const encode = (value) => encodeURIComponent(value)",
                "  .replace(/[!'()*]/g, (c) => \"%\" + c.charCodeAt(0).toString(16).toUpperCase());",
            ]
        }
        if case .file = request.body {
            lines.append("const { readFile } = await import(\"node:fs/promises\");")
        }
        if !lines.isEmpty { lines.append("") }
        lines.append("const response = await fetch(\(expression(request.url.whole, request)), {")
        lines.append("  method: \(string(request.method)),")
        if !request.headers.isEmpty {
            let names = request.headers.map { $0.name.lowercased() }
            if Set(names).count == names.count {
                lines.append("  headers: {")
                for header in request.headers {
                    lines.append("    \(string(header.name)): \(headerValue(header.value, request)),")
                }
                lines.append("  },")
            } else {
                // Pairs, so a name given twice is sent twice.
                lines.append("  headers: [")
                for header in request.headers {
                    lines.append("    [\(string(header.name)), \(headerValue(header.value, request))],")
                }
                lines.append("  ],")
            }
        }
        switch request.body {
        case .none:
            break
        case .file(let path):
            lines.append("  body: await readFile(\(string(path))),")
        case .content(let text) where text.isBinary:
            lines.append("  body: new Blob([\(blobParts(text, request))]),")
        case .content(let text) where request.hasHeader("Content-Type"):
            lines.append("  body: \(expression(text, request)),")
        case .content(let text):
            // A string body would be sent with a text/plain Content-Type the request does not have.
            lines.append("  body: new Blob([\(expression(text, request))]),")
        }
        lines.append("});")
        if main {
            lines += ["process.stdout.write(new Uint8Array(await response.arrayBuffer()));",
                      "if (!response.ok) process.exitCode = 1;"]
            out += ["", "async function main() {"] + CodeLines.indented(lines, by: "  ") + ["}", ""]
            out += ["main().catch((error) => {", "  console.error(error);", "  process.exit(1);", "});"]
        } else {
            lines.append("if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);")
            out += [""] + lines
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// A string expression: literals and the secrets' constants joined with `+`, a line of code per line.
    static func expression(_ text: CodeText, _ request: CodeRequest) -> String {
        let lines = text.lines().map { line in
            line.map { piece -> String in
                switch piece {
                case .text(let text): return string(text)
                case .bytes(let data): return string(String(decoding: data, as: UTF8.self))
                case .secret(let index, let encoded):
                    let name = request.secrets[index].environmentName
                    return encoded ? "encode(\(name))" : name
                }
            }.joined(separator: " + ")
        }.filter { !$0.isEmpty }
        if lines.isEmpty { return "\"\"" }
        return lines.joined(separator: " +\n    ")
    }

    /// A header value: fetch takes each character as one byte, so non-ASCII text goes as its UTF-8 bytes
    /// spelled as Latin-1 characters (what Courier sends).
    static func headerValue(_ text: CodeText, _ request: CodeRequest) -> String {
        let value = expression(text, request)
        return text.isASCII ? value : "Buffer.from(\(value), \"utf8\").toString(\"latin1\")"
    }

    /// The parts of a binary body's Blob: bytes decoded from base64, secrets as their text.
    static func blobParts(_ text: CodeText, _ request: CodeRequest) -> String {
        text.pieces.map { piece -> String in
            switch piece {
            case .text(let text): string(text)
            case .bytes(let data):
                "Uint8Array.from(atob(\"\(data.base64EncodedString())\"), (c) => c.charCodeAt(0))"
            case .secret(let index, _): request.secrets[index].environmentName
            }
        }.joined(separator: ", ")
    }

    /// A double-quoted JavaScript string.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where CodeEscaping.isInvisible(scalar): result += String(format: "\\u{%x}", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
