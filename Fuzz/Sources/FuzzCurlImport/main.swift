import CourierCollections
import Foundation

/// Splits arbitrary text as a shell command line and imports it as a curl command. Invariants: no
/// crash; every word quoted by `ShellWords.quote` splits back to itself; an imported request is written
/// as one `.http` request that parses without a diagnostic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let text = String(data: Data(bytes: data, count: size), encoding: .utf8) else { return 0 }
    if case .success(let words) = ShellWords.split(text) {
        for word in words where !word.contains("\0") {
            guard case .success(let back) = ShellWords.split(ShellWords.quote(word)) else {
                preconditionFailure("a quoted word did not split")
            }
            precondition(back == [word], "quoting did not round-trip")
        }
    }
    if let imported = try? CurlImporter.convert("curl " + text) {
        // The block `courier import curl` writes is the one request it imports, with no diagnostic.
        let block = ImportWriter.block(imported.imported, sideFileStem: "import", isTaken: { _ in false })
        if let text = block.text {
            let file = HTTPFile(path: "import.http", text: "# imported\n\n" + text)
            precondition(file.diagnostics.isEmpty && file.requests.count == 1, "\(file.diagnostics)\n\(text)")
        }
    }
    return 0
}
