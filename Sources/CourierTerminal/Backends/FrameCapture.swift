@preconcurrency import CNcursesw
import Glibc

/// Collects what curses writes for one frame in a file in memory and hands it to the terminal in one `write`.
///
/// ncurses 6.4 flushes its output buffer at every cursor move until the program has once left and re-entered
/// curses mode, so a frame reached the terminal in about one `write` per row (40 for the first frame at
/// 120×40): a terminal that draws between two of them (tmux has no synchronized output) showed a frame half
/// drawn. For the length of a frame, curses' descriptor points at the memory file instead of the terminal
/// (`dup2`); whatever size the frame, nothing blocks, and the bytes go out whole afterwards.
struct FrameCapture {
    /// The descriptor curses writes to (its output file's), which stands for the terminal between frames.
    let cursesFD: Int32
    /// The terminal, which `cursesFD` is pointed back at after a frame.
    let terminalFD: Int32
    /// The memory file.
    let frameFD: Int32
    private var bytes: [UInt8] = []

    /// A capture for curses writing on `cursesFD`; nil where no memory file can be made (frames then go to
    /// the terminal as curses writes them).
    init?(cursesFD: Int32, terminalFD: Int32) {
        let frameFD = courier_memory_file()
        guard frameFD >= 0, cursesFD >= 0 else { return nil }
        self.cursesFD = cursesFD
        self.terminalFD = terminalFD
        self.frameFD = frameFD
    }

    /// Points curses' descriptor at the memory file, emptied; false when that failed (the frame then goes
    /// straight to the terminal).
    func begin() -> Bool {
        guard ftruncate(frameFD, 0) == 0, lseek(frameFD, 0, SEEK_SET) == 0 else { return false }
        return dup2(frameFD, cursesFD) == cursesFD
    }

    /// Points curses' descriptor back at the terminal and writes the frame to it in one `write` (more only
    /// when the terminal takes part of it).
    mutating func end() {
        // Back first: whatever happens below, curses never keeps writing into the memory file.
        guard dup2(terminalFD, cursesFD) == cursesFD else { return }
        let size = Int(lseek(frameFD, 0, SEEK_CUR))
        guard size > 0 else { return }
        if bytes.count < size { bytes = [UInt8](repeating: 0, count: size) }
        let read = bytes.withUnsafeMutableBytes { pread(frameFD, $0.baseAddress, size, 0) }
        guard read > 0 else { return }
        bytes.withUnsafeBytes { frame in
            var offset = 0
            while offset < read {
                let written = write(terminalFD, frame.baseAddress! + offset, read - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && (errno == EINTR || errno == EAGAIN) {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Closes the memory file.
    func close() { _ = Glibc.close(frameFD) }
}
