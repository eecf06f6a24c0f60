import CourierGRPC
import CourierHTTP
import Foundation

/// `courier grpc list|describe|call HOST [METHOD]`: gRPC in grpcurl's shape, with schemas from server
/// reflection or from `.proto` files (`--proto`).
enum GRPCCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "grpc", summary: "List, describe and call gRPC services (reflection or .proto files).",
        overview: "Call gRPC methods with JSON messages; the schema comes from server reflection or --proto files.",
        discussion: """
            HOST is host:port (HTTP/2 in clear text, h2c) or grpcs://host:port (TLS; https:// too). METHOD is
            package.Service/Method (package.Service.Method also works). Messages are JSON in the proto3 JSON
            mapping: field names in lowerCamelCase or as written in the .proto file, enums by name, 64-bit
            integers as strings, bytes as base64, Timestamp and Duration as text.
            """,
        arguments: [
            ArgumentSpec("HOST", help: "The server: host:port, or grpcs://host:port for TLS."),
            ArgumentSpec("METHOD|SYMBOL", optional: true,
                         help: "call: the method; describe: a service, method or message (default: every service)."),
        ],
        options: [
            .option("--data", short: "d", "JSON", repeatable: true,
                    help: "The request message; several JSON values (or several -d) are a client stream. "
                        + "@FILE reads a file, @- standard input. Default: {}."),
            .option("--header", short: "H", "'Name: value'", repeatable: true, help: "Add request metadata."),
            .option("--proto", "FILE", .file, repeatable: true,
                    help: "Read the schema from a .proto file (through protoc) or a descriptor set (.pb, "
                        + ".protoset) instead of server reflection."),
            .option("--import-path", short: "I", "DIR", .directory, repeatable: true,
                    help: "A folder --proto files import from (besides each file's own)."),
            .option("--timeout", "SECONDS", .number, help: "The call's deadline, sent as grpc-timeout."),
            .option("--max-message-size", "BYTES", .number, default: "4194304",
                    help: "The largest response message accepted."),
            .option("--retry", "N", .number, default: "3",
                    help: "Attempts for an idempotent method on UNAVAILABLE or DEADLINE_EXCEEDED (and for any "
                        + "method when the connection could not be made); 1 tries once."),
            .flag("--idempotent", help: "Treat the method as idempotent (retried as above) whatever its options say."),
            .flag("--gzip", help: "Compress request messages with gzip (grpc-encoding)."),
            .flag("--verbose", short: "v", help: "Also print response headers, trailers and timings (standard error)."),
            .flag("--insecure", short: "k", help: "Do not verify the server's TLS certificate."),
            .option("--cacert", "FILE", .file,
                    help: "Verify the server's TLS certificate against the PEM certificates in FILE."),
        ] + ClientCertificateOptions.specs + [
            .flag("--json", help: "One JSON object per line: each message, then the status."),
            .flag("--show-secrets", help: "Print credential metadata in -v output instead of REDACTED."),
        ],
        subcommands: [
            SubcommandSpec("list", arguments: "HOST [SERVICE]", options: ["--proto", "--header", "--json"],
                           summary: "The services (or one service's methods)."),
            SubcommandSpec("describe", arguments: "HOST [SYMBOL]", options: ["--proto", "--header", "--json"],
                           summary: "A service, method or message as .proto text, with a JSON template of a "
                               + "method's request."),
            SubcommandSpec("call", arguments: "HOST METHOD",
                           options: ["--data", "--header", "--proto", "--json"],
                           summary: "Call a method: unary or streaming; replies print as they arrive."),
        ],
        notes: """
            EXIT CODES: 0 when the call ended with status OK; 1 for any other status or a failed connection;
            2 for usage errors.
            """)

    /// What the command line asked for.
    struct Options: Sendable {
        var action: String
        var target: GRPCTarget
        var symbol: String?
        var messages: [String]
        var protoFiles: [URL]
        var importPaths: [URL]
        var call: GRPCCallOptions
        var retry: GRPCRetryPolicy
        var idempotent: Bool?
        var json: Bool
        var verbose: Bool
        var showSecrets: Bool
        var trustedCertificates: URL?
    }

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments) { args throws(UsageError) in GRPCCommandRun(options: try parse(args)).run() }
    }

    static func parse(_ args: ParsedArguments) throws(UsageError) -> Options {
        let positionals = args.positionals
        guard let action = positionals.first else {
            throw UsageError("say what to do: list HOST, describe HOST [SYMBOL] or call HOST METHOD", command: "grpc")
        }
        guard ["list", "describe", "call"].contains(action) else {
            throw UsageError("unknown action '\(action)'; use list, describe or call", command: "grpc")
        }
        guard positionals.count >= 2 else {
            throw UsageError("\(action) needs HOST, e.g. courier grpc \(action) localhost:50051", command: "grpc")
        }
        guard positionals.count <= 3 else {
            throw UsageError("unexpected argument '\(positionals[3])'", command: "grpc")
        }
        let target: GRPCTarget
        do {
            target = try GRPCTarget(positionals[1])
        } catch {
            throw UsageError("\(error)", command: "grpc")
        }
        let symbol = positionals.count == 3 ? positionals[2] : nil
        if action == "call" && symbol == nil {
            throw UsageError("call needs METHOD, e.g. courier grpc call \(positionals[1]) package.Service/Method",
                             command: "grpc")
        }
        var messages: [String] = []
        for data in args.values("--data") {
            messages += JSONSequence.split(try readData(data))
        }
        var call = GRPCCallOptions(metadata: try args.headers(), insecure: args.flag("--insecure"),
                                   clientCertificate: try args.clientCertificate())
        if let timeout = args.number("--timeout") {
            guard timeout > 0 else { throw UsageError("--timeout takes a number of seconds above 0", command: "grpc") }
            call.timeout = .milliseconds(Int64((timeout * 1000).rounded(.up)))
        }
        if let size = args.number("--max-message-size") {
            guard size >= 1, size == size.rounded(), size <= Double(Int32.max) else {
                throw UsageError("--max-message-size takes a whole number of bytes", command: "grpc")
            }
            call.maxMessageSize = Int(size)
        }
        call.compressRequests = args.flag("--gzip")
        var retry = GRPCRetryPolicy.standard
        if let attempts = args.number("--retry") {
            guard attempts >= 1, attempts == attempts.rounded(), attempts <= 10 else {
                throw UsageError("--retry takes a whole number of attempts from 1 to 10", command: "grpc")
            }
            retry.maxAttempts = Int(attempts)
        }
        for path in args.values("--proto") where !FileManager.default.isReadableFile(atPath: path) {
            throw UsageError("--proto: cannot read '\(path)'", command: "grpc")
        }
        return Options(action: action, target: target, symbol: symbol, messages: messages,
                       protoFiles: args.values("--proto").map { URL(fileURLWithPath: $0) },
                       importPaths: args.values("--import-path").map { URL(fileURLWithPath: $0, isDirectory: true) },
                       call: call, retry: retry, idempotent: args.flag("--idempotent") ? true : nil,
                       json: args.flag("--json"), verbose: args.flag("--verbose"),
                       showSecrets: args.flag("--show-secrets"), trustedCertificates: try args.certificateFile())
    }

    /// A `-d` value: the JSON itself, `@FILE` or `@-` (standard input).
    private static func readData(_ value: String) throws(UsageError) -> String {
        guard value.hasPrefix("@") else { return value }
        let path = String(value.dropFirst())
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else { throw UsageError("--data: cannot read '\(path)'", command: "grpc") }
        return String(decoding: data, as: UTF8.self)
    }
}
