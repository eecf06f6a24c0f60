@preconcurrency import CNcursesw
import Glibc
import Synchronization
import CourierSecurity

/// The real terminal, through ncursesw. Draws by writing only the cells that changed since the last
/// frame, reads keys, mouse, bracketed paste and resizes, and can be woken from any thread through a
/// self-pipe so the app redraws on network results without polling.
///
/// Every curses call happens with `state` locked, so the backend is safe to share (`wake()` from the
/// effect runner's threads); the loop waits in `poll` without holding the lock.
public final class CursesBackend: TerminalBackend, Sendable {
    struct State {
        var screen: OpaquePointer?
        var inputFile: UnsafeMutablePointer<FILE>?
        var outputFile: UnsafeMutablePointer<FILE>?
        var active = false
        var previous: Buffer?
        var pairs: [PairKey: Int32] = [:]
        var nextPair: Int32 = 1
        /// Each style's attributes and colour pair once worked out: a frame asks for them cell by cell, and
        /// mapping a theme's colours to the 256 of a terminal without direct colour was a twentieth of a first
        /// frame's time.
        var renditions: [Style: (attr_t, Int32)] = [:]
        var pending: [InputEvent] = []
        var cursorShown: Bool?
        var lastDrawCellCount = 0
        var drawCount = 0
        /// The frame file (`FrameCapture`) a frame is drawn into before it reaches the terminal in one write.
        var capture: FrameCapture?
    }

    struct PairKey: Hashable {
        var foreground: Int32
        var background: Int32
    }

    let state: Mutex<State>
    let inputFD: Int32
    let outputFD: Int32
    /// Read end and write end of the self-pipe that `wake()` and the signal handlers write to.
    let pipeRead: Int32
    let pipeWrite: Int32
    let handlesSignals: Bool
    /// The colours this terminal gets, decided once at start.
    public let colorDepth: ColorDepth
    let decoder: InputDecoder

    /// Mouse reporting and bracketed paste off: what undoes our setup beyond curses' own.
    static let disableReports = "\u{1B}[?2004l\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l"
    /// Bracketed paste on, and clicks and wheel reported in SGR encoding. Mouse reports are requested
    /// directly rather than through `mousemask`: curses merges a burst of reports into one event,
    /// losing wheel steps, so the decoder reads them instead.
    static let enableReports = "\u{1B}[?2004h\u{1B}[?1000h\u{1B}[?1006h"
    /// Only one curses screen can be live in a process: the signal handlers are process-wide.
    static let live = Mutex(false)

