import CourierDemo
import Foundation
import Testing

/// The demo collection the binary carries equals the files in Collections/ (`make embed` regenerates it).
struct EmbeddedFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theEmbeddedDemoCollectionEqualsCollectionsDemoHTTP() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("Collections/demo.http"), encoding: .utf8)
        #expect(DemoCollectionFiles.http == file, "run `make embed` after editing Collections/demo.http")
    }

    @Test func theEmbeddedEnvironmentEqualsCollectionsEnvironmentFile() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("Collections/http-client.env.json"),
                              encoding: .utf8)
        #expect(DemoCollectionFiles.environment == file, "run `make embed` after editing the environment file")
    }
}
