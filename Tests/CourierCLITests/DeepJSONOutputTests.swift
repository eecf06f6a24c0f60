import CourierTestSupport
import CourierDemo
import Foundation
import Synchronization
import Testing

/// Pretty-printing deeply nested JSON stays linear: indentation stops growing past a fixed depth (with a
/// note), where a million nested `{"a":` used to print 2.75 GB of spaces.
@Suite("deep JSON output", .serialized)
struct DeepJSONOutputTests {
    /// What came out of standard output, counted.
    final class Tally: Sendable {
        struct State {
            var bytes = 0
            var lines = 0
            var indent = 0
            var widestIndent = 0
        }
        let state = Mutex(State())

        func take(_ chunk: Data) {
            state.withLock { state in
                state.bytes += chunk.count
                for byte in chunk {
                    if byte == 0x0A {
                        state.lines += 1
                        state.indent = 0
                    } else if byte == 0x20, state.indent >= 0 {
                        state.indent += 1
                        state.widestIndent = max(state.widestIndent, state.indent)
                    } else {
                        state.indent = -1
                    }
                }
            }
        }
    }

    @Test func aMillionNestedObjectsPrintInOutputLinearInTheBody() async throws {
        // Given a body of 700,000 nested {"a": (4.2 MB: spilled to disk and printed chunk by chunk)
        let server = try DemoServer.start()
        defer { server.stop() }
        // When courier prints it
        let run = try await CourierCLI.run(["send", server.baseURL.appendingPathComponent("chaos/deep-json").absoluteString
                                            + "?depth=700000&kind=object"])
        let tally = Tally()
        tally.take(run.stdoutData)
        // Then every level is on its own line, no line is indented past 40 levels, the output is a small
        // multiple of the body (it used to be 2.75 GB), and standard error says why the indent stopped
        let result = tally.state.withLock { $0 }
        #expect(run.status == 0)
        #expect(result.lines >= 700_000)
        #expect(result.widestIndent <= 80)
        #expect(result.bytes < 50 * 4_200_000)
        #expect(run.stderr.contains("nesting deeper than 40 levels"))
    }
}
