import Foundation
import Testing
@testable import CourierDemo

@Suite("Demo API: users and search")
struct DemoUserRoutesTests {
    @Test func usersArePaginatedWithTotalsAndLinks() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // When the second page of five is asked for
        let response = try client.fetch("GET", "/users?page=2&per_page=5")
        // Then it holds users 6 to 10 and says how many there are
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let data = try #require(response.json["data"] as? [[String: Any]])
        #expect(data.compactMap { $0["id"] as? Int } == [6, 7, 8, 9, 10])
        #expect(response.json["total"] as? Int == 25)
        #expect(response.json["total_pages"] as? Int == 5)
        #expect(response.header("Link")?.contains("</users?page=3&per_page=5>; rel=\"next\"") == true)
        #expect(data.first?["email"] as? String == "barbara.liskov@example.com")
        // And a page past the end is empty, not an error
        #expect((try client.fetch("GET", "/users?page=99").json["data"] as? [Any])?.isEmpty == true)
    }

    @Test func postingAUserCreatesItWith201AndALocationThatResolves() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // When a user is created
        let created = try client.fetch("POST", "/users", headers: ["Content-Type: application/json"],
                                       body: #"{"name":"Joan Clarke","email":"joan@example.com","age":37}"#)
        // Then 201 points at the new user, which GET returns
        #expect(created.status == 201)
        let location = try #require(created.header("Location"))
        #expect(location == "/users/26")
        let fetched = try client.fetch("GET", location)
        #expect(fetched.json["name"] as? String == "Joan Clarke")
        #expect(fetched.json["age"] as? Int == 37)
    }

    @Test func invalidUserBodiesAreRefusedWithTheField() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.fetch("POST", "/users", body: "not json").status == 400)
        let missing = try client.fetch("POST", "/users", body: #"{"name":"No Email"}"#)
        #expect(missing.status == 422)
        #expect(missing.json["field"] as? String == "email")
        let wrongType = try client.fetch("PATCH", "/users/1", body: #"{"age":"old"}"#)
        #expect(wrongType.status == 422)
        #expect(try client.fetch("PATCH", "/users/1", body: #"{"active":1}"#).status == 422)
    }

    @Test func putReplacesPatchMergesAndDeleteRemoves() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // PATCH changes only the fields given
        let patched = try client.fetch("PATCH", "/users/2", body: #"{"city":"Lisbon","active":false}"#)
        #expect(patched.json["city"] as? String == "Lisbon")
        #expect(patched.json["active"] as? Bool == false)
        #expect(patched.json["name"] as? String == "Grace Hopper")
        // PUT replaces: fields not given are reset
        let replaced = try client.fetch("PUT", "/users/2", body: #"{"name":"G. Hopper","email":"g@example.com"}"#)
        #expect(replaced.status == 200)
        #expect(replaced.json["city"] as? String == "")
        // DELETE answers 204 and the user is gone
        let deleted = try client.fetch("DELETE", "/users/2")
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        #expect(try client.fetch("GET", "/users/2").status == 404)
        #expect(try client.fetch("DELETE", "/users/2").status == 404)
        #expect(try client.fetch("PUT", "/users/abc", body: "{}").status == 404)
    }

    @Test func unknownUsersAre404WithAJSONError() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/users/4242")
        #expect(response.status == 404)
        #expect(response.json["error"] as? String == "no user with id 4242")
    }

    @Test func searchFindsMatchingUsersAfterADelay() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let response = try client.fetch("GET", "/search?q=hampton")
        #expect(response.status == 200)
        let names = (response.json["results"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["Katherine Johnson", "Mary Jackson"])
        #expect(response.json["count"] as? Int == 2)
        #expect((try client.fetch("GET", "/search?q=").json["count"] as? Int) == 0)
    }

    @Test func aSearchAbandonedByItsClientIsAborted() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        var client: RawHTTPClient? = try RawHTTPClient(port: server.port)
        client?.request("GET", "/search?q=a")
        #expect(await eventually { server.requestCount(path: "/search") == 1 })
        client = nil
        #expect(await eventually { !(server.log.first?.isPending ?? true) })
        // The 150 ms wait may or may not have ended before the close was seen; either way it is settled
        #expect(server.completedCount(path: "/search") + server.abortedCount(path: "/search") == 1)
    }
}
