import CourierMessage
import Foundation
import Testing
@testable import CourierScript

/// Handlers read the response as the same flat JSON whether it is built from a response's head or its parts.
@Suite struct ScriptResponseShapeTests {
    @Test func aResponseBuiltFromAHeadReachesScriptsAsTheSameFlatJSON() throws {
        // Given a response built from a head with a reason and a version, and one built from its parts
        let headers: HTTPHeaders = [.init("Content-Type", "text/plain"), .init("X-Trace", "1")]
        let fromHead = ScriptResponse(head: ResponseHead(version: "HTTP/1.1", status: 404, reason: "Not Found",
                                                         headers: headers), body: "gone", milliseconds: 5)
        let fromParts = ScriptResponse(status: 404, headers: headers, body: "gone", milliseconds: 5)
        // When both are encoded for the preludes
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(fromHead)
        // Then the JSON is the same, flat, without the reason or the version
        #expect(data == (try encoder.encode(fromParts)))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["status", "headers", "body", "milliseconds"])
        #expect(try JSONDecoder().decode(ScriptResponse.self, from: data) == fromParts)
    }
}
