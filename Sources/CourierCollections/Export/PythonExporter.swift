import Foundation

/// A request as Python with `requests`: the exact URL, headers and body bytes Courier sends.
enum PythonExporter {
    static func code(_ request: CodeRequest, main: Bool) -> String {
        var out = request.introduction().map { "# " + $0 }
        let encodes = request.url.whole.pieces.contains { if case .secret(_, true) = $0 { true } else { false } }
        var imports: [String] = []
        if !request.secrets.isEmpty { imports.append("import os") }
        if main { imports.append("import sys") }
        if encodes { imports.append("from urllib.parse import quote") }
        out += [""] + imports + (imports.isEmpty ? [] : [""])
        out += ["import requests", ""]
        for secret in request.secrets {
            out.append("\(secret.environmentName) = os.environ[\(string(secret.environmentName))]")
        }
        if !request.secrets.isEmpty { out.append("") }
        out.append("url = " + expression(request.url.whole, request))
        var arguments = [string(request.method), "url"]
        if !request.headers.isEmpty {
            out.append("headers = {")
            for (name, value) in merged(request.headers) {
                // requests sends a str header value as Latin-1; bytes go as they are (UTF-8, as Courier sends).
                let rendered = expression(value, request)
                out.append("    \(string(name)): \(value.isASCII ? rendered : "(" + rendered + ").encode()"),")
            }
            out.append("}")
            arguments.append("headers=headers")
        }
        switch request.body {
        case .none:
            break
        case .file(let path):
            out += ["with open(\(string(path)), \"rb\") as file:", "    body = file.read()"]
            arguments.append("data=body")
        case .content(let text):
            // Bytes, so requests sends them as they are (a str would be encoded as Latin-1).
            let value = expression(text, request)
            let encoded = value.hasPrefix("(") ? value + ".encode()" : "(" + value + ").encode()"
            out.append("body = " + (text.isBinary ? value : encoded))
            arguments.append("data=body")
        }
        out += ["", "response = requests.request(\(arguments.joined(separator: ", ")))"]
        if main {
            out += ["sys.stdout.buffer.write(response.content)", "sys.exit(0 if response.ok else 1)"]
        } else {
            out.append("response.raise_for_status()")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Headers of one name joined into one value (a dict holds one), with ", " as HTTP allows.
    static func merged(_ headers: [CodeRequest.Header]) -> [(String, CodeText)] {
        var result: [(String, CodeText)] = []
        for header in headers {
            if let index = result.firstIndex(where: { $0.0.lowercased() == header.name.lowercased() }) {
                let separator = header.name.lowercased() == "cookie" ? "; " : ", "
                result[index].1 = CodeText.joined(result[index].1.pieces + [.text(separator)] + header.value.pieces)
            } else {
                result.append((header.name, header.value))
            }
        }
        return result
    }

    /// The text as a Python expression: string literals (bytes literals for a binary text) and the
    /// secrets' variables, one line of the text per line of code.
    static func expression(_ text: CodeText, _ request: CodeRequest) -> String {
        let binary = text.isBinary
        let lines = text.lines().map { line in
            line.map { piece -> String in
                switch piece {
                case .text(let text): binary ? bytes(Data(text.utf8)) : string(text)
                case .bytes(let data): bytes(data)
                case .secret(let index, let encoded):
                    encoded ? "quote(\(request.secrets[index].environmentName), safe=\"\")"
                        : request.secrets[index].environmentName + (binary ? ".encode()" : "")
                }
            }.joined(separator: " + ")
        }.filter { !$0.isEmpty }
        if lines.isEmpty { return binary ? "b\"\"" : "\"\"" }
        if lines.count == 1 { return lines[0] }
        return "(\n    " + lines.joined(separator: "\n    + ") + "\n)"
    }

    /// A double-quoted Python string.
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
                result += scalar.value < 0x100 ? String(format: "\\x%02x", scalar.value)
                    : scalar.value < 0x10000 ? String(format: "\\u%04x", scalar.value)
                    : String(format: "\\U%08x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A Python bytes literal: printable ASCII as is, everything else escaped.
    static func bytes(_ data: Data) -> String {
        let named: [UInt8: String] = [0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"]
        return "b\"" + CodeEscaping.hexEscaped(data, quote: "\"", named: named) + "\""
    }
}
