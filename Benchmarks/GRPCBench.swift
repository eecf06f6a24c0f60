import CourierGRPC
import CourierHTTP
import Dispatch
import Foundation

/// gRPC unary calls per second against the tests' grpcio server (Tests/Servers/grpc, run with the test venv's
/// python, which `make bench` creates), by Courier's client in process (one call at a time, then 16 at once)
/// and by a Python grpcio client making the same calls on one channel, the reference. Each figure is the best
/// of three rounds.
enum GRPCBench {
    static let calls = 2000
    static let concurrency = 16
    static let python = ".build/test-venv/bin/python3"

    static func run() {
        print("grpc: unary calls per second (\(calls) calls; best of 3 rounds)")
        guard FileManager.default.isExecutableFile(atPath: python), let (server, port) = startServer() else {
            print("   skipped: the test venv's grpcio server did not start (make test-venv)")
            return
        }
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let address = "127.0.0.1:\(port)"
        guard let (pool, target) = schema(address) else {
            print("   skipped: reflection failed")
            return
        }
        let sequential = best { timeCourier(pool: pool, target: target, inFlight: 1) }
        let parallel = best { timeCourier(pool: pool, target: target, inFlight: concurrency) }
        let reference = best { timePython(address, inFlight: 1) }
        let referenceParallel = best { timePython(address, inFlight: concurrency) }
        func rate(_ seconds: Double?) -> String {
            seconds.map { String(format: "%8.0f calls/s", Double(calls) / $0) } ?? "failed"
        }
        print("   courier, 1 in flight:           \(rate(sequential))")
        print("   courier, \(concurrency) in flight:          \(rate(parallel))")
        print("   python grpcio, 1 in flight:     \(rate(reference))")
        print("   python grpcio, \(concurrency) in flight:    \(rate(referenceParallel))")
        if let sequential, let reference {
            print(String(format: "   ratio courier / python grpcio: %.2fx (1 in flight)", reference / sequential))
        }
        if let parallel, let referenceParallel {
            print(String(format: "   ratio courier / python grpcio: %.2fx (%d in flight)", referenceParallel / parallel,
                         concurrency))
        }
    }

    private static func best(_ round: () -> Double?) -> Double? {
        (0..<3).compactMap { _ in round() }.min()
    }

    private static func startServer() -> (Process, Int)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", "Tests/Servers/grpc/grpc_server.py"]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return (process, port)
    }

    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            result.set(await work())
            done.signal()
        }
        done.wait()
        return result.get()!
    }

    private static func schema(_ address: String) -> (DescriptorPool, GRPCTarget)? {
        blocking {
            guard let target = try? GRPCTarget(address) else { return nil }
            let reflection = ServerReflection(transport: CurlTransport(), target: target, options: GRPCCallOptions())
            guard let pool = try? await reflection.schema(for: ["courier.test.Echo"]).pool else { return nil }
            return (pool, target)
        }
    }

    private static func timeCourier(pool: DescriptorPool, target: GRPCTarget, inFlight: Int) -> Double? {
        blocking {
            let client = GRPCClient(transport: CurlTransport())
            guard let method = try? pool.method("courier.test.Echo/Say") else { return nil }
            let start = Date()
            let failures = await withTaskGroup(of: Int.self) { group in
                for lane in 0..<inFlight {
                    group.addTask {
                        var failed = 0
                        for _ in stride(from: lane, to: calls, by: inFlight) {
                            do {
                                var ok = false
                                for try await part in try client.call(method, on: target, pool: pool,
                                                                      messages: [#"{"message":"hi"}"#],
                                                                      options: GRPCCallOptions(), retry: .none) {
                                    if case .end(let status, _, _) = part { ok = status.isOK }
                                }
                                if !ok { failed += 1 }
                            } catch {
                                failed += 1
                            }
                        }
                        return failed
                    }
                }
                return await group.reduce(0, +)
            }
            return failures == 0 ? Date().timeIntervalSince(start) : nil
        }
    }

    /// The Python client sends the same request bytes (`{"message": "hi"}` serialized) through grpcio's generic
    /// unary call, so it needs no generated code.
    private static func timePython(_ address: String, inFlight: Int) -> Double? {
        let script = """
            import sys, grpc
            from concurrent.futures import ThreadPoolExecutor
            address, calls, lanes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            channel = grpc.insecure_channel(address)
            say = channel.unary_unary("/courier.test.Echo/Say")
            request = b"\\x0a\\x02hi"
            def lane(index):
                for _ in range(index, calls, lanes):
                    say(request)
            with ThreadPoolExecutor(lanes) as pool:
                list(pool.map(lane, range(lanes)))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, address, String(calls), String(inFlight)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? Date().timeIntervalSince(start) : nil
    }
}

/// A value handed from a task to the thread waiting for it.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private var value: T?
    private let lock = NSLock()
    func set(_ newValue: T) { lock.lock(); value = newValue; lock.unlock() }
    func get() -> T? { lock.lock(); defer { lock.unlock() }; return value }
}
