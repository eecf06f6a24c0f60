import CourierApp
import CourierCollections
import CourierDemo
import CourierHTTP
import Foundation
import Testing

/// `pm.cookies.jar()` in the explorer: a pre-request script's cookie goes into the jar the explorer's
/// requests send with, as in `courier run`, checked by what the demo server received.
@Suite(.serialized) struct ExplorerScriptCookieJarTests {
    @Test func aScriptsJarCookieGoesWithTheNextRequestSentFromTheExplorer() async throws {
        // Given the explorer's runner with a cookie jar, on a file whose first request's script sets a cookie
        let server = try DemoServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-jar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let base = server.baseURL.absoluteString.hasSuffix("/") ? String(server.baseURL.absoluteString.dropLast())
                                                                 : server.baseURL.absoluteString
        try Data("""
            ### set
            < {%
              pm.cookies.jar().set(pm.variables.get('base'), 'flavour', 'oat', (err, cookie) => {
                pm.test('set', () => pm.expect(err).to.equal(null));
              });
            %}
            GET {{base}}/echo?case=set

            ### after
            GET {{base}}/echo?case=after

            """.utf8).write(to: folder.appendingPathComponent("jar.http"))
        let queue = ActionQueue {}
        let runner = EffectRunner(
            configuration: .init(transport: CurlTransport(), themeFolders: [],
                                 cookies: CookieJarStore(directory: folder.appendingPathComponent("cookies"))),
            queue: queue, store: CollectionStore(overrides: ["base": base]))
        defer { runner.perform([.cancelSend]) }
        let log = ActionLog(queue)
        runner.perform([.loadCollection(path: folder.appendingPathComponent("jar.http").path)])
        let collection = try #require(await log.waitFor { if case .collectionLoaded(let c) = $0 { c } else { nil } })
        let file = collection.files[0].path
        // When both requests are sent, one after the other
        for (generation, index) in [(1, 0), (2, 1)] {
            let ref = RequestRef(file: file, index: index)
            let draft = try #require(collection.request(ref))
            runner.perform([.send(generation: generation, job: SendJob(ref: ref, draft: draft, environment: nil))])
            _ = await log.waitFor { if case .responsePaneReady(generation, let s) = $0 { s } else { nil } }
        }
        // Then the script's cookie reached the jar, and the next request carried it to the server
        let after = server.log.last { $0.query.first?.value == "after" }
        #expect(after?.header("Cookie")?.contains("flavour=oat") == true, "\(String(describing: after?.headers))")
        let first = log.actions().lazy.compactMap { if case .responsePaneReady(1, let s) = $0 { s } else { nil } }.first
        #expect(first?.info.status == 200)
    }
}
