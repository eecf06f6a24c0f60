/// What can go wrong setting up a terminal.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input or output is not a terminal (piped or redirected).
    case notATerminal(fileDescriptor: Int32)
    /// curses could not start for this terminal type (unknown TERM, no terminfo entry).
    case cannotInitialize(term: String)
    /// Another curses backend is already running in this process.
    case alreadyActive
    /// A system call failed while setting up.
    case systemCall(name: String, errno: Int32)

    public var description: String {
        switch self {
        case .notATerminal(let fd): "file descriptor \(fd) is not a terminal"
        case .cannotInitialize(let term): "cannot start the terminal interface for TERM=\(term)"
        case .alreadyActive: "a terminal interface is already running"
        case .systemCall(let name, let errno): "\(name) failed (errno \(errno))"
        }
    }
}
