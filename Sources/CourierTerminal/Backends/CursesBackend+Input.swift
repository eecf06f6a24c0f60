@preconcurrency import CNcursesw
import Glibc

/// Reading input: keys and paste through curses, resize and resume through the self-pipe.
extension CursesBackend {
    public func nextEvent(timeout: Duration?) -> InputEvent? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if let event = state.withLock({ s in s.pending.isEmpty ? nil : s.pending.removeFirst() }) { return event }
            switch drainPipe() {
            case .event(let event): return event
            case .woken: return nil
            case .nothing: break
            }
            if let event = readInput() { return event }
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                if left <= .zero { return nil }
                wait = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            }
            var fds = [pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, wait)
            if ready == 0 { return nil }
            // EINTR (a signal) or readiness: go round and look.
            if ready < 0, errno != EINTR { return nil }
            // A hung-up terminal would spin; report it as nothing so the app can decide to quit.
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, fds[0].revents & Int16(POLLIN) == 0 {
                return nil
            }
        }
    }

    enum PipeResult { case nothing, woken, event(InputEvent) }

    /// Reads everything in the self-pipe: many resizes in a burst become one resize event.
    func drainPipe() -> PipeResult {
        var resized = false, resumed = false, woken = false
        var bytes = [UInt8](repeating: 0, count: 256)
        while true {
            let count = read(pipeRead, &bytes, bytes.count)
            if count <= 0 { break }
            for byte in bytes[..<count] {
                switch byte {
                case UInt8(ascii: "W"): resized = true
                case UInt8(ascii: "C"): resumed = true
                default: woken = true
                }
            }
        }
        if resumed { resume() }
        if resized || resumed { return .event(.resize(applyWindowSize())) }
        return woken ? .woken : .nothing
    }

    /// Re-enters curses mode after the process was stopped, and repaints everything on the next draw.
    func resume() {
        state.withLock { s in
            guard s.active else { return }
            endwin()
            wrefresh(courier_stdscr())
            mousemask(courier_click_and_wheel_events(), nil)
            clearok(courier_curscr(), true)
            s.previous = nil
            s.cursorShown = nil
        }
        writeRaw(CursesBackend.enableReports)
    }

    /// Tells curses the terminal's current size (a resize storm ends in one call with the last size).
    func applyWindowSize() -> Size {
        var rows: Int32 = 0, columns: Int32 = 0
        let known = courier_window_size(outputFD, &rows, &columns) == 0
        return state.withLock { s in
            guard s.active else { return Size(width: 0, height: 0) }
            if known, rows > 0, columns > 0 {
                resize_term(rows, columns)
                // The terminal reflowed or kept what was on it: curses' copy of the screen is no longer
                // true, so the next frame clears and writes everything instead of a diff (stale characters).
                clearok(courier_curscr(), true)
                s.previous = nil
            }
            let window = courier_stdscr()
            return Size(width: Int(courier_getmaxx(window)), height: Int(courier_getmaxy(window)))
        }
    }

    /// One event from curses without blocking (escape sequences wait a few milliseconds for their rest).
    func readInput() -> InputEvent? {
        state.withLock { s -> InputEvent? in
            guard s.active, let first = readRaw() else { return nil }
            if case .keyCode(let code) = first {
                if code == courier_key_resize() {
                    clearok(courier_curscr(), true)
                    s.previous = nil
                    let window = courier_stdscr()
                    return .resize(Size(width: Int(courier_getmaxx(window)), height: Int(courier_getmaxy(window))))
                }
                if code == courier_key_mouse() {
                    // curses matched the report's prefix; the rest is decoded here, so a burst of
                    // reports is not merged (curses keeps only the last of a burst).
                    return decoder.decodeMouseReport { wait in readRaw(waitMilliseconds: wait) }
                }
            }
            return decoder.decode(first) { wait in readRaw(waitMilliseconds: wait) }
        }
    }

    /// What curses has next; when nothing is there, waits up to `waitMilliseconds` for it.
    /// Called with the state locked.
    private func readRaw(waitMilliseconds: Int = 0) -> RawInput? {
        var character: wint_t = 0
        var result = wget_wch(courier_stdscr(), &character)
        if result == ERR, waitMilliseconds > 0 {
            var fds = [pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 1, Int32(waitMilliseconds)) > 0 { result = wget_wch(courier_stdscr(), &character) }
        }
        switch result {
        case OK: return .character(UInt32(character))
        case courier_key_code_yes(): return .keyCode(Int32(bitPattern: character))
        default: return nil
        }
    }
}
