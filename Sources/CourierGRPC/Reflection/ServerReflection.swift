import CourierHTTP
import Foundation

/// A client of gRPC server reflection (`grpc.reflection.v1.ServerReflection/ServerReflectionInfo`, and
/// `v1alpha` for servers that only have the older one): one bidirectional stream on which it asks for the
/// service list and for the files that define symbols, then for every file those depend on until none is
/// missing. Bounded: at most `fileLimit` files, each asked for once, so files that import each other end.
public struct ServerReflection: Sendable {
    /// The reflection services, in the order they are tried: v1alpha first, which every reflecting server
    /// has had for years (grpcio serves only it), then v1.
    public static let serviceNames = ["grpc.reflection.v1alpha.ServerReflection", "grpc.reflection.v1.ServerReflection"]
    /// More files than this is not a schema but a hostile or broken server.
    public static let fileLimit = 2000

    public let transport: CurlTransport
    public let target: GRPCTarget
    public let options: GRPCCallOptions

    public init(transport: CurlTransport, target: GRPCTarget, options: GRPCCallOptions) {
        self.transport = transport
        self.target = target
        self.options = options
    }

    /// What the server says it serves, and the descriptors of `symbols` (every listed service when nil).
    /// The questions go in rounds, each a stream of its own whose requests are all sent before the
    /// answers are read (see `HTTPStream` on Debian's libcurl): the list and the wanted symbols, then the
    /// files those import, and so on until no file is missing.
    public func schema(for symbols: [String]? = nil) async throws(GRPCError)
        -> (services: [String], pool: DescriptorPool) {
        var lastError: GRPCError?
        for service in Self.serviceNames {
            do {
                return try await schema(for: symbols, service: service)
            } catch {
                // A server without this version answers UNIMPLEMENTED at once, and may reset the stream as
                // it does; with libcurl 7.88 the reset can reach Courier before that answer does.
                switch error {
                case .status(let status) where status.code == .unimplemented: lastError = error
                case .transport(.connectionLost): lastError = error
                default: throw error
                }
            }
        }
        throw .reflectionUnavailable(lastError.map { "\($0)" } ?? "no reflection service")
    }

    private func schema(for symbols: [String]?, service: String) async throws(GRPCError)
        -> (services: [String], pool: DescriptorPool) {
        let path = "/\(service)/ServerReflectionInfo"
        var files: [String: FileDescriptor] = [:]
        var order: [String] = []
        var missing: [String] = []
        func take(_ received: [FileDescriptor]) {
            for file in received where files[file.name] == nil {
                files[file.name] = file
                order.append(file.name)
                missing.append(contentsOf: file.dependencies)
            }
        }
        let first = try await round([.listServices] + (symbols ?? []).map { .symbol($0) }, path: path)
        var services: [String] = []
        for answer in first {
            switch answer {
            case .services(let names): services = names
            case .files(let received): take(received)
            }
        }
        if symbols == nil {
            let wanted = services.filter { !Self.serviceNames.contains($0) }
            for answer in try await round(wanted.map { .symbol($0) }, path: path) {
                if case .files(let received) = answer { take(received) }
            }
        }
        var requested: Set<String> = []
        while true {
            let names = Set(missing.filter { files[$0] == nil && !requested.contains($0) }).sorted()
            missing = []
            guard !names.isEmpty else { break }
            requested.formUnion(names)
            guard files.count + names.count <= Self.fileLimit else {
                throw GRPCError.badDescriptor("the server's schema has more than \(Self.fileLimit) files")
            }
            for answer in try await round(names.map { .file($0) }, path: path) {
                if case .files(let received) = answer { take(received) }
            }
        }
        return (services, try DescriptorPool(files: order.compactMap { files[$0] }))
    }

    /// One question of the reflection protocol.
    enum Question {
        case listServices
        case symbol(String)
        case file(String)

