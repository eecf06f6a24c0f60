import Foundation

/// A request as Swift: URLSession async/await with URLComponents, status checked, errors sorted by what
/// the caller does about them, secrets as parameters; `Codable` models when given; `--main` adds top-level
/// code that runs it (secrets from the environment) and prints the body or the decoded value.
enum SwiftExporter {
    /// Names the `API` enum keeps for its own helpers.
    static let helperNames: Set<String> = ["send", "decoder", "percentEncoded"]

    static func code(_ request: CodeRequest, main: Bool, models: SwiftModels?) -> String {
        let name = functionName(request)
        var out = request.introduction(secretsAsParameters: true).map { "// " + $0 }
        out += ["import Foundation", "#if canImport(FoundationNetworking)", "import FoundationNetworking", "#endif", ""]
        if let models {
            out += ["// MARK: - Models, inferred from a response", "", models.declarations, ""]
            if models.usesJSONValue { out += jsonValue + [""] }
        }
        out += apiError + [""]
        out += ["/// The request, as Courier sends it.", "enum API {"]
        out += CodeLines.indented(requestBuilder(request, name: name), by: "    ")
        out += [""] + CodeLines.indented(sender(request, name: name, models: models), by: "    ")
        if let models {
            out += [""] + CodeLines.indented(decoder(models), by: "    ")
        }
        if request.url.whole.pieces.contains(where: { if case .secret(_, true) = $0 { true } else { false } }) {
            out += ["", "    /// Percent-encodes a value as Courier does: all but letters, digits and -._~.",
                    "    static func percentEncoded(_ value: String) -> String {",
                    "        let allowed = CharacterSet(charactersIn: "
                        + "\"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~\")",
                    "        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value",
                    "    }"]
        }
        out += [""] + CodeLines.indented(send, by: "    ") + ["}"]
        if main { out += [""] + mainCode(request, name: name, models: models) }
        return out.joined(separator: "\n") + "\n"
    }

    /// The function's name: the request's `# @name` in lowerCamelCase, or its method.
    static func functionName(_ request: CodeRequest) -> String {
        guard request.isNamed else { return request.method.lowercased() }
        var name = CodeNames.lowerCamel(request.name, fallback: "call")
        if name.first?.isNumber == true { name = "request" + CodeNames.upperCamel(name) }
        if SwiftNames.isKeyword(name) || helperNames.contains(name) { name += "Endpoint" }
        return name
    }

    /// `token: String, body: Data` for the secrets and a `< ./file` body.
    static func parameters(_ request: CodeRequest) -> [String] {
        var parameters = request.secrets.map { "\($0.parameterName): String" }
        if case .file = request.body { parameters.append("body: Data") }
        return parameters
    }

