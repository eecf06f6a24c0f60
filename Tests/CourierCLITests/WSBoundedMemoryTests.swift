import CourierDemo
import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// `courier ws` against peers that send faster than it can answer or print: its memory stays flat. Pings are
/// answered without queueing a pong per ping, and when printing falls behind the socket is no longer read
/// (back-pressure), so the peer waits on TCP instead of the client buffering. Peaks are VmHWM, sampled.
@Suite("courier ws in bounded memory", .serialized)
struct WSBoundedMemoryTests {
    final class Progress: Sendable {
        let sent = Atomic<Int>(0)
        private let finished = Atomic<Bool>(false)
        /// Whether the server sent every frame and its close.
        var done: Bool { finished.load(ordering: .relaxed) }
        func finish() { finished.store(true, ordering: .relaxed) }
    }

    /// `count` server frames (unmasked) of `opcode` with a `size`-byte payload, in writes of about 1 MB, then a
    /// close frame (1000); then the server reads until the client hangs up.
    static func flood(opcode: UInt8, size: Int, count: Int, progress: Progress) throws -> LoopbackUpgradeServer {
        let frame = [0x80 | opcode, UInt8(size)] + [UInt8](repeating: UInt8(ascii: "x"), count: size)
        let perWrite = (1 << 20) / frame.count
        let write = Data(Array(repeating: frame, count: perWrite).joined())
        return try LoopbackUpgradeServer { fd, request, _ in
            acceptUpgrade(fd, request)
            var frames = 0
            while frames < count, LoopbackSocket.send(fd, write) {
                frames += perWrite
                progress.sent.store(frames, ordering: .relaxed)
            }
            LoopbackSocket.send(fd, Data([0x88, 0x02, 0x03, 0xE8]))
            progress.finish()
            _ = readRaw(fd, seconds: 120)
        }
    }

    @Test func aPingFloodFromAPeerThatNeverReadsLeavesMemoryFlat() async throws {
        // Given a peer that sends two million pings (about 250 MB) and reads none of the answers
        let progress = Progress()
        let server = try Self.flood(opcode: 0x9, size: 125, count: 2_000_000, progress: progress)
        defer { server.stop() }
        // When courier ws takes them all, up to the peer's close (standard input stays open: its end would close
        // the session once messages stop coming)
        let courier = try CourierCLI.start(["ws", server.url("/pings").absoluteString], input: .open)
        defer { courier.closeInput() }
        let (status, peak) = await courier.finishSamplingPeakMemory(limit: .seconds(240))
        // Then it ends with the close, having answered without a queue of pongs (before, one per ping: 260 MB)
        #expect(status == 0, "\(courier.stderr.text)")
        #expect(progress.done)
        #expect(peak > 0 && peak < 100 << 20, "peak resident set \(peak >> 20) MB")
    }

    @Test func aFastStreamOfSmallFramesWaitsForTheOutputInsteadOfBuffering() async throws {
        // Given a peer that sends two million 100-byte messages as fast as it can (about 200 MB)
        let progress = Progress()
        let server = try Self.flood(opcode: 0x1, size: 100, count: 2_000_000, progress: progress)
        defer { server.stop() }
        // And courier ws printing into a pipe nobody reads yet
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("out").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        defer { close(reader) }
        let courier = try ChildProcess(URL(fileURLWithPath: "/bin/sh"),
                                       ["-c", #"exec "$0" ws "$1" > "$2""#, CourierCLI.executable.path,
                                        server.url("/messages").absoluteString, fifo],
                                       environment: CourierCLI.baseEnvironment, input: .open)
        defer { courier.closeInput() }
        // When the peer has sent everything, or has been held up for a while (the client stopped reading),
        // the pipe starts being read. The wait only decides when reading starts; nothing is timed.
        var last = (sent: -1, at: ContinuousClock.now)
        while !progress.done, courier.isRunning {
            let sent = progress.sent.load(ordering: .relaxed)
            if sent != last.sent { last = (sent, ContinuousClock.now) }
            if ContinuousClock.now - last.at > .seconds(3) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) & ~O_NONBLOCK)
        let drained = Thread {
            var scratch = [UInt8](repeating: 0, count: 1 << 16)
            while read(reader, &scratch, scratch.count) > 0 {}
        }
        drained.start()
        let (status, peak) = await courier.finishSamplingPeakMemory(limit: .seconds(240))
        // Then every message was printed in the end, while the process never held more than a little of them
        // (before, it read the whole flood into memory while its output was stuck)
        #expect(status == 0, "\(courier.stderr.text)")
        #expect(progress.done)
        #expect(peak > 0 && peak < 100 << 20, "peak resident set \(peak >> 20) MB")
    }
}
