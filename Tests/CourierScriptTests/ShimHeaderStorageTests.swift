import Foundation
import Testing

/// The C shim headers hold no storage of their own. A release build compiles each source file of a module
/// into its own object file, and each gets a private copy of a header's static variables: state written
/// through one copy is not seen through another (JavaScriptCore's function table once was, and every
/// script crashed the release binary while the debug build, tested by `make test`, worked).
@Suite struct ShimHeaderStorageTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    @Test func noShimHeaderDeclaresAStaticVariable() throws {
        // Given every header of the C module folders (those with a module map: CJavaScriptCore, CCurl, …)
        let files = FileManager.default
        var headers: [URL] = []
        for folder in try files.contentsOfDirectory(atPath: Self.sources.path) {
            let url = Self.sources.appendingPathComponent(folder)
            guard files.fileExists(atPath: url.appendingPathComponent("module.modulemap").path) else { continue }
            headers += try files.contentsOfDirectory(atPath: url.path)
                .filter { $0.hasSuffix(".h") }.map { url.appendingPathComponent($0) }
        }
        #expect(headers.contains { $0.path.hasSuffix("CJavaScriptCore/shim.h") })
        // Then none declares a static variable, at file level or inside a function
        for header in headers {
            let lines = try String(contentsOf: header, encoding: .utf8).split(separator: "\n")
            let statics = lines.filter { line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return code.hasPrefix("static ") && !code.hasPrefix("static inline ")
            }
            #expect(statics.isEmpty, "\(header.lastPathComponent): \(statics)")
        }
    }
}
