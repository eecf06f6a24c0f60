@testable import CourierApp
import CourierCollections
import CourierHTTP
import CourierTestSupport
import Foundation
import Testing

/// The explorer sends a GRPC request as `courier run` does (GRPCRequestCall) against the grpcio server with
/// reflection: a unary call's reply shows in the Response pane as JSON, and its attempt in the Log (a method
/// that streams goes on in the live pane instead: GRPCStreamPaneTests).
struct ExplorerGRPCTests {
    @Test func aUnaryGRPCRequestIsCalledAndItsReplyShowsAsJSON() async throws {
        // Given a GRPC request of a unary method
        let port = try await PythonTestServer.grpc.port()
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let file = harness.folder.appendingPathComponent("grpc.http")
        try Data("""
            GRPC 127.0.0.1:\(port)/courier.test.Echo/Say

            {"message": "live", "count": 3}
            """.utf8).write(to: file)
        harness.runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await harness.waitFor {
            if case .collectionLoaded(let collection) = $0 { collection } else { nil }
        })
        let ref = RequestRef(file: collection.files[0].path, index: 0)
        #expect(collection.request(ref)?.kind == .grpc)
        // When it is sent
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: ref, draft: try #require(collection.request(ref)),
                                                                  environment: nil))])
        let pane = try #require(await harness.waitFor {
            if case .responsePaneReady(1, let pane) = $0 { pane } else { nil }
        })
        // Then the reply is the body, and the attempt reached the Log's events
        #expect(pane.info.status == 200)
        let body = String(decoding: pane.body.bytes, as: UTF8.self)
        #expect(body.contains(#""message":"live""#) && body.contains(#""count":3"#), "\(body)")
        #expect(harness.actions().contains { action in
            if case .clientEvent(.attemptFinished) = action { true } else { false }
        })
    }
}
