import Foundation
import Testing
import CourierTerminal
import CourierTestSupport

/// The program the tmux tests run inside a tmux pane: this same test binary, started by
/// `TestInOwnProcess.command` filtered to this one test. In any other process it does nothing.
/// It shows what it receives, so the tests can read it back with `tmux capture-pane`.
@Test func tmuxChildProgramWhenStartedByTheTmuxTests() throws {
    guard let mode = TestInOwnProcess.mode("tmuxChildProgramWhenStartedByTheTmuxTests") else { return }
    let backend = try CursesBackend()
    var last = "none"
    var count = 0
    func render() {
        let size = backend.size
        var frame = Buffer(size: size)
        let block = Block(title: "Courier tmux check", borders: .rounded)
        block.render(into: &frame, area: frame.area)
        let inner = block.inner(frame.area)
        frame.write("ready size: \(size.width)x\(size.height)", x: inner.x, y: inner.y)
        frame.write("日本語 😀 wide", x: inner.x, y: inner.y + 1)
        frame.write("\u{1B}]0;pwned\u{07}\u{1B}]52;c;aGk=\u{07}\u{9B}2J", x: inner.x, y: inner.y + 2)
        frame.write("last: \(last)", x: inner.x, y: inner.y + 3)
        frame.write("events: \(count)", x: inner.x, y: inner.y + 4)
        backend.draw(frame, cursor: nil)
    }
    render()
    if mode == "crash" { abort() }
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        guard let event = backend.nextEvent(timeout: .seconds(1)) else { continue }
        count += 1
        switch event {
        case .key(let key):
            if key == .char("q") { backend.restore(); return }
            if key == .ctrl("z") { backend.suspend() }
            last = "key \(key)"
        case .paste(let text): last = "paste \(text)"
        case .mouse(let mouse): last = "mouse \(mouse.kind) \(mouse.position.x),\(mouse.position.y)"
        case .resize(let size): last = "resize \(size.width)x\(size.height)"
        }
        render()
    }
    backend.restore()
}
