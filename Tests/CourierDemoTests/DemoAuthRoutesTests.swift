import Foundation
import Testing
@testable import CourierDemo

@Suite("Demo API: login, refresh, /me")
struct DemoAuthRoutesTests {
    @Test func loginGivesATokenPairThatOpensMe() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // When signing in as ada
        let login = try client.fetch("POST", "/auth/login", body: #"{"username":"ada","password":"x"}"#)
        // Then a token pair comes back and /me knows the user
        #expect(login.status == 200)
        let access = try #require(login.json["access_token"] as? String)
        #expect(login.json["refresh_token"] is String)
        #expect(login.json["expires_in"] as? Double == 60)
        let me = try client.fetch("GET", "/me", headers: ["Authorization: Bearer \(access)"])
        #expect(me.status == 200)
        #expect(me.json["username"] as? String == "ada")
    }

    @Test func meWithoutOrWithABadTokenIs401WithAChallenge() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let missing = try client.fetch("GET", "/me")
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let unknown = try client.fetch("GET", "/me", headers: ["Authorization: Bearer nope"])
        #expect(unknown.status == 401)
        #expect(unknown.json["error_code"] as? String == "invalid_token")
    }

    @Test func anExpiredTokenIs401AndRefreshGivesAWorkingOne() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        // Given a token that lives a fifth of a second
        let login = try client.fetch("POST", "/auth/login?ttl=0.2")
        let access = try #require(login.json["access_token"] as? String)
        let refresh = try #require(login.json["refresh_token"] as? String)
        // When it expires, /me refuses it
        #expect(await eventually {
            (try? client.fetch("GET", "/me", headers: ["Authorization: Bearer \(access)"]))?.status == 401
        })
        // Then the refresh token gives a new access token (with its own lifetime) that works
        let renewed = try client.fetch("POST", "/auth/refresh?ttl=60", body: #"{"refresh_token":"\#(refresh)"}"#)
        #expect(renewed.status == 200)
        let newAccess = try #require(renewed.json["access_token"] as? String)
        #expect(newAccess != access)
        #expect(try client.fetch("GET", "/me", headers: ["Authorization: Bearer \(newAccess)"]).status == 200)
    }

    @Test func refreshAcceptsAFormBodyAndRefusesUnknownTokens() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let refresh = try #require(try client.fetch("POST", "/auth/login").json["refresh_token"] as? String)
        #expect(try client.fetch("POST", "/auth/refresh", body: "refresh_token=\(refresh)").status == 200)
        #expect(try client.fetch("POST", "/auth/refresh", body: #"{"refresh_token":"rt_forged"}"#).status == 401)
        #expect(try client.fetch("POST", "/auth/refresh").status == 401)
    }
}
