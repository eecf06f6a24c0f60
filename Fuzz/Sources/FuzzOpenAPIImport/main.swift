import CourierCollections
import Foundation

/// Imports arbitrary bytes as an OpenAPI description (JSON or YAML through libyaml). Invariants: no
/// crash, no unbounded growth (aliases and fanned-out schemas are capped); every generated file parses
/// without a diagnostic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let conversion = try? OpenAPIImporter.convert(Data(bytes: data, count: size)) else { return 0 }
    // Every `.http` file parses without a single diagnostic: the import writer checks each request it writes.
    for file in conversion.files where file.name.hasSuffix(".http") {
        let parsed = HTTPFile(path: file.name, text: file.text)
        precondition(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
    }
    return 0
}
