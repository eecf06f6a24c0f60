import Foundation

/// Swift string and data literals for exported text, secrets interpolated as the parameters that hold them.
enum SwiftLiteral {
    /// A one-line string literal.
    static func string(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { escaped($0, multiline: false) }.joined() + "\""
    }

    /// The text as a String expression: a `"…"` literal, or a `"""` literal when it has several lines, with
    /// `\(parameter)` for each secret. `indent` is the indentation of the line the expression starts on.
    static func expression(_ text: CodeText, _ request: CodeRequest, indent: String) -> String {
        let multiline = text.pieces.contains { if case .text(let text) = $0 { text.contains("\n") } else { false } }
        var lines = [""]
        for piece in text.pieces {
            switch piece {
            case .text(let text):
                var quotes = 0
                for scalar in text.unicodeScalars {
                    if multiline && scalar == "\n" {
                        lines.append("")
                        quotes = 0
                        continue
                    }
                    var written = escaped(scalar, multiline: multiline)
                    // In a """ literal only a third quote in a row needs escaping.
                    quotes = scalar == "\"" ? quotes + 1 : 0
                    if multiline && quotes == 3 {
                        written = "\\\""
                        quotes = 0
                    }
                    lines[lines.count - 1] += written
                }
            case .bytes(let data):
                lines[lines.count - 1] += String(decoding: data, as: UTF8.self).unicodeScalars
                    .map { escaped($0, multiline: false) }.joined()
            case .secret(let index, let encoded):
                let name = request.secrets[index].parameterName
                lines[lines.count - 1] += encoded ? "\\(percentEncoded(\(name)))" : "\\(\(name))"
            }
        }
        guard multiline else { return "\"" + lines[0] + "\"" }
        let inner = indent + "    "
        // A space ending a line is escaped: editors that trim trailing spaces would change the body.
        let body = lines.map { line in
            guard !line.isEmpty else { return "" }
            return inner + (line.hasSuffix(" ") ? String(line.dropLast()) + "\\u{20}" : line)
        }
        return "\"\"\"\n" + body.joined(separator: "\n") + "\n" + inner + "\"\"\""
    }

    /// A binary body as a Data expression: its bytes from base64, secrets as their UTF-8.
    static func data(_ text: CodeText, _ request: CodeRequest) -> String {
        let parts = text.pieces.map { piece -> String in
            switch piece {
            case .text(let text): "Data(\(string(text)).utf8)"
            // The base64 is Courier's own: it decodes.
            case .bytes(let data): "Data(base64Encoded: \"\(data.base64EncodedString())\")!"
            case .secret(let index, _): "Data(\(request.secrets[index].parameterName).utf8)"
            }
        }
        return parts.count == 1 ? parts[0] : "Data([" + parts.joined(separator: ", ") + "].joined())"
    }

    /// One scalar as written inside a literal.
    static func escaped(_ scalar: Unicode.Scalar, multiline: Bool) -> String {
        switch scalar {
        case "\\": return "\\\\"
        case "\"": return multiline ? "\"" : "\\\""
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\0": return "\\0"
        case _ where CodeEscaping.isInvisible(scalar): return "\\u{\(String(scalar.value, radix: 16))}"
        default: return String(scalar)
        }
    }
}
