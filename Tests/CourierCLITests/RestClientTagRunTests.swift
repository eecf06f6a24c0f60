import CourierTestSupport
import Foundation
import Testing

/// `# @note`, `# @no-log` and the REST Client's `<@ENCODING ./file` bodies through `courier run`, checked
/// against what a loopback server received.
@Suite("Request tags and encoded bodies on the wire")
struct RestClientTagRunTests {
    @Test func aNotedRequestIsSentAndTheRunSaysItDidNotAsk() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", "# @note production!\nDELETE \(server.base)/everything\n\n###\n# @note\nGET \(server.base)/b\n")
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.map(\.requestLine) == ["DELETE /everything HTTP/1.1", "GET /b HTTP/1.1"])
        #expect(result.stdout.contains("note: production! (# @note: courier run sends it without asking)"),
                "\(result.stdout)")
        #expect(result.stdout.contains("note: (# @note: courier run sends it without asking)"), "\(result.stdout)")
        let json = try await CourierCLI.run(["run", "api.http", "--json"], in: folder.url)
        #expect(json.jsonLines.first?["note"] as? String == "production!", "\(json.stdout)")
    }

    @Test func aLatin1BodyFileIsReadInItsEncodingSubstitutedAndSentAsUTF8() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        // "Zoë in Café {{city}}" written in ISO 8859-1: ë and é are one byte each there.
        let latin1 = try #require("<p>Zoë in Café {{city}}</p>".data(using: .isoLatin1))
        try latin1.write(to: folder.url.appendingPathComponent("page.xml"))
        try folder.write("api.http", """
            @city = Genève
            POST \(server.base)/xml
            Content-Type: application/xml

            <@latin1 ./page.xml

            ###
            POST \(server.base)/upload
            Content-Type: multipart/form-data; boundary=XX

            --XX
            Content-Disposition: form-data; name="page"

            <@ISO-8859-1 ./page.xml
            --XX--
            """)
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let received = try #require(server.requests.first)
        #expect(received.body == Data("<p>Zoë in Café Genève</p>".utf8))
        // A part of a multipart body reads its file the same way.
        let upload = try #require(server.requests.last)
        #expect(upload.bodyText.contains("\r\n\r\n<p>Zoë in Café Genève</p>\r\n--XX--"), "\(upload.bodyText)")
        #expect(received.header("Content-Length") == "\(Data("<p>Zoë in Café Genève</p>".utf8).count)")
    }

    @Test func anUnknownEncodingIsAnErrorAtItsLineAndTheOtherRequestsRun() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", "POST \(server.base)/a\n\n<@klingon ./page.xml\n\n###\nGET \(server.base)/b\n")
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("api.http:3: unknown encoding 'klingon' in '<@klingon'; known: utf8, latin1"),
                "\(result.stderr)")
        #expect(server.requests.map(\.path) == ["/b"])
    }

    @Test func aNoLogRequestBypassesTheHTTPCache() async throws {
        // Given a server whose answers may be cached for a minute
        let server = try LoopbackServer { _ in .json(#"{"n": 1}"#, headers: [("Cache-Control", "max-age=60")]) }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let base = server.baseURL.absoluteString
        try folder.write("api.http", """
            GET \(base)/kept

            ###
            GET \(base)/kept

            ###
            # @no-log
            GET \(base)/private

            ###
            # @no-log
            GET \(base)/private
            """)
        // When run through a cache
        let result = try await CourierCLI.run(["run", "api.http", "--cache-dir", "cache", "--cache-mode", "default"],
                                              in: folder.url)
        // Then the cache answered the second /kept, but each @no-log request went to the server
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requestCount(path: "/kept") == 1)
        #expect(server.requestCount(path: "/private") == 2)
        let cache = folder.url.appendingPathComponent("cache")
        let files = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
        let stored = files.map { String(decoding: (try? Data(contentsOf: $0)) ?? Data(), as: UTF8.self) }
        #expect(stored.contains { $0.contains("/kept") }, "\(files)")
        #expect(!stored.contains { $0.contains("/private") }, "the cache holds /private")
    }
}