        var bytes: [UInt8] {
            var writer = ProtoWriter()
            switch self {
            case .listServices:
                writer.writeTag(7, .lengthDelimited)
                writer.writeLengthDelimited(Array("*".utf8))
            case .symbol(let name):
                writer.writeTag(4, .lengthDelimited)
                writer.writeLengthDelimited(Array(name.utf8))
            case .file(let name):
                writer.writeTag(3, .lengthDelimited)
                writer.writeLengthDelimited(Array(name.utf8))
            }
            return writer.bytes
        }
    }

    /// One answer: the service names, or the files of a symbol or a file name.
    enum Answer {
        case services([String])
        case files([FileDescriptor])
    }

    /// Asks `questions` on one stream and reads one answer per question.
    private func round(_ questions: [Question], path: String) async throws(GRPCError) -> [Answer] {
        guard !questions.isEmpty else { return [] }
        let call = try GRPCCall(transport: transport, target: target, path: path, options: options)
        try call.sendAll(questions.map(\.bytes))
        var answers: [Answer] = []
        do {
            for try await part in call.parts {
                switch part {
                case .headers: continue
                case .message(let bytes):
                    guard answers.count < questions.count else { continue }
                    answers.append(try Self.answer(bytes, to: questions[answers.count]))
                case .end(let status, _, _):
                    guard status.isOK else { throw GRPCError.status(status) }
                }
            }
        } catch let error as GRPCError {
            call.cancel()
            throw error
        } catch {
            call.cancel()
            throw .transport(.protocolError(underlying: "\(error)"))
        }
        guard answers.count == questions.count else {
            throw .reflectionUnavailable("\(answers.count) answers to \(questions.count) questions")
        }
        return answers
    }

    private static func answer(_ bytes: [UInt8], to question: Question) throws(GRPCError) -> Answer {
        var reader = ProtoReader(bytes)
        while let tag = try reader.readTag() {
            switch (tag.field, tag.wireType) {
            case (6, .lengthDelimited):
                var list = try reader.subReader()
                var names: [String] = []
                while let entry = try list.readTag() {
                    guard entry.field == 1, entry.wireType == .lengthDelimited else {
                        try list.skip(entry.wireType, field: entry.field)
                        continue
                    }
                    var service = try list.subReader()
                    while let part = try service.readTag() {
                        if part.field == 1, part.wireType == .lengthDelimited {
                            names.append(String(decoding: try service.readLengthDelimited(), as: UTF8.self))
                        } else {
                            try service.skip(part.wireType, field: part.field)
                        }
                    }
                }
                return .services(names.sorted())
            case (4, .lengthDelimited):
                var response = try reader.subReader()
                var files: [FileDescriptor] = []
                while let entry = try response.readTag() {
                    if entry.field == 1, entry.wireType == .lengthDelimited {
                        files.append(try DescriptorDecoder.decodeFile(try response.readLengthDelimited()))
                    } else {
                        try response.skip(entry.wireType, field: entry.field)
                    }
                }
                return .files(files)
            case (7, .lengthDelimited):
                var error = try reader.subReader()
                var code = 0
                var message = ""
                while let part = try error.readTag() {
                    switch (part.field, part.wireType) {
                    case (1, .varint): code = Int(truncatingIfNeeded: try error.readVarint())
                    case (2, .lengthDelimited):
                        message = String(decoding: try error.readLengthDelimited(), as: UTF8.self)
                    default: try error.skip(part.wireType, field: part.field)
                    }
                }
                if GRPCStatus.Code(rawValue: code) == .notFound {
                    switch question {
                    case .symbol(let name): throw .unknownSymbol(name, known: [])
                    case .file(let name): throw .badDescriptor("the server does not have \(name), which a file imports")
                    case .listServices: break
                    }
                }
                throw .status(GRPCStatus(code: GRPCStatus.Code(rawValue: code) ?? .unknown, message: message))
            default:
                try reader.skip(tag.wireType, field: tag.field)
            }
        }
        throw .reflectionUnavailable("an answer without a list, files or an error")
    }
}
