import CourierTestSupport
import Foundation
import Testing

/// Postman's variable scopes as its sandbox reference orders them (narrowest wins: local, data, environment,
/// collection, global), read by a script through `courier run`, with one name defined in several scopes.
@Suite struct PostmanVariableScopeRunTests {
    @Test func pmVariablesGetReadsTheNarrowestScopeAndEachScopeItsOwn() async throws {
        // Given one name in the collection (the file), the environment and a data row
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("http-client.env.json", #"{"dev": {"region": "from-environment", "tier": "env-tier"}}"#)
        try folder.write("rows.csv", "region\nfrom-data\n")
        try folder.write("api.http", """
            @region = from-collection
            @tier = collection-tier
            @only = collection-only
            GET \(server.base)/scopes

            > {%
              pm.test('data wins', () => pm.expect(pm.variables.get('region')).to.equal('from-data'));
              pm.test('environment over collection', () => pm.expect(pm.variables.get('tier')).to.equal('env-tier'));
              pm.test('collection alone', () => pm.expect(pm.variables.get('only')).to.equal('collection-only'));
              pm.test('environment scope', () => pm.expect(pm.environment.get('region')).to.equal('from-environment'));
              pm.test('collection scope', () => pm.expect(pm.collectionVariables.get('tier')).to.equal('collection-tier'));
              pm.test('iteration data', () => pm.expect(pm.iterationData.get('region')).to.equal('from-data'));
              pm.test('var is an environment value', () => pm.expect(pm.environment.get('team')).to.equal('core'));
            %}
            """)
        // When it runs with the data file and a --var
        let run = try await CourierCLI.run(["run", "api.http", "--all", "--env", "dev", "--data", "rows.csv",
                                            "--var", "team=core"], in: folder.url)
        // Then each read found the scope Postman's order gives
        let output = run.stdout + run.stderr
        #expect(run.status == 0, "\(output)")
        for name in ["data wins", "environment over collection", "collection alone", "environment scope",
                     "collection scope", "iteration data", "var is an environment value"] {
            #expect(output.contains("✓ \(name)"), "\(name): \(output)")
        }
    }
}
