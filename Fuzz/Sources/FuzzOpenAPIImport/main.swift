import CourierCollections
import Foundation

/// Imports arbitrary bytes as an OpenAPI description (JSON or YAML through libyaml). Invariants: no
/// crash, no unbounded growth (aliases and fanned-out schemas are capped); every generated file parses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let conversion = try? OpenAPIImporter.convert(Data(bytes: data, count: size)) else { return 0 }
    for file in conversion.files {
        _ = HTTPFile(path: file.name, text: file.text)
    }
    return 0
}
