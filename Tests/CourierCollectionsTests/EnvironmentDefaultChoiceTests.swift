import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

/// Which environment a run without `--env` uses when the files define several.
@Suite("Environment chosen without --env")
struct EnvironmentDefaultChoiceTests {
    private func choice(_ json: String, privateJSON: String? = nil) throws -> EnvironmentSet.DefaultChoice? {
        try EnvironmentSet.from(publicJSON: json, privateJSON: privateJSON).defaultChoice
    }

    @Test func theEnvironmentWhoseAddressesAreAllOnThisMachineIsChosenAndNoOther() throws {
        // Given a local environment beside remote ones (the shape most projects commit)
        let local = try choice(#"""
            {"local": {"baseUrl": "http://localhost:8080", "ws": "ws://localhost:8080/ws"},
             "dev": {"baseUrl": "https://api.dev.example.com"}, "prod": {"baseUrl": "https://api.example.com"}}
            """#)
        // Then the local one is chosen, with the addresses it points at
        #expect(local == .init(name: "local", reason: .local(addresses: ["localhost:8080"])))
        // And a bare host counts, a port alone or a value holding a variable does not
        let bare = try choice(#"{"a": {"host": "127.0.0.1", "port": "8000", "path": "{{x}}/y"}, "b": {"host": "b.example.com"}}"#)
        #expect(bare == .init(name: "a", reason: .local(addresses: ["127.0.0.1"])))
        // And an environment holding one remote address is not local, even named so
        #expect(try choice(#"{"local": {"api": "http://localhost:1", "auth": "https://login.example.com"}, "prod": {}}"#) == nil)
        // And an environment with no address at all is not local
        #expect(try choice(#"{"local": {"token": "t"}, "prod": {"base": "https://example.com"}}"#) == nil)
    }

    @Test func amongSeveralLocalEnvironmentsTheOneNamedLocalWinsAndOtherwiseNoneIsGuessed() throws {
        // Given two environments pointing at this machine
        let named = try choice(#"""
            {"development": {"base": "http://localhost:8080"}, "local": {"base": "http://[::1]:8080"},
             "production": {"base": "https://api.example.com"}}
            """#)
        // Then the one named local is chosen
        #expect(named?.name == "local")
        #expect(named?.reason == .local(addresses: ["[::1]:8080"]))
        // And a name starting with "local" is taken for one
        #expect(try choice(#"{"local-docker": {"u": "http://0.0.0.0:1"}, "b": {"u": "http://localhost:2"}}"#)?.name == "local-docker")
        // And with several local ones named otherwise, none is guessed
        #expect(try choice(#"{"spring": {"host": "localhost"}, "micronaut": {"host": "localhost"}}"#) == nil)
    }

    @Test func aSharedAddressCountsForEveryEnvironmentThatDoesNotReplaceIt() throws {
        // Given $shared pointing at this machine, replaced by prod only
        let set = try choice(#"{"$shared": {"base": "http://localhost:3000"}, "dev": {"k": "1"}, "prod": {"base": "https://x.example"}}"#)
        // Then dev, which keeps the local address, is chosen
        #expect(set == .init(name: "dev", reason: .local(addresses: ["localhost:3000"])))
    }

    @Test func anEnvironmentNamedDefaultIsKulalasDefaultAndHttpyacsDefaultKeepsNone() throws {
        // Given an environment named default beside a local one
        #expect(try choice(#"{"default": {"base": "https://api.example.com"}, "local": {"base": "http://localhost"}}"#)
            == .init(name: "default", reason: .namedDefault))
        // And httpyac's $default: no named environment is chosen, $default applies
        #expect(try choice(#"{"$default": {"base": "http://localhost"}, "local": {"base": "http://localhost"}, "b": {}}"#) == nil)
        // And the only environment stays the sole one
        #expect(try choice(#"{"$shared": {}, "dev": {}}"#) == .init(name: "dev", reason: .sole))
    }

    @Test func httpyacsEnvironmentSelectedOnStartInTheWorkspaceSettingsIsChosen() throws {
        // Given VS Code settings selecting staging on start, and a local environment too
        let folder = try TemporaryFolder()
        try folder.write("http-client.env.json", #"{"staging": {"base": "https://s.example"}, "local": {"base": "http://localhost"}}"#)
        try folder.write(".vscode/settings.json", """
            {
              // the team's default
              "httpyac.environmentSelectedOnStart": ["staging"],
            }
            """)
        let file = try folder.write("api/users.http", "GET {{base}}\n")
        // When discovered from a file below
        let set = try EnvironmentSet.discover(near: file, root: folder.url)
        // Then staging is chosen, naming the settings file
        #expect(set.defaultChoice?.name == "staging")
        #expect(set.defaultChoice?.explanation.contains(".vscode/settings.json selects on start") == true)
        // And a selection of several, or of an environment not defined, chooses by the other rules
        try folder.write(".vscode/settings.json", #"{"httpyac.environmentSelectedOnStart": ["staging", "local"]}"#)
        #expect(try EnvironmentSet.discover(near: file, root: folder.url).defaultChoice?.name == "local")
        try folder.write(".vscode/settings.json", #"{"httpyac.environmentSelectedOnStart": ["qa"]}"#)
        #expect(try EnvironmentSet.discover(near: file, root: folder.url).defaultChoice?.name == "local")
    }

    @Test func aProjectsDotenvTemplateIsNotChosenAndAListOfOriginsIsNoAddress() throws {
        // Given remote environments, and the application's `.env.example` pointing at this machine
        let folder = try TemporaryFolder()
        try folder.write("http-client.env.json", #"{"dev": {"base": "https://d.example"}, "prod": {"base": "https://p.example"}}"#)
        try folder.write(".env.example", "API_URL=http://localhost:3000\n")
        let file = try folder.write("api.http", "GET {{base}}\n")
        // Then no environment is chosen: the template is not one written for the requests
        #expect(try EnvironmentSet.discover(near: file, root: folder.url).defaultChoice == nil)
        // And a list of allowed origins does not make an environment remote
        #expect(try choice(#"{"local": {"base": "http://localhost:1", "cors": "http://localhost:2,https://app.example"}, "b": {}}"#)?.name
            == "local")
    }

    @Test func loopbackIsLocalhostItsSubdomainsThe127NetworkAndIPv6Loopback() {
        for host in ["localhost", "api.localhost", "127.0.0.1", "127.1.2.3", "::1", "0.0.0.0"] {
            #expect(EnvironmentSet.isLoopback(host), "\(host)")
        }
        for host in ["localhost.example.com", "127.0.0.1.nip.io", "10.0.0.1", "host.docker.internal", "128.0.0.1"] {
            #expect(!EnvironmentSet.isLoopback(host), "\(host)")
        }
    }
}