    /// Takes over the terminal on `input`/`output` (standard input and output by default).
    /// - Parameters:
    ///   - term: the terminal type; `TERM` when nil.
    ///   - environment: where `NO_COLOR`, `COLORTERM`, `TERM` and the terminfo folders are read; the process
    ///     environment when nil.
    ///   - handleSignals: restore the terminal on SIGINT/SIGTERM/SIGHUP/crash and handle SIGTSTP/SIGCONT.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, term: String? = nil,
                environment: [String: String]? = nil, handleSignals: Bool = true) throws {
        guard isatty(input) == 1 else { throw TerminalError.notATerminal(fileDescriptor: input) }
        guard isatty(output) == 1 else { throw TerminalError.notATerminal(fileDescriptor: output) }
        let claimed = CursesBackend.live.withLock { live -> Bool in
            if live { return false }
            live = true
            return true
        }
        guard claimed else { throw TerminalError.alreadyActive }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            CursesBackend.live.withLock { $0 = false }
            throw TerminalError.systemCall(name: "pipe2", errno: errno)
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let env = environment ?? ProcessEnvironment.values(["NO_COLOR", "COLORTERM", "TERM", "TERMINFO",
                                                            "TERMINFO_DIRS", "HOME"])
        let termName = TerminfoDatabase.preferredName(term: term ?? env["TERM"] ?? "xterm-256color", environment: env)
        inputFD = input
        outputFD = output
        pipeRead = fds[0]
        pipeWrite = fds[1]
        handlesSignals = handleSignals
        decoder = CursesKeys.decoder

        var shellModes = termios()
        tcgetattr(input, &shellModes)
        CursesBackend.useUTF8Locale()
        // Our SIGWINCH handler must be in place before curses starts, or curses installs its own.
        if handleSignals {
            TerminalSignals.install(inputFD: input, outputFD: output, pipeFD: fds[1], shellModes: shellModes,
                                    restoreSequence: [])
        }
        let inputFile = fdopen(dup(input), "r")
        let outputFile = fdopen(dup(output), "w")
        guard let inputFile, let outputFile, let screen = newterm(termName, outputFile, inputFile) else {
            if let inputFile { fclose(inputFile) }
            if let outputFile { fclose(outputFile) }
            TerminalSignals.uninstall()
            close(fds[0]); close(fds[1])
            CursesBackend.live.withLock { $0 = false }
            throw TerminalError.cannotInitialize(term: termName)
        }
        set_term(screen)
        raw()
        noecho()
        nonl()
        set_escdelay(25)
        let window = courier_stdscr()
        keypad(window, true)
        nodelay(window, true)
        // COLORS is only set by start_color(), so the terminal's colour count comes from terminfo: reading
        // COLORS here gave 0 on every terminal, and the explorer drew without colour.
        colorDepth = ColorDepth.detect(colors: has_colors() ? Int(max(0, courier_tigetnum("colors"))) : 0,
                                       hasRGBFlag: courier_tigetflag("RGB") > 0, environment: env)
        if colorDepth != .none {
            start_color()
            use_default_colors()
        }
        curs_set(0)
        // No clear screen of its own: the first frame clears and draws in one write (see `draw`).
        state = Mutex(State(screen: screen, inputFile: inputFile, outputFile: outputFile, active: true,
                            capture: FrameCapture(cursesFD: fileno(outputFile), terminalFD: output)))
        writeRaw(CursesBackend.enableReports)
        if handleSignals {
            // Now that terminfo is loaded, the handlers learn how to undo the screen setup.
            TerminalSignals.uninstall()
            TerminalSignals.install(inputFD: input, outputFD: output, pipeFD: fds[1], shellModes: shellModes,
                                    restoreSequence: Array(CursesBackend.restoreSequence().utf8))
        }
    }

    deinit {
        restore()
        close(pipeRead)
        close(pipeWrite)
    }

    // MARK: TerminalBackend

    public var size: Size {
        state.withLock { s in
            guard s.active else { return Size(width: 0, height: 0) }
            return Size(width: Int(courier_getmaxx(courier_stdscr())), height: Int(courier_getmaxy(courier_stdscr())))
        }
    }

    /// Cells written by the last `draw`: the changed ones only, everything after a resize or resume.
    public var lastDrawCellCount: Int { state.withLock { $0.lastDrawCellCount } }

    /// The frame goes to the terminal in one `write`: curses (ncurses 6.4) flushes its output at every cursor
    /// move, about one write per row, and a terminal may show the frame half drawn between them.
    public func draw(_ buffer: Buffer, cursor: Position?) {
        state.withLock { s in
            guard s.active else { return }
            let capturing = s.capture?.begin() ?? false
            defer { if capturing { s.capture?.end() } }
            let window = courier_stdscr()
            let width = Int(courier_getmaxx(window)), height = Int(courier_getmaxy(window))
            var written = 0
            for change in buffer.changes(since: s.previous) {
                let p = change.position
                guard p.x < width, p.y < height else { continue }
                put(change.cell, x: p.x, y: p.y, screenWidth: width, state: &s)
                written += 1
            }
            s.previous = buffer
            let showCursor = cursor.map { $0.x >= 0 && $0.y >= 0 && $0.x < width && $0.y < height } ?? false
            if s.cursorShown != showCursor {
                curs_set(showCursor ? 1 : 0)
                s.cursorShown = showCursor
            }
            if let cursor, showCursor { wmove(window, Int32(cursor.y), Int32(cursor.x)) }
            wnoutrefresh(window)
            doupdate()
            s.lastDrawCellCount = written
            s.drawCount += 1
        }
    }

    /// Clears the terminal and writes every cell on the next draw (Ctrl-L): whatever another program
    /// or a terminal glitch left on the screen goes.
    public func repaint() {
        state.withLock { s in
            guard s.active else { return }
            clearok(courier_curscr(), true)
            s.previous = nil
        }
    }

    public func wake() {
        var byte = UInt8(ascii: "w")
        _ = write(pipeWrite, &byte, 1)
    }

    public func restore() {
        state.withLock { s in
            guard s.active else { return }
            s.active = false
            if handlesSignals { TerminalSignals.uninstall() }
            mousemask(0, nil)
            endwin()
            writeRaw(CursesBackend.disableReports, state: s)
            if let screen = s.screen { delscreen(screen) }
            if let file = s.inputFile { fclose(file) }
            if let file = s.outputFile { fclose(file) }
            s.capture?.close()
            s.capture = nil
            s.screen = nil
            s.inputFile = nil
            s.outputFile = nil
            CursesBackend.live.withLock { $0 = false }
        }
    }

    public func suspend() {
        if handlesSignals {
            // The SIGTSTP handler restores the terminal and stops; SIGCONT brings us back through the pipe.
            raise(SIGTSTP)
            return
        }
        state.withLock { s in
            guard s.active else { return }
            endwin()
            writeRaw(CursesBackend.disableReports, state: s)
        }
        raise(SIGSTOP)
        resume()
    }

    // MARK: Drawing

    /// Writes one cell. Anything that could act on the terminal is replaced first: the buffer sanitises
    /// text, but a cell set directly could still hold a control character.
    private func put(_ cell: Cell, x: Int, y: Int, screenWidth: Int, state s: inout State) {
        var grapheme = cell.grapheme.isEmpty ? " " : cell.grapheme
        if grapheme.unicodeScalars.contains(where: CursesBackend.isUnsafe) {
            grapheme = String(Sanitizer.sanitize(grapheme).first ?? " ")
        }
        var (attributes, pair) = rendition(of: cell.style, state: &s)
        // At most five scalars and the terminating zero, on the stack (an array was made for every cell drawn).
        withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: 6) { characters in
            var count = 0
            for scalar in grapheme.unicodeScalars.prefix(5) {
                characters[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            }
            characters[count] = 0
            var character = cchar_t()
            setcchar(&character, characters.baseAddress, attributes, 0, &pair)
            mvwadd_wch(courier_stdscr(), Int32(y), Int32(x), &character)
            // When the C library thinks a character we drew wide is narrow, clear the cell we skipped.
            if cell.width == 2, x + 1 < screenWidth, courier_wcwidth(characters[0]) < 2 {
                var blank = cchar_t()
                var space: [wchar_t] = [32, 0]
                setcchar(&blank, &space, attributes, 0, &pair)
                mvwadd_wch(courier_stdscr(), Int32(y), Int32(x + 1), &blank)
            }
        }
    }

    /// Scalars that must never reach the terminal.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x200E || v == 0x200F
            || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// The curses attributes and colour pair for a style, creating the pair on first use.
    private func rendition(of style: Style, state s: inout State) -> (attr_t, Int32) {
        if let known = s.renditions[style] { return known }
        let made = makeRendition(of: style, state: &s)
        s.renditions[style] = made
        return made
    }

    /// `rendition(of:state:)` worked out.
    private func makeRendition(of style: Style, state s: inout State) -> (attr_t, Int32) {
        var attributes = courier_a_normal()
        let a = style.attributes
        if a.contains(.bold) { attributes |= courier_a_bold() }
        if a.contains(.dim) { attributes |= courier_a_dim() }
        if a.contains(.italic) { attributes |= courier_a_italic() }
        if a.contains(.underline) { attributes |= courier_a_underline() }
        if a.contains(.reverse) { attributes |= courier_a_reverse() }
        guard colorDepth != .none else {
            // Without colour a background would vanish; reverse video keeps selections visible.
            if style.background != .default { attributes |= courier_a_reverse() }
            return (attributes, 0)
        }
        let key = PairKey(foreground: ColorMapping.number(for: style.foreground, depth: colorDepth),
                          background: ColorMapping.number(for: style.background, depth: colorDepth))
        if key.foreground == -1 && key.background == -1 { return (attributes, 0) }
        if let pair = s.pairs[key] { return (attributes, pair) }
        guard s.nextPair < courier_color_pairs() else { return (attributes, 0) }
        let pair = s.nextPair
        init_extended_pair(pair, key.foreground, key.background)
        s.pairs[key] = pair
        s.nextPair += 1
        return (attributes, pair)
    }

    /// Writes bytes straight to the terminal, after whatever curses has buffered.
    func writeRaw(_ text: String) {
        state.withLock { s in writeRaw(text, state: s) }
    }

    /// `writeRaw` for callers that hold the lock.
    func writeRaw(_ text: String, state s: State) {
        if let file = s.outputFile { fflush(file) }
        var bytes = Array(text.utf8)
        _ = write(outputFD, &bytes, bytes.count)
    }

    // MARK: Setup helpers

    /// curses needs a UTF-8 locale for wide characters; fall back to C.UTF-8 when the user's is not. Only
    /// the character type is taken from the user's locale: the other categories stay "C", so no number is
    /// written or read with a decimal comma, and their eleven locale files are not opened before the first frame.
    static func useUTF8Locale() {
        setlocale(LC_CTYPE, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
    }

    /// The bytes that put the terminal back as the shell expects, from terminfo.
    static func restoreSequence() -> String {
        var sequence = disableReports
        for capability in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            guard let value = courier_tigetstr(capability) else { continue }
            sequence += stripPadding(String(cString: value))
        }
        return sequence
    }

    /// Removes terminfo delay markers (`$<5>`), which are not for the terminal.
    static func stripPadding(_ text: String) -> String {
        var out = ""
        var characters = Array(text)[...]
        while let first = characters.first {
            if first == "$", characters.dropFirst().first == "<", let end = characters.firstIndex(of: ">") {
                characters = characters[(end + 1)...]
            } else {
                out.append(first)
                characters = characters.dropFirst()
            }
        }
        return out
    }
}
