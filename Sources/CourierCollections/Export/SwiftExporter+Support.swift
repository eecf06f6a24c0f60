import Foundation

/// The parts of exported Swift that do not depend on the request: the error enum, the one send function,
/// `JSONValue`, and the program `--main` adds.
extension SwiftExporter {
    static let apiError = [
        "/// What can go wrong calling the API, by what the caller does about it.",
        "enum APIError: Error {",
        "    /// No connection, or it timed out: offer a retry.",
        "    case offline(URLError)",
        "    /// Another transport failure (TLS, an unknown host): show it; retrying will not help.",
        "    case transport(URLError)",
        "    /// 401: the credentials are missing or expired; sign in again.",
        "    case unauthorized(body: Data)",
        "    /// Another status outside 200...299, with the server's body (its message, when it sent one).",
        "    case http(status: Int, body: Data)",
        "    /// The body does not match the models: a contract bug; the error names the coding path.",
        "    case decoding(any Error)",
        "    /// The task was cancelled: not an error to show.",
        "    case cancelled",
        "",
        "    /// Sorts what URLSession threw.",
        "    init(_ error: any Error) {",
        "        guard let error = error as? URLError else {",
        "            self = error is CancellationError ? .cancelled : .transport(URLError(.unknown))",
        "            return",
        "        }",
        "        switch error.code {",
        "        case .cancelled: self = .cancelled",
        "        case .notConnectedToInternet, .networkConnectionLost, .timedOut, .cannotConnectToHost,",
        "             .dnsLookupFailed, .dataNotAllowed, .internationalRoamingOff:",
        "            self = .offline(error)",
        "        default: self = .transport(error)",
        "        }",
        "    }",
        "}",
    ]

    static let send = [
        "/// Sends a request; its body when the status is 2xx, else the error by what to do about it.",
        "static func send(_ request: URLRequest, session: URLSession) async throws(APIError) -> Data {",
        "    let data: Data",
        "    let response: URLResponse",
        "    do {",
        "        (data, response) = try await session.data(for: request)",
        "    } catch {",
        "        throw APIError(error)",
        "    }",
        "    let status = (response as? HTTPURLResponse)?.statusCode ?? 0",
        "    switch status {",
        "    case 200..<300: return data",
        "    case 401: throw .unauthorized(body: data)",
        "    default: throw .http(status: status, body: data)",
        "    }",
        "}",
    ]

    static let jsonValue = [
        "/// Any JSON value: for a field whose values differ in type, or that was only ever null or empty.",
        "enum JSONValue: Codable, Sendable {",
        "    case string(String)",
        "    case number(Double)",
        "    case bool(Bool)",
        "    case object([String: JSONValue])",
        "    case array([JSONValue])",
        "    case null",
        "",
        "    init(from decoder: any Decoder) throws {",
        "        let container = try decoder.singleValueContainer()",
        "        if container.decodeNil() {",
        "            self = .null",
        "        } else if let value = try? container.decode(Bool.self) {",
        "            self = .bool(value)",
        "        } else if let value = try? container.decode(Double.self) {",
        "            self = .number(value)",
        "        } else if let value = try? container.decode(String.self) {",
        "            self = .string(value)",
        "        } else if let value = try? container.decode([JSONValue].self) {",
        "            self = .array(value)",
        "        } else {",
        "            self = .object(try container.decode([String: JSONValue].self))",
        "        }",
        "    }",
        "",
        "    func encode(to encoder: any Encoder) throws {",
        "        var container = encoder.singleValueContainer()",
        "        switch self {",
        "        case .string(let value): try container.encode(value)",
        "        case .number(let value): try container.encode(value)",
        "        case .bool(let value): try container.encode(value)",
        "        case .object(let value): try container.encode(value)",
        "        case .array(let value): try container.encode(value)",
        "        case .null: try container.encodeNil()",
        "        }",
        "    }",
        "}",
    ]

    /// Top-level code that sends the request once: secrets from the environment (named in the comment at
    /// the top), the body printed as received, or the decoded value dumped.
    static func mainCode(_ request: CodeRequest, name: String, models: SwiftModels?) -> [String] {
        var lines = ["// MARK: - The program: sends the request once and prints what came back."]
        for secret in request.secrets {
            lines.append("let \(secret.parameterName) = ProcessInfo.processInfo.environment["
                         + "\(SwiftLiteral.string(secret.environmentName))] ?? \"\"")
        }
        let arguments = request.secrets.map { "\($0.parameterName): \($0.parameterName)" }
            + (request.body.isFile ? ["body: body"] : [])
        lines.append("do {")
        if case .file(let path) = request.body {
            lines.append("    let body = try Data(contentsOf: URL(fileURLWithPath: \(SwiftLiteral.string(path))))")
        }
        lines.append("    let value = try await API.\(name)(\(arguments.joined(separator: ", ")))")
        lines.append(models == nil ? "    FileHandle.standardOutput.write(value)" : "    dump(value)")
        lines += ["} catch {",
                  "    FileHandle.standardError.write(Data(\"\\(error)\\n\".utf8))",
                  "    exit(1)",
                  "}"]
        return lines
    }
}