    static func requestBuilder(_ request: CodeRequest, name: String) -> [String] {
        let url = request.url
        var lines = ["/// '\(Sanitized.comment(request.name))' as a URLRequest.",
                     "static func \(name)Request(\(parameters(request).joined(separator: ", "))) -> URLRequest {",
                     "    var components = URLComponents()",
                     "    components.scheme = \(SwiftLiteral.string(url.scheme))"]
        func text(_ text: CodeText) -> String { SwiftLiteral.expression(text, request, indent: "    ") }
        if let user = url.user { lines.append("    components.percentEncodedUser = \(text(user))") }
        if let password = url.password { lines.append("    components.percentEncodedPassword = \(text(password))") }
        lines.append("    components.percentEncodedHost = \(text(url.host))")
        if let port = url.port { lines.append("    components.port = \(port)") }
        lines.append("    components.percentEncodedPath = \(text(url.path))")
        if url.hasQuery && url.query.isEmpty {
            lines.append("    components.percentEncodedQuery = \"\"")
        } else if url.hasQuery {
            // Percent-encoded as sent: URLComponents' own queryItems would leave a "+" that servers read as a space.
            lines.append("    components.percentEncodedQueryItems = [")
            for item in url.query {
                let value = item.value.map { SwiftLiteral.expression($0, request, indent: "        ") } ?? "nil"
                lines.append("        URLQueryItem(name: \(SwiftLiteral.string(item.name)), value: \(value)),")
            }
            lines.append("    ]")
        }
        lines += ["    // The parts of a URL Courier sent: they make a valid URL.",
                  "    var request = URLRequest(url: components.url!)",
                  "    request.httpMethod = \(SwiftLiteral.string(request.method))"]
        var set: Set<String> = []
        for header in request.headers {
            // The first value of a name replaces URLSession's own; the next ones are added to it.
            let verb = set.insert(header.name.lowercased()).inserted ? "setValue" : "addValue"
            let name = SwiftLiteral.string(header.name)
            lines.append("    request.\(verb)(\(text(header.value)), forHTTPHeaderField: \(name))")
        }
        switch request.body {
        case .none: break
        case .file: lines.append("    request.httpBody = body")
        case .content(let content) where content.isBinary:
            lines.append("    request.httpBody = \(SwiftLiteral.data(content, request))")
        case .content(let content):
            lines.append("    request.httpBody = Data(\(text(content)).utf8)")
        }
        return lines + ["    return request", "}"]
    }

    static func sender(_ request: CodeRequest, name: String, models: SwiftModels?) -> [String] {
        let arguments = request.secrets.map { "\($0.parameterName): \($0.parameterName)" }
            + (request.body.isFile ? ["body: body"] : [])
        let call = "\(name)Request(\(arguments.joined(separator: ", ")))"
        let signature = (parameters(request) + ["session: URLSession = .shared"]).joined(separator: ", ")
        guard let models else {
            return ["/// Sends '\(Sanitized.comment(request.name))'; its body when the status is 2xx.",
                    "static func \(name)(\(signature)) async throws(APIError) -> Data {",
                    "    try await send(\(call), session: session)",
                    "}"]
        }
        return ["/// Sends '\(Sanitized.comment(request.name))'; its body decoded when the status is 2xx.",
                "static func \(name)(\(signature)) async throws(APIError) -> \(models.rootType) {",
                "    let data = try await send(\(call), session: session)",
                "    do {",
                "        return try decoder.decode(\(models.rootType).self, from: data)",
                "    } catch {",
                "        throw .decoding(error)",
                "    }",
                "}"]
    }

    /// The decoder for the models: RFC 3339 dates, with fractional seconds when the response had them.
    static func decoder(_ models: SwiftModels) -> [String] {
        guard models.usesDates else {
            return ["/// The decoder for the models.", "static var decoder: JSONDecoder { JSONDecoder() }"]
        }
        guard models.fractionalSeconds else {
            return ["/// The decoder for the models: dates are RFC 3339 (ISO 8601) date-times.",
                    "static var decoder: JSONDecoder {",
                    "    let decoder = JSONDecoder()",
                    "    decoder.dateDecodingStrategy = .iso8601",
                    "    return decoder",
                    "}"]
        }
        return ["/// The decoder for the models: dates are RFC 3339 date-times, with or without fractional seconds.",
                "static var decoder: JSONDecoder {",
                "    let decoder = JSONDecoder()",
                "    decoder.dateDecodingStrategy = .custom { decoder in",
                "        let text = try decoder.singleValueContainer().decode(String.self)",
                "        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {",
                "            return date",
                "        }",
                "        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }",
                "        let context = DecodingError.Context(codingPath: decoder.codingPath,",
                "                                            debugDescription: \"not an RFC 3339 date-time: \\(text)\")",
                "        throw DecodingError.dataCorrupted(context)",
                "    }",
                "    return decoder",
                "}"]
    }
}

extension CodeRequest.Body {
    /// Whether the body is a file the code reads.
    var isFile: Bool { if case .file = self { true } else { false } }
}
