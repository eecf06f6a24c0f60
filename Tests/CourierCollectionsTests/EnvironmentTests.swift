import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

@Suite("Environment files")
struct EnvironmentTests {
    @Test func namedBeatsSharedThenPrivateBeatsPublicAndPrivateValuesAreSecret() throws {
        // Given public and private files with clashing names
        let set = try EnvironmentSet.from(
            publicJSON: #"{"$shared": {"a": "shared", "b": "shared", "c": "shared"}, "dev": {"a": "dev", "n": 3, "f": true}}"#,
            privateJSON: #"{"$shared": {"b": "private-shared", "c": "private-shared"}, "dev": {"a": "private-dev"}}"#)
        // When dev is selected
        let dev = try set.environment(named: "dev")
        // Then named beats shared, private beats public, and private values are secret
        #expect(dev.values["a"] == VariableValue("private-dev", isSecret: true))
        #expect(dev.values["b"] == VariableValue("private-shared", isSecret: true))
        #expect(dev.values["n"] == VariableValue("3"))
        #expect(dev.values["f"] == VariableValue("true"))
        // And no selection gives $shared alone
        #expect(try set.environment(named: nil).values["a"] == VariableValue("shared"))
        #expect(set.names == ["dev"])
    }

    @Test func aNullIsANameWithoutAValueAndTheOtherFilesValueShowsThrough() throws {
        // Given a committed file with placeholders and a private file that fills one of them
        let set = try EnvironmentSet.from(
            publicJSON: #"{"production": {"host": null, "token": null, "auth": {"user": null, "realm": "r"}}}"#,
            privateJSON: #"{"production": {"token": "t0k", "host": null}}"#)
        let production = try set.environment(named: "production")
        // Then the unfilled ones are not set (no host called "null"), the filled one is the private value
        #expect(production.values["host"] == nil)
        #expect(production.values["auth.user"] == nil)
        #expect(production.values["auth.realm"] == VariableValue("r"))
        #expect(production.values["token"] == VariableValue("t0k", isSecret: true))
    }

    @Test func unknownEnvironmentListsTheKnownOnes() throws {
        let set = try EnvironmentSet.from(publicJSON: #"{"dev": {}, "prod": {}}"#)
        #expect(throws: CollectionError.unknownEnvironment(name: "stage", available: ["dev", "prod"])) {
            try set.environment(named: "stage")
        }
    }

    @Test func filesAreFoundBesideTheFileAndInParentsUpToTheRootNearerWinning() throws {
        // Given env files at the root and in a sub-folder
        let folder = try TemporaryFolder()
        try folder.write("http-client.env.json", #"{"dev": {"base": "root", "only-root": "r"}}"#)
        try folder.write("api/http-client.env.json", #"{"dev": {"base": "api"}}"#)
        try folder.write("api/http-client.private.env.json", #"{"dev": {"token": "t"}}"#)
        let file = try folder.write("api/users.http", "GET {{base}}\n")
        // When discovered from the file
        let set = try EnvironmentSet.discover(near: file, root: folder.url)
        let dev = try set.environment(named: "dev")
        // Then the nearer file wins and the root's values are still visible
        #expect(dev.values["base"]?.value == "api")
        #expect(dev.values["only-root"]?.value == "r")
        #expect(dev.values["token"] == VariableValue("t", isSecret: true))
        #expect(set.files.count == 3)
    }

    @Test func nestedObjectsBecomeDottedNames() throws {
        let set = try EnvironmentSet.from(publicJSON: #"{"dev": {"auth": {"user": "u", "pass": "p"}}}"#)
        let dev = try set.environment(named: "dev")
        #expect(dev.values["auth.user"]?.value == "u")
    }

    @Test func malformedEnvironmentFilesAreErrorsNamingTheFile() {
        #expect(throws: CollectionError.badEnvironmentFile(path: "http-client.env.json",
                                                            reason: "not valid JSON (comments and trailing commas allowed)")) {
            try EnvironmentSet.from(publicJSON: "{nope")
        }
        #expect(throws: CollectionError.self) { try EnvironmentSet.from(publicJSON: #"{"dev": 3}"#) }
    }
}
