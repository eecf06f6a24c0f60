import Foundation

/// One tmux server on a socket of its own running one command in a pane, for driving the explorer as
/// a user would and reading back the screen, the pane title and tmux's paste buffers.
final class ReliabilityTmux {
    let socket = "courier-rel-\(UUID().uuidString.prefix(8))"
    private let tmux = URL(fileURLWithPath: Reliability.tool("tmux") ?? "/usr/bin/tmux")

    /// Starts `command` (run by tmux's shell) in a detached `width`×`height` session. OSC 52 is accepted
    /// (set-clipboard on), so a clipboard write by the app would show up as a paste buffer.
    init(command: String, width: Int = 120, height: Int = 40) throws {
        _ = try run(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "rel",
                     command])
        _ = try run(["set-option", "-g", "set-clipboard", "on"])
        _ = try run(["set-option", "-g", "remain-on-exit", "on"])
    }

    /// Runs a tmux command against this server.
    @discardableResult
    func run(_ arguments: [String]) throws -> Reliability.ProcessResult {
        try Reliability.run(tmux, ["-L", socket] + arguments, limit: 20)
    }

    /// The pane's text as shown now.
    func screen() -> String { (try? run(["capture-pane", "-p", "-t", "rel"]).stdoutText) ?? "" }
    /// The pane title, which OSC 0/2 from the app would change.
    func title() -> String { ((try? run(["display-message", "-p", "-t", "rel", "#{pane_title}"]).stdoutText) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines) }
    /// tmux's paste buffers, which an OSC 52 clipboard write would add to.
    func buffers() -> String { (try? run(["list-buffers"]).stdoutText) ?? "" }
    /// The pid of the pane's process (the shell that runs the command).
    func panePID() -> pid_t? {
        (try? run(["display-message", "-p", "-t", "rel", "#{pane_pid}"]).stdoutText)
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Sends keys as tmux names them (`Enter`, `C-s`, `j`).
    func send(_ keys: String...) { _ = try? run(["send-keys", "-t", "rel"] + keys) }

    /// Resizes the window (and so the pane).
    func resize(width: Int, height: Int) {
        _ = try? run(["resize-window", "-t", "rel", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits (bounded) until the screen contains `text`.
    @discardableResult
    func waitFor(_ text: String, limit: Double = 15) -> Bool {
        Reliability.waitFor(limit: limit) { screen().contains(text) }
    }

    /// Opens the request `name`, `steps` rows below the first request (which the explorer selects and
    /// opens at start), waiting for each step to show on screen so that no key is read before the app is
    /// ready for it. The first request is only focused (`2`); another is opened with Enter, which sends it.
    @discardableResult
    func open(_ name: String, steps: Int = 1) -> Bool {
        guard waitFor(name) else { return false }
        usleep(200_000)
        for _ in 0..<steps { send("j") }
        usleep(200_000)
        send(steps == 0 ? "2" : "Enter")
        return waitFor("Request · \(name)")
    }

    /// Ends the tmux server and everything in it.
    func kill() { _ = try? run(["kill-server"]) }

    /// The pid of the first child of `parent` (the app under the pane's shell), read from /proc.
    static func child(of parent: pid_t) -> pid_t? {
        let path = "/proc/\(parent)/task/\(parent)/children"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { pid_t($0) }
    }
}
