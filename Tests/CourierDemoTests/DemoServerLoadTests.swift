import Foundation
import Testing
@testable import CourierDemo

@Suite("DemoServer under concurrent clients")
struct DemoServerLoadTests {
    @Test func fiftyClientsAtOnceAreAllServedAndCounted() async throws {
        // Given a server and fifty clients, each sending three requests on its own connection
        let server = try DemoServer.start()
        defer { server.stop() }
        let clients = 50
        let results = Results()
        // When they all run at the same time
        DispatchQueue.concurrentPerform(iterations: clients) { index in
            guard let client = try? RawHTTPClient(port: server.port) else { return }
            for round in 0..<3 {
                let status = (try? client.fetch("GET", "/flaky?key=client-\(index)"))?.status ?? 0
                results.record(index: index, round: round, status: status)
            }
        }
        // Then every client saw its own fail, fail, succeed sequence
        #expect(results.all.count == clients * 3)
        for index in 0..<clients {
            #expect(results.statuses(of: index) == [503, 503, 200])
        }
        #expect(server.connectionCount == clients)
        #expect(await eventually { server.completedCount(path: "/flaky") == clients * 3 })
    }

    @Test func stopWithManyOpenConnectionsReturnsAndClosesThemAll() async throws {
        let server = try DemoServer.start()
        let clients = try (0..<30).map { _ in try RawHTTPClient(port: server.port) }
        for client in clients { client.request("GET", "/slow?ms=600000") }
        #expect(await eventually { server.requestCount(path: "/slow") == 30 })
        server.stop()
        #expect(server.abortedCount(path: "/slow") == 30)
        for client in clients { #expect(client.readToEnd().bytes.isEmpty) }
    }

    @Test func aServerThatIsNoLongerReferencedStopsItself() throws {
        // Given a server whose only reference goes away
        var server: DemoServer? = try DemoServer.start()
        let port = try #require(server?.port)
        let client = try RawHTTPClient(port: port)
        #expect(try client.fetch("GET", "/users/1").status == 200)
        let listening = Self.listeningSockets(port: port)
        #expect(!listening.isEmpty)
        // When it is released
        server = nil
        // Then its connections are closed and its listening socket is gone. (Not "the port refuses": a
        // server of a test running beside this one may be given the freed port at once.)
        #expect(client.readToEnd().bytes.isEmpty)
        // The listener closes on the server's own thread, which may run after the connections are closed.
        var remaining = Self.listeningSockets(port: port).intersection(listening)
        for _ in 0..<600 where !remaining.isEmpty {
            Thread.sleep(forTimeInterval: 0.1)
            remaining = Self.listeningSockets(port: port).intersection(listening)
        }
        #expect(remaining.isEmpty)
    }

    /// The inodes of the sockets listening on `port` on this machine, from /proc/net/tcp and tcp6: a new
    /// socket on the same port has another inode.
    static func listeningSockets(port: UInt16) -> Set<String> {
        let hexPort = String(format: "%04X", port)
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to the end: String(contentsOfFile:) stops after the first page of a /proc table, and the
            // listening socket may come after thousands of TIME_WAIT lines that load tests leave.
            let text = String(decoding: FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() ?? Data(),
                              as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1].hasSuffix(":" + hexPort), fields[3] == "0A" else { continue }
                inodes.insert(String(fields[9]))
            }
        }
        return inodes
    }
}

/// Statuses recorded from many threads; guarded by a lock.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(index: Int, round: Int, status: Int)] = []

    func record(index: Int, round: Int, status: Int) {
        lock.withLock { entries.append((index, round, status)) }
    }

    var all: [(index: Int, round: Int, status: Int)] { lock.withLock { entries } }

    func statuses(of index: Int) -> [Int] {
        all.filter { $0.index == index }.sorted { $0.round < $1.round }.map(\.status)
    }
}
