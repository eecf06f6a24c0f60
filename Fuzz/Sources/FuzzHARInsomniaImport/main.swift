import CourierCollections
import Foundation

/// Imports arbitrary bytes as a HAR and as an Insomnia export, and also builds a HAR and an Insomnia export
/// around pieces of them (URLs, header names and values, bodies, cookies, names with `.http` syntax and line
/// breaks in them), so the converters and the import writer see well-formed documents with hostile text.
/// Invariants: no crash; every generated `.http` file parses without a diagnostic; a HAR's private
/// environment is JSON that the environment reader accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    importHAR(bytes)
    if let conversion = try? InsomniaImporter.convert(bytes) { check(conversion.output.files) }
    let pieces = String(decoding: bytes, as: UTF8.self).split(separator: "\u{1}", omittingEmptySubsequences: false)
        .map(String.init)
    func piece(_ index: Int) -> String { pieces.isEmpty ? "" : pieces[index % pieces.count] }
    let har: [String: Any] = ["log": ["entries": [[
        "startedDateTime": piece(9),
        "request": [
            "method": piece(0), "url": "http://h\(piece(1))/p?\(piece(2))=\(piece(3))&access_token=\(piece(4))",
            "headers": [["name": piece(5), "value": piece(6)], ["name": "Authorization", "value": "Bearer " + piece(7)],
                        ["name": "Cookie", "value": piece(8)]],
            "postData": ["mimeType": piece(10), "text": piece(11),
                         "params": [["name": piece(12), "value": piece(13), "fileName": piece(14)]]],
        ] as [String: Any],
        "response": ["status": 200, "content": ["text": piece(15), "encoding": piece(16)]] as [String: Any],
    ] as [String: Any]]]]
    if let document = try? JSONSerialization.data(withJSONObject: har) { importHAR(document) }
    let insomnia: [String: Any] = ["__export_format": 4, "resources": [
        ["_id": "w", "_type": "workspace", "name": piece(0)],
        ["_id": "e", "_type": "environment", "parentId": "w", "name": piece(1), "data": [piece(2): piece(3)]],
        ["_id": "g", "_type": "request_group", "parentId": "w", "name": piece(4), "environment": [piece(5): piece(6)]],
        ["_id": "r", "_type": "request", "parentId": "g", "name": piece(7), "method": piece(8), "url": piece(9),
         "headers": [["name": piece(10), "value": piece(11)]], "parameters": [["name": piece(12), "value": piece(13)]],
         "body": ["mimeType": piece(14), "text": piece(15)],
         "authentication": ["type": "basic", "username": piece(16), "password": piece(17)]] as [String: Any],
    ]]
    if let document = try? JSONSerialization.data(withJSONObject: insomnia),
       let conversion = try? InsomniaImporter.convert(document) {
        check(conversion.output.files)
    }
    return 0
}

func importHAR(_ bytes: Data) {
    guard let conversion = try? HARImporter.convert(bytes) else { return }
    if let text = conversion.privateEnvironment {
        let environment = try? EnvironmentSet.from(publicJSON: nil, privateJSON: text).environment(named: nil)
        precondition(environment != nil, "the private environment does not read back: \(text)")
    }
    check(conversion.output.files)
}

func check(_ files: [ImportOutput.File]) {
    for file in files where file.name.hasSuffix(".http") {
        let parsed = HTTPFile(path: file.name, text: file.text)
        precondition(parsed.diagnostics.isEmpty, "\(file.name): \(parsed.diagnostics)\n\(file.text)")
    }
}
