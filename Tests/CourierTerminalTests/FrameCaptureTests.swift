import Foundation
import Testing
@testable import CourierTerminal

/// What curses writes for one frame reaches the terminal as one write, however many writes curses made
/// (ncurses 6.4 makes about one per row). A packet socket stands for the terminal: each write is one packet.
struct FrameCaptureTests {
    @Test func theWritesOfOneFrameReachTheTerminalAsOneWrite() throws {
        // Given a terminal that keeps write boundaries, and curses' own descriptor on it
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &ends) == 0)
        let (terminal, reader) = (ends[0], ends[1])
        let cursesFD = dup(terminal)
        defer { close(terminal); close(reader); close(cursesFD) }
        var capture = try #require(FrameCapture(cursesFD: cursesFD, terminalFD: terminal))
        defer { capture.close() }
        for frame in ["first", "second"] {
            // When curses writes a frame in three pieces while the capture is on
            #expect(capture.begin())
            for piece in ["\(frame): top,", " middle,", " bottom"] { _ = write(cursesFD, piece, piece.utf8.count) }
            // Then nothing reached the terminal yet
            var buffer = [UInt8](repeating: 0, count: 4096)
            #expect(recv(reader, &buffer, buffer.count, Int32(MSG_DONTWAIT)) == -1)
            capture.end()
            // And at the end the whole frame arrives as one write
            let count = recv(reader, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "\(frame): top, middle, bottom")
            #expect(recv(reader, &buffer, buffer.count, Int32(MSG_DONTWAIT)) == -1)
        }
        // And after a frame curses' descriptor is the terminal again
        _ = write(cursesFD, "direct", 6)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(reader, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "direct")
    }
}
