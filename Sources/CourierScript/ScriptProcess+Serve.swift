import Foundation

extension ScriptProcess {
    /// Microseconds between the child's looks at its parent: when Courier is gone (killed, crashed), the child ends
    /// too, so an endless script never outlives the program that started it.
    static let parentCheckInterval: useconds_t = 100_000

    /// The child's side (`courier __script`): reads a script and its input (JSON) from standard input to its
    /// end, runs it here with its promise jobs, and writes the result (JSON) to standard output. Returns the
    /// exit status: 0 when a result was written, 2 when the input was not a script.
    public static func serve() -> Int32 {
        // Nothing Courier had open stays open here (a listening socket, a terminal) while a script runs.
        closefrom(3)
        watchParent()
        var input = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count > 0 { input.append(contentsOf: buffer[0..<count]); continue }
            if count < 0 && errno == EINTR { continue }
            break
        }
        guard let job = try? JSONDecoder().decode(ScriptJob.self, from: input) else {
            write(2, Data("courier \(command): expected a script and its input as JSON on standard input\n".utf8))
            return 2
        }
        let result = ScriptEngine.runHere(job.source, input: job.input, jobs: .run)
        guard let output = try? JSONEncoder().encode(result) else { return 2 }
        return write(1, output) ? 0 : 1
    }

    /// Ends this process as soon as its parent is gone (the parent of an orphan changes).
    private static func watchParent() {
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { usleep(parentCheckInterval) }
            _exit(3)
        }
    }

    /// Writes all of `data` to `descriptor`; false when it could not.
    @discardableResult
    private static func write(_ descriptor: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }
}
