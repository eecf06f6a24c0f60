import CourierTestSupport
import Foundation
import Testing

/// Postman collections exported on Windows carry CRLF line ends inside their raw JSON bodies.
@Suite struct PostmanWindowsBodyTests {
    @Test func aJSONBodyWithCRLFLineEndsStaysInItsBlockAndTheServerReceivesTheSameJSON() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let raw = "{\r\n\t\"firstname\" : \"{{first}}\",\r\n\t\"total\" : {{total}},\r\n\t\"dates\" : {\r\n    \t\"in\" : \"2024-01-01\"\r\n\t}\r\n}\r\n\r\n"
        let collection = PostmanExports.collection("Booker", variables: [("base", server.base), ("first", "Ada"), ("total", "111")], items: [
            PostmanExports.item("Create", "{{base}}/booking", method: "POST", headers: [("Content-Type", "application/json")],
                                body: ["mode": "raw", "raw": raw, "options": ["raw": ["language": "json"]]]),
        ])
        let paths = try PostmanExports.write([("booker.postman_collection", collection)], in: folder)
        let out = folder.url.appendingPathComponent("out")
        let imported = try await CourierCLI.run(["import", "postman"] + paths + ["-o", out.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Then the body is in the block, readable and editable there, not in a side file
        let http = try String(contentsOf: out.appendingPathComponent("Booker.http"), encoding: .utf8)
        #expect(http.contains("\t\"firstname\" : \"{{first}}\",\n"), "\(http)")
        #expect(!http.contains("< ./") && !http.contains("\r"), "\(http)")
        // And what the server receives is the same JSON the collection sends
        let run = try await CourierCLI.run(["run", out.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let received = try #require(server.requests.first?.body)
        let object = try JSONSerialization.jsonObject(with: received) as? [String: Any]
        #expect(object?["firstname"] as? String == "Ada")
        #expect(object?["total"] as? Int == 111)
        #expect((object?["dates"] as? [String: Any])?["in"] as? String == "2024-01-01")
    }
}
