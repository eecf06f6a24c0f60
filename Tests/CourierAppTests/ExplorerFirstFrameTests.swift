import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// The explorer's first frame is drawn whole: the collection's tree is in it, not filled in a frame later
/// (on a terminal that showed the status bar and empty panes before the requests).
@Suite("Explorer first frame")
struct ExplorerFirstFrameTests {
    /// Keeps the first frame drawn and quits as soon as the loop asks for input.
    final class FirstFrameBackend: TerminalBackend, Sendable {
        private let first = Mutex<Buffer?>(nil)
        let size: Size

        init(size: Size) { self.size = size }

        func draw(_ buffer: Buffer, cursor: Position?) { first.withLock { if $0 == nil { $0 = buffer } } }
        func nextEvent(timeout: Duration?) -> InputEvent? { .key(.char("q")) }
        func wake() {}
        func restore() {}

        var firstText: String { first.withLock { $0?.lines().joined(separator: "\n") ?? "" } }
    }

    /// Notes what `probe` says at the first frame (whether the transport had begun to be made, whether a file
    /// was still there), and quits.
    final class ProbeBackend: TerminalBackend, Sendable {
        let size: Size
        let probe: @Sendable () -> Bool
        let atFirstFrame = Mutex<Bool?>(nil)

        init(size: Size, probe: @escaping @Sendable () -> Bool) {
            self.size = size
            self.probe = probe
        }

        func draw(_ buffer: Buffer, cursor: Position?) {
            let value = probe()
            atFirstFrame.withLock { if $0 == nil { $0 = value } }
        }
        func nextEvent(timeout: Duration?) -> InputEvent? { .key(.char("q")) }
        func wake() {}
        func restore() {}
    }

    @Test("libcurl is set up after the first frame, not beside it")
    func theTransportIsMadeAfterTheFirstFrame() async throws {
        // Given a collection and an explorer whose transport is made on demand (libcurl and OpenSSL start-up)
        let folder = try TemporaryFolder("first-frame-order")
        let file = try folder.write("api.http", "### alphaRequest\nGET http://127.0.0.1:9/alpha\n")
        let state = AppState(size: Size(width: 120, height: 40), collectionPath: file.path)
        let transportStarted = Mutex(false)
        let backend = ProbeBackend(size: state.size) { transportStarted.withLock { $0 } }
        let queue = ActionQueue { backend.wake() }
        let transport = DeferredTransport {
            transportStarted.withLock { $0 = true }
            return CurlTransport()
        }
        let runner = EffectRunner(configuration: .init(transport: transport, themeFolders: []), queue: queue)
        // When the explorer starts
        await OwnThread.run {
            Explorer.run(backend: backend, state: state, runner: runner, queue: queue, firstScreenWait: .seconds(60))
        }
        // Then nothing had begun making the transport when the first frame was drawn, and it is made after it
        #expect(backend.atFirstFrame.withLock { $0 } == false)
        #expect(await LoopbackServer.eventually { transportStarted.withLock { $0 } })
    }

    @Test("the HTTP cache's leftovers are collected after the first frame, not before it")
    func cacheHousekeepingWaitsForTheFirstFrame() async throws {
        // Given an HTTP cache folder holding a body no entry names, opened for housekeeping later
        let folder = try TemporaryFolder("first-frame-cache")
        let file = try folder.write("api.http", "### alphaRequest\nGET http://127.0.0.1:9/alpha\n")
        let cacheFolder = folder.url.appendingPathComponent("http")
        try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
        let orphan = cacheFolder.appendingPathComponent(String(repeating: "cd", count: 16) + ".0badf00d.body")
        try Data("left behind".utf8).write(to: orphan)
        let cache = HTTPCacheMiddleware(store: try HTTPCacheStore(directory: cacheFolder, orphanGrace: 0,
                                                                  housekeeping: .later))
        let state = AppState(size: Size(width: 120, height: 40), collectionPath: file.path)
        let backend = ProbeBackend(size: state.size) { FileManager.default.fileExists(atPath: orphan.path) }
        let queue = ActionQueue { backend.wake() }
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: [], cache: cache),
                                  queue: queue)
        // When the explorer starts
        await OwnThread.run {
            Explorer.run(backend: backend, state: state, runner: runner, queue: queue, firstScreenWait: .seconds(60))
        }
        // Then the folder was untouched at the first frame, and is collected after it
        #expect(backend.atFirstFrame.withLock { $0 } == true)
        #expect(await LoopbackServer.eventually { !FileManager.default.fileExists(atPath: orphan.path) })
    }

    @Test("the first frame drawn already lists the collection's requests")
    func firstFrameShowsTheTree() async throws {
        // Given a collection file of three requests
        let folder = try TemporaryFolder("first-frame")
        let file = try folder.write("api.http", """
            ### alphaRequest
            GET http://127.0.0.1:9/alpha

            ### betaRequest
            GET http://127.0.0.1:9/beta

            ### gammaRequest
            GET http://127.0.0.1:9/gamma
            """)
        let state = AppState(size: Size(width: 120, height: 40), collectionPath: file.path)
        let backend = FirstFrameBackend(size: state.size)
        let queue = ActionQueue { backend.wake() }
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue)
        // When the explorer starts with its usual start-up effects (the collection read in the background;
        // the first frame may wait a minute for it here, a bound for a loaded machine)
        await OwnThread.run {
            Explorer.run(backend: backend, state: state, runner: runner, queue: queue, firstScreenWait: .seconds(60))
        }
        // Then its very first frame shows every request, as one frame with the status bar
        let screen = backend.firstText
        #expect(screen.contains("alphaRequest"), "\(screen)")
        #expect(screen.contains("gammaRequest"), "\(screen)")
        #expect(screen.contains("q quit"), "\(screen)")
    }
}
