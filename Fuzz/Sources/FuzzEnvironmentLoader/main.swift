import CourierCollections
import Foundation

/// Loads arbitrary bytes as an environment file (public, then private). Invariants: loading never
/// crashes, however deep or odd the JSON; it either gives environments whose values can be merged or
/// throws a typed error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    guard let text = String(data: bytes, encoding: .utf8) else { return 0 }
    for (publicJSON, privateJSON) in [(text, nil), (#"{"dev": {"a": "1"}}"#, text)] as [(String, String?)] {
        guard let set = try? EnvironmentSet.from(publicJSON: publicJSON, privateJSON: privateJSON) else { continue }
        _ = try? set.environment(named: nil)
        for name in set.names.prefix(16) {
            guard let environment = try? set.environment(named: name) else {
                preconditionFailure("a listed environment could not be selected")
            }
            precondition(environment.name == name)
        }
    }
    return 0
}
