import Foundation
import Synchronization
import Testing
@testable import CourierCollections

/// Optional settings read on every request (httpyac's `request_timeout`) look only at definitions in scope: a
/// lookup that fell through to the other requests of the file cost the file's size per request, and a run of
/// 8,000 requests took 40 times as long as one of 1,000.
@Suite("Optional settings read without scanning the file")
struct InterpolatorDefinedValueTests {
    final class Calls: Sendable {
        let count = Mutex(0)
    }

    @Test func anUndefinedSettingNeverAsksTheOtherRequests() {
        let calls = Calls()
        var interpolator = Interpolator(requestName: "r", local: [], file: [VariableDefinition(name: "base", value: "x")],
                                        context: VariableContext(processEnvironment: [:]),
                                        elsewhere: { _ in calls.count.withLock { $0 += 1 }; return nil })
        #expect(interpolator.definedValue("request_timeout") == nil)
        #expect(calls.count.withLock { $0 } == 0)
        #expect(interpolator.definedValue("base") == "x")
    }

    @Test func aRunResolvesEachRequestWithoutLookingThroughTheOthers() throws {
        // Given a file of many requests and no httpyac settings
        let text = (0..<200).map { "###\nGET http://127.0.0.1:1/r\($0)\n" }.joined(separator: "\n")
        let file = HTTPFile(path: "many.http", text: text)
        let calls = Calls()
        let elsewhere = file.definitionElsewhere(than: file.requests[0])
        // When the resolver reads the optional settings for a request
        var interpolator = Interpolator(requestName: "r", local: [], file: [], context: VariableContext(processEnvironment: [:]),
                                        elsewhere: { name in calls.count.withLock { $0 += 1 }; return elsewhere(name) })
        var request = try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/tmp"),
                                   context: VariableContext(processEnvironment: [:])).resolve(file.requests[0]).request
        Resolver(file: file, baseFolder: URL(fileURLWithPath: "/tmp"), context: VariableContext(processEnvironment: [:]))
            .applyHttpyacRequestVariables(to: &request, template: file.requests[0], interpolator: &interpolator)
        // Then no lookup went to the other requests
        #expect(calls.count.withLock { $0 } == 0)
    }
}
