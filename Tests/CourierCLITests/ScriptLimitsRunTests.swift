import CourierTestSupport
import CourierDemo
import Foundation
import Testing

/// Scripts that try to outlast their time limit or outgrow memory, through `courier run`: each ends within its
/// limit, is reported as a script error at `file:line` naming the limit, fails the run (exit 1), and the run
/// goes on with the next request. Scripts that use promises run in a process of their own, killed at the limit.
@Suite("request scripts within their limits", .serialized)
struct ScriptLimitsRunTests {
    /// A run of `script` as the handler of a first request, then a second request that shows whether the run
    /// went on; the result and the file's path. Killed (status -1) after `limit`.
    static func run(_ script: String, timeout: String = "1", limit: Duration = .seconds(120)) async throws
        -> (ChildResult, String, DemoServer) {
        let server = try DemoServer.start()
        let folder = try TemporaryFolder()
        let file = try folder.write("limits.http", """
            # @name hostile
            # @script-timeout \(timeout)
            GET \(ScriptRunTests.base(server))/users

            > {%
            \(script)
            %}

            ###
            GET \(ScriptRunTests.base(server))/echo?after=yes
            """)
        let result = try await CourierCLI.run(["run", file.path], limit: limit)
        return (result, file.path, server)
    }

    /// The bytes of a WebAssembly module exporting `f`, whose body is `(loop (br 0))`, as JavaScript.
    static let loopModule = """
        [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
         0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
         0x03, 0x02, 0x01, 0x00,
         0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00,
         0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b]
        """

    @Test func aWebAssemblyLoopCannotRunAndTheRunGoesOn() async throws {
        // Given a handler that instantiates a module whose function loops for ever, and calls it
        let (result, path, server) = try await Self.run("""
            const module = new WebAssembly.Module(new Uint8Array(\(Self.loopModule)));
            new WebAssembly.Instance(module).exports.f();
            """)
        defer { server.stop() }
        // Then the run ends (before, the loop ignored the time limit and ran for ever): the handler fails on its
        // line, saying WebAssembly is not there, and the next request still went out
        #expect(!result.timedOut, "the WebAssembly loop was never stopped")
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("script error: \(path):6:") && result.stdout.contains("WebAssembly"),
                "\(result.stdout)")
        #expect(server.log.contains { $0.path == "/echo" })
    }

    @Test func aGrowingWebAssemblyMemoryIsNotAvailable() async throws {
        // Given a handler that grows a WebAssembly memory to 512 MB and writes all of it
        let (result, path, server) = try await Self.run("""
            const memory = new WebAssembly.Memory({ initial: 1, maximum: 8192 });
            memory.grow(8191);
            new Uint8Array(memory.buffer).fill(1);
            client.global.set("grown", String(memory.buffer.byteLength));
            """)
        defer { server.stop() }
        // Then it fails at once instead (before, it grew, and could grow past 4 GB)
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("script error: \(path):6:") && result.stdout.contains("WebAssembly"),
                "\(result.stdout)")
        #expect(server.log.first { $0.path == "/echo" } != nil)
    }

    @Test func anEndlessChainOfPromiseCallbacksIsStoppedAtItsLimitAndTheRunGoesOn() async throws {
        // Given a handler whose promise callback queues itself again, for ever
        let (result, path, server) = try await Self.run("""
            client.global.set("before", "yes");
            (function again() { Promise.resolve().then(again); })();
            """, limit: .seconds(90))
        defer { server.stop() }
        // Then the run ends with the handler stopped at its limit, named by its line (before, the chain ran for
        // ever and the run never ended), and the next request still went out
        #expect(!result.timedOut, "the promise chain was never stopped")
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("script error: \(path):6: script stopped after its time limit of 1 s"),
                "\(result.stdout)")
        #expect(server.log.contains { $0.path == "/echo" })
    }

    @Test func anAsyncFunctionThatAwaitsForEverIsStoppedAtItsLimitAndTheRunGoesOn() async throws {
        // Given a handler that starts an async function looping over await
        let (result, path, server) = try await Self.run("""
            (async function () { for (;;) await null; })();
            client.global.set("after", "yes");
            """, limit: .seconds(90))
        defer { server.stop() }
        // Then it is stopped at its limit and the run fails and goes on (before, the loop ran for ever)
        #expect(!result.timedOut, "the async loop was never stopped")
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("script error: \(path):6: script stopped after its time limit of 1 s"),
                "\(result.stdout)")
        #expect(server.log.contains { $0.path == "/echo" })
    }

    @Test func binaryDataPastTheLimitIsARangeErrorAndMemoryStaysBoundedInEitherProcess() async throws {
        // Given two handlers that keep 64 MB typed arrays until they hold 512 MB, each written: a plain one,
        // which runs in Courier's process, and an httpyac one that awaits first, which runs in a process of its
        // own
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let file = try folder.write("limits.http", """
            # @script-timeout 30
            GET \(ScriptRunTests.base(server))/users

            > {%
            const kept = [];
            for (let i = 0; i < 8; i++) kept.push(new Uint8Array(64 << 20).fill(1));
            %}

            ###
            # @script-timeout 30
            GET \(ScriptRunTests.base(server))/users?second=1

            {{
              await null;
              const kept = [];
              for (let i = 0; i < 8; i++) kept.push(new Uint8Array(64 << 20).fill(1));
            }}
            """)
        let (result, peak) = try await PeakMemory.run(["run", file.path], limit: .seconds(300))
        // Then the fifth allocation of each fails, naming the limit, and no process ever held much more than
        // it (before, all 512 MB were allocated and the handlers passed)
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        for line in [6, 16] {
            #expect(result.stdout.contains("script error: \(file.path):\(line): RangeError: request scripts may "
                                           + "allocate at most 256 MB of binary data"), "\(result.stdout)")
        }
        #expect(peak > 0 && peak < 420 << 20, "peak resident set \(peak >> 20) MB")
    }
}
