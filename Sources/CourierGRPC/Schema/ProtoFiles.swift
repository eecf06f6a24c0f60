import Foundation

/// Descriptors from files: `.proto` sources through Debian's `protoc --descriptor_set_out` (its errors,
/// `file:line:column: message`, are passed on), or descriptor sets protoc already wrote (`.pb`,
/// `.protoset`, `.desc`, `.bin`), read directly.
public enum ProtoFiles {
    /// Extensions of files read as `FileDescriptorSet` bytes rather than `.proto` text.
    public static let descriptorSetExtensions: Set<String> = ["pb", "protoset", "desc", "bin"]

    /// The files' descriptors and everything they import. `importPaths` are searched for imports besides
    /// each file's own folder.
    public static func load(_ files: [URL], importPaths: [URL] = []) throws(GRPCError) -> [FileDescriptor] {
        var result: [FileDescriptor] = []
        var sources: [URL] = []
        for file in files {
            if descriptorSetExtensions.contains(file.pathExtension.lowercased()) {
                guard let data = FileManager.default.contents(atPath: file.path) else {
                    throw .protoc("cannot read the descriptor set \(file.path)")
                }
                result += try DescriptorDecoder.decodeSet([UInt8](data))
            } else {
                sources.append(file)
            }
        }
        if !sources.isEmpty { result += try compile(sources, importPaths: importPaths) }
        return result
    }

    /// Where protoc is, when it is installed.
    static func protocPath() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/protoc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func compile(_ sources: [URL], importPaths: [URL]) throws(GRPCError) -> [FileDescriptor] {
        guard let protoc = protocPath() else {
            throw .protoc("reading .proto files needs protoc, which is not installed: apt-get install "
                          + "protobuf-compiler (or give a descriptor set: protoc --include_imports "
                          + "--descriptor_set_out=FILE.pb)")
        }
        for source in sources where !FileManager.default.fileExists(atPath: source.path) {
            throw .protoc("no such .proto file: \(source.path)")
        }
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-protoset-\(getpid())-\(UUID().uuidString).pb")
        defer { try? FileManager.default.removeItem(at: output) }
        var folders: [String] = []
        for folder in sources.map({ $0.deletingLastPathComponent().path }) + importPaths.map(\.path)
        where !folders.contains(folder) {
            folders.append(folder)
        }
        let arguments = ["--include_imports", "--descriptor_set_out=\(output.path)"]
            + folders.map { "--proto_path=\($0)" } + wellKnownIncludes(excluding: folders)
            + sources.map(\.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: protoc)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .protoc("cannot run \(protoc): \(error.localizedDescription)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw .protoc("protoc could not read the .proto files: "
                          + (text.isEmpty ? "exit \(process.terminationStatus)" : text))
        }
        guard let data = FileManager.default.contents(atPath: output.path) else {
            throw .protoc("protoc wrote no descriptor set")
        }
        return try DescriptorDecoder.decodeSet([UInt8](data))
    }

    /// Debian installs the well-known types' .proto files in /usr/include; protoc finds them there itself
    /// only when no --proto_path is given, so it is named too.
    private static func wellKnownIncludes(excluding folders: [String]) -> [String] {
        let folder = "/usr/include"
        guard !folders.contains(folder),
              FileManager.default.fileExists(atPath: "\(folder)/google/protobuf/timestamp.proto") else { return [] }
        return ["--proto_path=\(folder)"]
    }
}
