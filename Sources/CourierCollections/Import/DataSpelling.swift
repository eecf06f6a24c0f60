import CourierHTTP
import CourierSecurity

/// How data is spelled in each field of a `.http` file so that it reads back as the same data and never
/// as syntax: names and comments on one line, URLs percent-encoded, header names as HTTP tokens, values on
/// one line, and a `{` that would open a variable written as the variable `{{lbrace}}` (whose value is `{`),
/// since the format has no escape of its own outside URLs.
enum DataSpelling {
    /// Scalars that end a line in some editor or tool, though Courier's parser splits only at "\n": a file
    /// another tool reads must not find a line there either.
    static let lineBreaks: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]

    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool { lineBreaks.contains(scalar.value) }

    // MARK: One line

    /// A name, title, tag value or comment line: one line (line breaks folded into spaces, tabs as spaces)
    /// with every other control shown as the sanitiser's visible symbol, and no blanks at either end.
    static func oneLine(_ text: String) -> String {
        var out = ""
        for scalar in folded(text).text.unicodeScalars {
            if scalar == "\t" {
                out += " "
            } else if Sanitizer.isDangerous(scalar, keepingLayout: false) {
                out.append(contentsOf: Sanitizer.visible(Character(scalar)))
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out.trimmingBlanks
    }

    /// Comment lines for `text` (one per line of it): `# ` and the line, with a leading `@` escaped so that
    /// a description such as `@insecure` never becomes a tag.
    static func commentLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if isLineBreak(scalar) {
                lines.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        return lines.map { line in
            let flat = oneLine(line)
            if flat.isEmpty { return "#" }
            return "# " + (flat.hasPrefix("@") ? "\\" + flat : flat)
        }
    }

    // MARK: Fields with variables

    /// Text for a value field (a header value, a variable's value, a body line): variables as `{{name}}`,
    /// and every data `{` followed by another `{` (or by a variable) written as `{{brace}}`, so that no
    /// data reads as a variable. `escaped` says whether `{{brace}}` was used.
    static func spelled(_ text: ImportedText, brace: String) -> (text: String, escaped: Bool) {
        var out = ""
        var escaped = false
        for (index, piece) in text.pieces.enumerated() {
            switch piece {
            case .variable(let name):
                out += "{{\(name)}}"
            case .data(let data):
                let scalars = Array(data.unicodeScalars)
                let variableNext = index + 1 < text.pieces.count
                for (position, scalar) in scalars.enumerated() {
                    let opensVariable = scalar == "{"
                        && (position + 1 < scalars.count ? scalars[position + 1] == "{" : variableNext)
                    if opensVariable {
                        out += "{{\(brace)}}"
                        escaped = true
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        return (out, escaped)
    }

    /// A URL for the request line: data percent-encoded where the URL builder would encode it anyway
    /// (spaces, braces, line breaks, non-ASCII; `%XX` kept), so the request sends the same bytes, and
    /// variables as `{{name}}`. The JetBrains client documents `%7B` as the way to write a literal brace.
    static func url(_ text: ImportedText) -> String {
        text.pieces.map { piece in
            switch piece {
            case .data(let data): URLBuilder.encode(data, allowed: URLBuilder.allowedLiteral)
            case .variable(let name): "{{\(name)}}"
            }
        }.joined()
    }

    /// A value folded onto one line: each run of line breaks, with the blanks around it, becomes one space
    /// (as HTTP folds an obsolete line fold); blanks at both ends go. `folded` says whether a break was met.
    static func folded(_ text: String) -> (text: String, folded: Bool) {
        guard text.unicodeScalars.contains(where: isLineBreak) else { return (text.trimmingBlanks, false) }
        var out = ""
        var pendingBreak = false
        for scalar in text.unicodeScalars {
            if isLineBreak(scalar) {
                pendingBreak = true
                while out.hasSuffix(" ") || out.hasSuffix("\t") { out.removeLast() }
                continue
            }
            if pendingBreak {
                if scalar == " " || scalar == "\t" { continue }
                out += " "
                pendingBreak = false
            }
            out.unicodeScalars.append(scalar)
        }
        return (out.trimmingBlanks, true)
    }

    // MARK: Names

    /// RFC 9110 `tchar`: what a header name may hold.
    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".unicodeScalars)

    /// Whether `name` can be a header line's name: an HTTP token that starts neither a comment (`#`) nor a
    /// URL continuation (`&`).
    static func isHeaderName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "#", first != "&" else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                               || tokenPunctuation.contains(scalar))
        }
    }

    /// Whether `name` can follow `@` in `@name = value`.
    static func isVariableName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy(HTTPFileParser.isVariableNameCharacter)
    }

    /// The method for the request line in capitals, or nil when the request line would not read it back
    /// as a plain HTTP method (letters only; not a word that makes another kind of request).
    static func method(_ method: String) -> String? {
        let upper = method.uppercased()
        guard !upper.isEmpty, upper.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }),
              upper != HTTPFileParser.webSocketMethod, upper != HTTPFileParser.graphQLMethod else { return nil }
        return upper
    }

    /// A multipart `name` or `filename` parameter inside its quotes: `"` and line breaks percent-encoded,
    /// as HTML forms send them (RFC 7578, section 4.2).
    static func quotedParameter(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || isLineBreak(scalar) {
                for byte in String(scalar).utf8 { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

private extension String {
    /// Two hex digits.
    var leftPadded: String { count < 2 ? "0" + self : self }
}
