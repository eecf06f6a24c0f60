import CourierTestSupport
import Foundation

/// One tmux server on a socket of its own running one command in a pane, for driving the explorer as
/// a user would and reading back the screen, the pane title and tmux's paste buffers.
final class ReliabilityTmux: Sendable {
    let server: TmuxServer
    /// The session every command targets.
    var target: String { server.target }

    /// Starts `command` (run by tmux's shell) in a detached `width`×`height` session. OSC 52 is accepted
    /// (set-clipboard on), so a clipboard write by the app would show up as a paste buffer; a pane whose
    /// program ended stays readable (remain-on-exit).
    init(command: String, width: Int = 120, height: Int = 40) async throws {
        server = try await TmuxServer(command: command, width: width, height: height,
                                      options: [("set-clipboard", "on"), ("remain-on-exit", "on")])
    }

    /// Runs a tmux command against this server.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String { try await server.run(arguments) }

    /// The pane's text as shown now.
    func screen() async -> String { await server.screen() }
    /// The pane title, which OSC 0/2 from the app would change.
    func title() async -> String { await server.format("pane_title") }
    /// tmux's paste buffers, which an OSC 52 clipboard write would add to.
    func buffers() async -> String { (try? await run(["list-buffers"])) ?? "" }
    /// The pid of the pane's process (the shell that runs the command).
    var panePID: pid_t { server.panePid }

    /// Sends keys as tmux names them (`Enter`, `C-s`, `j`).
    func send(_ keys: String...) async { try? await server.send(keys) }

    /// Resizes the window (and so the pane).
    func resize(width: Int, height: Int) async { try? await server.resize(width: width, height: height) }

    /// Waits (bounded, generously: a parallel run on two cores is slow) until the screen contains `text`.
    @discardableResult
    func waitFor(_ text: String, limit: Double = 60) async -> Bool {
        await server.waitFor(limit: .seconds(max(limit, 60))) { $0.contains(text) }.0
    }

    /// Opens the request `name`, `steps` rows below the first request (which the explorer selects and
    /// opens at start), waiting for each step to show on screen so that no key is read before the app is
    /// ready for it. The first request is only focused (`2`); another is opened with Enter, which sends it.
    @discardableResult
    func open(_ name: String, steps: Int = 1) async -> Bool {
        guard await waitFor(name) else { return false }
        try? await Task.sleep(for: .milliseconds(200))
        for _ in 0..<steps { await send("j") }
        try? await Task.sleep(for: .milliseconds(200))
        await send(steps == 0 ? "2" : "Enter")
        return await waitFor("Request · \(name)")
    }

    /// Waits (bounded) until the pane's program has ended. The pane stays (remain-on-exit) and is blank then,
    /// so tmux is asked, not the screen.
    @discardableResult
    func waitForExit(limit: Double = 60) async -> Bool {
        await server.eventually(limit: .seconds(limit)) { await server.format("pane_dead") == "1" }
    }

    /// Ends the tmux server and everything in it.
    func kill() { server.stop() }

    /// The pid of the first child of `parent` (the app under the pane's shell), read from /proc.
    static func child(of parent: pid_t) -> pid_t? {
        let path = "/proc/\(parent)/task/\(parent)/children"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { pid_t($0) }
    }
}

extension ReliabilityTmux {
    /// The screen as last read: for failure messages, which cannot await.
    var lastScreen: String { server.lastScreen }
}
