import Foundation
import Testing
@testable import CourierHTTP

/// Endpoints, the shared decoder, error bodies and the lossy array.
@Suite struct EndpointDecodingTests {
    struct User: Decodable, Sendable, Equatable {
        var id: Int
        var name: String
        var created: Date?
    }

    struct Page: Decodable, Sendable {
        var users: [User]
    }

    let url = URL(string: "http://stub.test/users")!

    func send<R: Decodable & Sendable>(_ type: R.Type, status: Int = 200, body: String) async throws -> R {
        let client = HTTPClient(configuration: .init(transport: StubTransport(statuses: [status], body: body),
                                                     retry: nil))
        return try await client.send(Endpoint<R>.get(url))
    }

    @Test func aValid2xxDecodesWithISO8601Dates() async throws {
        let user = try await send(User.self, body: #"{"id":1,"name":"Ada","created":"2024-05-01T12:30:00Z"}"#)
        #expect(user == User(id: 1, name: "Ada", created: Date(timeIntervalSince1970: 1_714_566_600)))
    }

    @Test func aMalformed2xxIsADecodingErrorWithTheCodingPath() async throws {
        await #expect {
            _ = try await send(Page.self, body: #"{"users":[{"id":1,"name":"Ada"},{"id":"two","name":"Bob"}]}"#)
        } throws: { error in
            guard case .decoding(let path, _) = error as? APIError else { return false }
            return path == "users[1].id"
        }
        await #expect {
            _ = try await send(Page.self, body: #"{"users":[{"id":1}]}"#)
        } throws: { error in
            guard case .decoding(let path, let underlying) = error as? APIError else { return false }
            return path == "users[0].name" && underlying.contains("name")
        }
    }

    @Test func a204OrAnEmpty200DecodesAsEmptyOrNilButNotAsAValue() async throws {
        _ = try await send(EmptyResponse.self, status: 204, body: "")
        let optional = try await send(User?.self, status: 200, body: "")
        #expect(optional == nil)
        await #expect {
            _ = try await send(User.self, status: 200, body: "")
        } throws: { error in
            (error as? APIError)?.kind == .decoding
        }
    }

    @Test func anErrorStatusCarriesTheServersMessage() async throws {
        await #expect {
            _ = try await send(User.self, status: 422, body: #"{"error":{"message":"name is required"}}"#)
        } throws: { error in
            guard case .http(422, _, let message) = error as? APIError else { return false }
            return message == "name is required"
        }
        #expect(ServerMessage.extract(from: Data(#"{"detail":"Not found."}"#.utf8)) == "Not found.")
        #expect(ServerMessage.extract(from: Data(#"{"message":"slow down"}"#.utf8)) == "slow down")
        #expect(ServerMessage.extract(from: Data("<html>".utf8)) == nil)
    }

    @Test func theDecoderAcceptsTheCommonISO8601Shapes() {
        let base = Date(timeIntervalSince1970: 1_714_566_600)
        #expect(ISO8601.parse("2024-05-01T12:30:00Z") == base)
        #expect(ISO8601.parse("2024-05-01T12:30:00.250Z") == base.addingTimeInterval(0.25))
        #expect(ISO8601.parse("2024-05-01T14:30:00+02:00") == base)
        #expect(ISO8601.parse("2024-05-01T07:30:00-0500") == base)
        #expect(ISO8601.parse("2024-05-01T14:30:00.5+02") == base.addingTimeInterval(0.5))
        #expect(ISO8601.parse("2024-05-01 12:30:00Z") == base)
        #expect(ISO8601.parse("2024-05-01T12:30Z") == base)
        #expect(ISO8601.parse("2024-05-01") == Date(timeIntervalSince1970: 1_714_521_600))
        #expect(ISO8601.parse("2024-13-01T00:00:00Z") == nil)
        #expect(ISO8601.parse("yesterday") == nil)
        #expect(ISO8601.parse("2024-05-01T12:30:00Zjunk") == nil)
    }

    @Test func aLossyArraySkipsAndCountsUndecodableElements() throws {
        let json = #"[{"id":1,"name":"Ada"},{"id":"x"},42,{"id":3,"name":"Cy"},null]"#
        let lossy = try JSONCoding.decode(LossyArray<User>.self, from: Data(json.utf8))
        #expect(lossy.elements.map(\.id) == [1, 3])
        #expect(lossy.skipped == 3)
        #expect(lossy.firstFailure?.contains("[1]") == true)
    }
}
