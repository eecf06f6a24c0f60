import Foundation

/// A Python server from `Tests/Servers/` run with the test venv's python (`make test-venv`), started once per
/// test process and shared by every test that asks for it: the grpcio server starts in about a second, too
/// slow to start per test. It prints `PORT <n>` when it listens on 127.0.0.1, and ends when its standard
/// input closes, which the end of the test process does.
public actor PythonTestServer {
    /// The grpcio server with reflection (`Tests/Servers/grpc/grpc_server.py`).
    public static let grpc = PythonTestServer(script: "Tests/Servers/grpc/grpc_server.py",
                                              imports: "grpc, grpc_reflection, grpc_tools")
    /// A raw HTTP/2 server that answers gRPC calls with hostile frames (`Tests/Servers/grpc/hostile_server.py`).
    public static let hostileGRPC = PythonTestServer(script: "Tests/Servers/grpc/hostile_server.py", imports: "h2")

    /// strawberry-graphql on uvicorn, both GraphQL WebSocket subprotocols (`Tests/Servers/graphql/graphql_server.py`).
    public static let graphQL = PythonTestServer(script: "Tests/Servers/graphql/graphql_server.py",
                                                 imports: "strawberry, starlette, uvicorn, websockets")

    let script: String
    let arguments: [String]
    let imports: String
    private var started: (process: ChildProcess, port: Int)?

    /// A server of its own (the shared ones above are for most tests); `stop()` ends it.
    public init(script: String, arguments: [String] = [], imports: String) {
        self.script = script
        self.arguments = arguments
        self.imports = imports
    }

    /// Ends a server of its own.
    public func stop() async {
        guard let process = started?.process else { return }
        process.closeInput()
        if await process.finish(limit: .seconds(30)) == nil { process.signalGroup(SIGKILL) }
        started = nil
    }

    /// The server's port, starting it on first use. Throws with what to do when the venv lacks a package.
    public func port() async throws -> Int {
        if let started, started.process.isRunning { return started.port }
        let python = CodeRunners.testVenvPython
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ServerError("\(python.path) is missing; `make test-venv` (part of `make test`) creates it")
        }
        let path = CourierCLI.packageRoot.appendingPathComponent(script).path
        let process = try ChildProcess(python, ["-u", path] + arguments, input: .open)
        let listening = await process.stdout.wait(limit: .seconds(120)) { $0.contains("PORT ") && $0.contains("\n") }
        guard listening, let line = process.stdout.text.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }),
              let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) else {
            process.signalGroup(SIGKILL)
            throw ServerError("\(script) did not start (does the venv import \(imports)? `make test-venv`): "
                              + process.stderr.text.suffix(2000))
        }
        started = (process, port)
        return port
    }

    /// `127.0.0.1:PORT`, the address gRPC commands take.
    public func address() async throws -> String { "127.0.0.1:\(try await port())" }

    /// What the server printed on standard error so far (its log), for assertions and failures.
    public func log() -> String { started?.process.stderr.text ?? "" }

    public struct ServerError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
