import Foundation

/// A request as Kotlin with OkHttp 4. Bodies are bytes without a media type, so OkHttp adds no charset to
/// the Content-Type header the request sets itself. `--main` wraps it in `fun main()`.
enum KotlinExporter {
    /// Methods OkHttp refuses without a body.
    static let bodyRequired: Set<String> = ["POST", "PUT", "PATCH", "PROPPATCH", "REPORT"]

    static func code(_ request: CodeRequest, main: Bool) -> String {
        var imports: Set<String> = ["okhttp3.OkHttpClient", "okhttp3.Request"]
        var lines: [String] = []
        for secret in request.secrets {
            let name = secret.environmentName
            lines.append("val \(name) = System.getenv(\(string(name))) ?: error(\(string("Set \(name)")))")
        }
        var body = "null"
        switch request.body {
        case .none:
            if bodyRequired.contains(request.method) {
                imports.insert("okhttp3.RequestBody.Companion.toRequestBody")
                body = "ByteArray(0).toRequestBody()"
            }
        case .file(let path):
            imports.formUnion(["java.io.File", "okhttp3.RequestBody.Companion.asRequestBody"])
            lines.append("val body = File(\(string(path))).asRequestBody()")
            body = "body"
        case .content(let text):
            imports.insert("okhttp3.RequestBody.Companion.toRequestBody")
            lines.append("val body = \(bytes(text, request, imports: &imports)).toRequestBody()")
            body = "body"
        }
        lines.append("val request = Request.Builder()")
        lines.append("    .url(\(expression(request.url.whole, request, imports: &imports)))")
        lines.append("    .method(\(string(request.method)), \(body))")
        for header in request.headers {
            let value = expression(header.value, request, imports: &imports)
            lines.append("    .addHeader(\(string(header.name)), \(value))")
        }
        lines.append("    .build()")
        lines.append("OkHttpClient().newCall(request).execute().use { response ->")
        if main {
            lines += ["    System.out.write(response.body!!.bytes())", "    System.out.flush()",
                      "    if (!response.isSuccessful) kotlin.system.exitProcess(1)"]
        } else {
            lines += ["    if (!response.isSuccessful) error(\"HTTP ${response.code}\")",
                      "    val text = response.body!!.string()"]
        }
        lines.append("}")
        var out = request.introduction().map { "// " + $0 }
        out += [""] + imports.sorted().map { "import " + $0 } + [""]
        if main {
            out += ["fun main() {"] + CodeLines.indented(lines, by: "    ") + ["}"]
        } else {
            out += lines
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// A string expression: literals and the secrets' values joined with `+`, a line of code per line.
    static func expression(_ text: CodeText, _ request: CodeRequest, imports: inout Set<String>) -> String {
        let lines = text.lines().map { line in
            line.map { piece -> String in
                switch piece {
                case .text(let text): return string(text)
                case .bytes(let data): return string(String(decoding: data, as: UTF8.self))
                case .secret(let index, let encoded):
                    let name = request.secrets[index].environmentName
                    guard encoded else { return name }
                    imports.insert("java.net.URLEncoder")
                    // URLEncoder writes a space as "+" and keeps "*"; Courier sends %20 and %2A, and keeps "~".
                    return "URLEncoder.encode(\(name), \"UTF-8\").replace(\"+\", \"%20\").replace(\"*\", \"%2A\")"
                        + ".replace(\"%7E\", \"~\")"
                }
            }.joined(separator: " + ")
        }.filter { !$0.isEmpty }
        if lines.isEmpty { return "\"\"" }
        return lines.joined(separator: " +\n        ")
    }

    /// The body as a ByteArray expression: text as UTF-8, bytes from base64, secrets as their UTF-8.
    static func bytes(_ text: CodeText, _ request: CodeRequest, imports: inout Set<String>) -> String {
        guard text.isBinary else { return "(" + expression(text, request, imports: &imports) + ").toByteArray()" }
        imports.insert("java.util.Base64")
        return "(" + text.pieces.map { piece -> String in
            switch piece {
            case .text(let text): "\(string(text)).toByteArray()"
            case .bytes(let data): "Base64.getDecoder().decode(\"\(data.base64EncodedString())\")"
            case .secret(let index, _): "\(request.secrets[index].environmentName).toByteArray()"
            }
        }.joined(separator: " + ") + ")"
    }

    /// A double-quoted Kotlin string: `$` escaped so nothing is a template.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "$": result += "\\$"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where CodeEscaping.isInvisible(scalar):
                // Kotlin has only \uXXXX: a scalar beyond it is written as its UTF-16 pair.
                for unit in String(scalar).utf16 { result += String(format: "\\u%04x", unit) }
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
