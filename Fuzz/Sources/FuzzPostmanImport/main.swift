import CourierCollections
import Foundation

/// Imports arbitrary bytes as a Postman collection. Invariants: no crash; every generated file parses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let conversion = try? PostmanImporter.convert(Data(bytes: data, count: size)) else { return 0 }
    for file in conversion.files {
        _ = HTTPFile(path: file.name, text: file.text)
    }
    return 0
}
