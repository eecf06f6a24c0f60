import CourierApp
import CourierHTTP
import CourierTerminal
import Testing

/// A resize or Ctrl-L makes the run loop repaint the whole screen, even when the frame did not change.
@Suite("Explorer run loop: full repaints")
struct RepaintLoopTests {
    private func run(_ backend: TestBackend, _ state: AppState) {
        let queue = ActionQueue { backend.wake() }
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue)
        Explorer.run(backend: backend, state: state, runner: runner, queue: queue, startup: [])
    }

    @Test("Ctrl-L writes every cell again, though nothing on screen changed")
    func ctrlLWritesEveryCell() {
        let backend = TestBackend(size: Size(width: 120, height: 40))
        backend.enqueue(.key(.ctrl("l")), .key(.char("q")))
        run(backend, Fixtures.loaded())
        #expect(backend.repaintCount == 1)
        #expect(backend.draws.count == 2, "Ctrl-L drew nothing")
        let cells = backend.draws.last?.count ?? 0
        #expect(cells >= 120 * 40 - 40, "only \(cells) cells were written")
    }

    @Test("A resize there and back repaints the whole screen at the final size")
    func resizeThereAndBackRepaints() {
        let backend = TestBackend(size: Size(width: 120, height: 40))
        backend.resize(to: Size(width: 80, height: 24))
        backend.resize(to: Size(width: 120, height: 40))
        backend.enqueue(.key(.char("q")))
        run(backend, Fixtures.loaded())
        #expect(backend.repaintCount >= 1)
        #expect(backend.frame.size == Size(width: 120, height: 40))
        #expect((backend.draws.last?.count ?? 0) >= 120 * 40 - 40)
        #expect(backend.lines == Snapshot.screen(Fixtures.loaded()))
    }
}
