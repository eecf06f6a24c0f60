import CourierCollections
import CourierHTTP
import Foundation

/// Expands arbitrary variable definitions and references. The input's lines become `@name = value`
/// definitions (a line without `=` is a reference to expand). Invariants: expansion never crashes or
/// hangs, and either builds a request no larger than the expansion limit or throws a typed error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    guard let text = String(data: bytes, encoding: .utf8) else { return 0 }
    var definitions: [String] = []
    var references: [String] = []
    for line in text.split(separator: "\n").prefix(64) {
        if let equals = line.firstIndex(of: "=") {
            let name = line[..<equals].filter { $0.isLetter || $0.isNumber || $0 == "_" }
            definitions.append("@\(name.isEmpty ? "v" : name) = \(line[line.index(after: equals)...])")
        } else {
            references.append(String(line))
        }
    }
    let headers = references.prefix(8).enumerated().map { "X-\($0.offset): \($0.element)" }.joined(separator: "\n")
    let file = HTTPFile(path: "fuzz.http", text: definitions.joined(separator: "\n")
        + "\n\n###\nPOST http://127.0.0.1:1/{{v}}\n" + headers + "\n\n{{v}}{{$uuid}}{{$datetime iso8601 -1 d}}\n")
    let environment = Environment(name: "fuzz", values: ["e": VariableValue("{{v}}{{v}}"), "s": VariableValue("x", isSecret: true)])
    let context = VariableContext(environment: environment, processEnvironment: [:])
    let resolver = Resolver(file: file, baseFolder: URL(fileURLWithPath: "/nonexistent"), context: context)
    for request in file.requests {
        do {
            let resolved = try resolver.resolve(request)
            let headerBytes = resolved.request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
            precondition(headerBytes <= 64 << 20, "expansion passed its limit")
        } catch {
            _ = error.description
            _ = error.located(in: request, file: "fuzz.http", fileVariables: file.fileVariables)
        }
    }
    return 0
}
