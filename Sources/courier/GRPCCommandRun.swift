import CourierBody
import CourierGRPC
import CourierHTTP
import CourierMessage
import CourierSecurity
import Dispatch
import Foundation
import Synchronization

/// Runs one `courier grpc` command: loads the schema, then lists, describes or calls. Ctrl-C cancels a
/// call (its HTTP/2 stream is reset) and the command ends with status 130.
struct GRPCCommandRun: Sendable {
    let options: GRPCCommand.Options

    func run() -> Int32 {
        if options.call.insecure { Console.warnUnverified(because: "--insecure") }
        signal(SIGPIPE, SIG_IGN)
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            let result = await perform()
            outcome.code.withLock { $0 = result }
            done.signal()
        }
        let interrupts = InterruptWatch {
            outcome.interrupted.store(true, ordering: .relaxed)
            task.cancel()
        }
        done.wait()
        interrupts.stop()
        return outcome.interrupted.load(ordering: .relaxed) ? 130 : outcome.code.withLock { $0 }
    }

    /// The exit code, written by the command's task and read once it is done.
    private final class Outcome: Sendable {
        let code = Mutex<Int32>(1)
        let interrupted = Atomic(false)
    }

    private func perform() async -> Int32 {
        let transport = CurlTransport(configuration: .init(trustedCertificates: options.trustedCertificates))
        do {
            let (services, pool) = try await schema(transport)
            switch options.action {
            case "list": return try list(services: services, pool: pool)
            case "describe": return try describe(services: services, pool: pool)
            default: return try await call(transport: transport, pool: pool)
            }
        } catch let error as GRPCError {
            if case .transport(.cancelled) = error { return 130 }
            Console.fail(masked(error.description))
            return 1
        } catch {
            Console.fail(masked("\(error)"))
            return 1
        }
    }

    /// The services and descriptors: from --proto files, else from the server's reflection service.
    private func schema(_ transport: CurlTransport) async throws(GRPCError) -> ([String], DescriptorPool) {
        if !options.protoFiles.isEmpty {
            let pool = try DescriptorPool(files: try ProtoFiles.load(options.protoFiles,
                                                                     importPaths: options.importPaths))
            return (pool.services.map(\.fullName), pool)
        }
        var reflectionOptions = options.call
        reflectionOptions.timeout = reflectionOptions.timeout ?? .seconds(30)
        reflectionOptions.maxMessageSize = max(reflectionOptions.maxMessageSize, 64 << 20)
        let reflection = ServerReflection(transport: transport, target: options.target, options: reflectionOptions)
        // A call needs only its service's files; list and describe need every service.
        var symbols: [String]?
        if options.action == "call", let symbol = options.symbol { symbols = [Self.serviceName(of: symbol)] }
        return try await reflection.schema(for: symbols)
    }

    /// `package.Service` of `package.Service/Method` or `package.Service.Method`.
    static func serviceName(of method: String) -> String {
        var text = method.hasPrefix("/") ? String(method.dropFirst()) : method
        if let slash = text.lastIndex(of: "/") { return String(text[..<slash]) }
        if let dot = text.lastIndex(of: ".") { text = String(text[..<dot]) }
        return text
    }

    // MARK: list and describe

    private func list(services: [String], pool: DescriptorPool) throws(GRPCError) -> Int32 {
        var names = services
        if let symbol = options.symbol { names = try pool.service(symbol).methods.map(\.fullName) }
        if options.json {
            Console.out(JSONValue.object([(options.symbol == nil ? "services" : "methods",
                                           .array(names.map { .string($0) }))]).compactJSON)
        } else {
            for name in names { Console.out(name) }
        }
        return 0
    }

    private func describe(services: [String], pool: DescriptorPool) throws(GRPCError) -> Int32 {
        var entries: [(name: String, kind: String, text: String, template: JSONValue?)] = []
        if let symbol = options.symbol {
            if let service = try? pool.service(symbol) {
                entries.append((service.fullName, "service", SchemaText.describe(service), nil))
            } else if let method = try? pool.method(symbol) {
                entries.append((method.fullName, "method", SchemaText.signature(method) + "  // \(method.kind)",
                                MessageTemplate.json(for: method.inputType, pool: pool)))
            } else {
                let message = try pool.message(symbol)
                entries.append((message.fullName, "message", SchemaText.describe(message, pool: pool),
                                MessageTemplate.json(for: message.fullName, pool: pool)))
            }
        } else {
            for name in services {
                guard let service = try? pool.service(name) else { continue }
                entries.append((service.fullName, "service", SchemaText.describe(service), nil))
            }
        }
        for entry in entries {
            if options.json {
                var members: [(key: String, value: JSONValue)] = [("name", .string(entry.name)),
                                                                   ("kind", .string(entry.kind)),
                                                                   ("text", .string(entry.text))]
                if let template = entry.template { members.append(("template", template)) }
                Console.out(JSONValue.object(members).compactJSON)
            } else {
                Console.out(entry.text)
                if let template = entry.template {
                    Console.out("\nRequest template:\n" + Self.pretty(template))
                }
            }
        }
        return 0
    }

    // MARK: call

    private func call(transport: CurlTransport, pool: DescriptorPool) async throws -> Int32 {
        let method = try pool.method(options.symbol ?? "")
        if !method.clientStreaming && options.messages.count > 1 {
            throw GRPCError.invalidJSON(path: "--data", reason: "\(method.fullName) is \(method.kind): it takes one "
                                        + "message, not \(options.messages.count)")
        }
        let client = GRPCClient(transport: transport)
        let parts = try client.call(method, on: options.target, pool: pool,
                                    messages: options.messages.isEmpty ? ["{}"] : options.messages,
                                    options: options.call, retry: options.retry, idempotent: options.idempotent)
        var exit: Int32 = 1
        for try await part in parts {
            switch part {
            case .attempt(let attempt):
                if attempt > 1 && options.verbose { Console.error("attempt \(attempt)") }
            case .headers(let headers):
                if options.verbose { Console.error(masked(Self.headerLines("Response headers", headers))) }
            case .message(let json):
                Self.print(masked(options.json ? JSONValue.object([("message", json)]).compactJSON : Self.pretty(json)))
            case .end(let status, let trailers, let timing):
                exit = status.isOK ? 0 : 1
                if options.json {
                    var members: [(key: String, value: JSONValue)] = [
                        ("status", .string(status.code.name)), ("code", .number(String(status.rawCode))),
                        ("message", .string(status.message)),
                    ]
                    if let timing {
                        members.append(("time_ms", .number(String(format: "%.3f", timing.total.milliseconds))))
                    }
                    Self.print(masked(JSONValue.object(members).compactJSON))
                } else if !status.isOK {
                    Console.fail(masked("\(status.code.name)" + (status.message.isEmpty ? "" : ": \(status.message)")))
                }
                if options.verbose {
                    Console.error(masked(Self.headerLines("Response trailers", trailers)))
                    if let timing { Console.error("time: \(Self.duration(timing.total))") }
                }
            }
        }
        return exit
    }

    // MARK: Output

    /// One line on standard output, made terminal-safe as `Console.out` does. A reader that went away (`| head`)
    /// ends the command quietly: a stream that never ends is not an error to report.
    static func print(_ text: String) {
        let bytes = Array((Sanitizer.escaped(text) + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Foundation.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { exit(0) }
            offset += written
        }
    }

    private func masked(_ text: String) -> String {
        guard !options.showSecrets else { return text }
        let secrets = options.call.metadata.secretValues
        return secrets.isEmpty ? text : SecretMasker(secrets: secrets).mask(text)
    }

    private static func headerLines(_ title: String, _ headers: HTTPHeaders) -> String {
        ([title + ":"] + headers.redacted().map { "  \($0.name): \($0.value)" }).joined(separator: "\n")
    }

    static func pretty(_ json: JSONValue) -> String {
        let compact = Data(json.compactJSON.utf8)
        guard let formatted = PrettyJSONStream.format(compact) else { return json.compactJSON }
        return String(decoding: formatted.text, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    private static func duration(_ duration: Duration) -> String {
        let ms = duration.milliseconds
        return ms < 1000 ? String(format: "%.1f ms", ms) : String(format: "%.2f s", ms / 1000)
    }
}
