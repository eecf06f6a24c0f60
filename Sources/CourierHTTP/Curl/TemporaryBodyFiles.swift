import Foundation
import Synchronization

/// The process's temporary body files (`courier-body-PID-UUID`): created by the transport when a body
/// spills to disk, and removed on every exit path: by their owner once read, at `exit` for any still
/// held, from a SIGINT/SIGTERM/SIGHUP/SIGQUIT handler, and, for a process that died without running any
/// of these (SIGKILL, a crash), by the next Courier process that writes a body file into the same folder,
/// which first sweeps the files of dead processes from it.
///
/// Async-signal safety: the handler only reads a table prepared in memory that is never freed, and
/// calls `unlink`, `sigaction`, `sigprocmask` and `raise`.
public enum TemporaryBodyFiles {
    /// The start of every temporary body file's name; the owner's process id follows.
    public static let prefix = "courier-body-"

    /// Slots in the signal handler's table; files past it are still removed on every other path.
    static let slots = 256
    /// Bytes per slot, including the terminating NUL; longer paths are not put in the table.
    static let pathCapacity = 1024

    /// Live paths, for removal at exit and for `release`.
    private static let live = Mutex<Set<String>>([])
    private static let table = Mutex(Table())
    private struct Table {
        var installed = false
        var swept: Set<String> = []
    }
    /// The handler's view: a NUL-terminated path per slot, and a flag per slot (1: in use).
    nonisolated(unsafe) static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: slots * pathCapacity)
    nonisolated(unsafe) static let inUse: UnsafeMutablePointer<Int32> = {
        let flags = UnsafeMutablePointer<Int32>.allocate(capacity: slots)
        flags.initialize(repeating: 0, count: slots)
        return flags
    }()
    /// The actions installed before ours, indexed by signal number.
    nonisolated(unsafe) static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    static let cleanedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// A new file name in `directory` for this process.
    public static func makeURL(in directory: URL) -> URL {
        directory.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString)")
    }

    /// Takes `url` into the set removed on exit and on a terminating signal. The first file a process
    /// writes into a folder also sweeps that folder of dead processes' files: a command that never spills
    /// a body (most one-shot requests) never lists the temporary folder, which can hold thousands of entries.
    public static func register(_ url: URL) {
        installOnce()
        sweepStale(in: url.deletingLastPathComponent())
        let path = url.path
        live.withLock { live in
            live.insert(path)
            let bytes = Array(path.utf8CString)
            guard bytes.count <= pathCapacity, let slot = (0..<slots).first(where: { inUse[$0] == 0 }) else { return }
            bytes.withUnsafeBufferPointer { buffer in
                (paths + slot * pathCapacity).update(from: buffer.baseAddress!, count: buffer.count)
            }
            // The path is complete before the handler can see the slot in use.
            atomicStore(inUse + slot, 1)
        }
    }

    /// Forgets `url` without removing it: it was renamed into place (`-o FILE`) or handed to the cache.
    public static func forget(_ url: URL) {
        let path = url.path
        live.withLock { live in
            guard live.remove(path) != nil else { return }
            for slot in 0..<slots where inUse[slot] == 1 && String(cString: paths + slot * pathCapacity) == path {
                atomicStore(inUse + slot, 0)
            }
        }
    }

    /// Removes `url` if it is one of this process's temporary body files (anything else, such as a
    /// cache entry's body, is left alone). Open descriptors and mappings of it stay readable.
    public static func release(_ url: URL) {
        let path = url.path
        guard live.withLock({ $0.contains(path) }) else { return }
        forget(url)
        unlink(path)
    }

    /// Removes the body of `body` when it is a temporary file of this process.
    public static func release(_ body: ResponseBody) {
        if case .file(let url, _) = body { release(url) }
    }

    /// Removes every temporary body file this process still holds.
    public static func releaseAll() {
        let paths = live.withLock { live in defer { live = [] }; return live }
        for slot in 0..<slots { atomicStore(inUse + slot, 0) }
        for path in paths { unlink(path) }
    }

    /// Paths held now (tests).
    public static var held: Set<String> { live.withLock { $0 } }

    /// Removes, once per folder and process, the temporary body files left in `directory` by processes
    /// that no longer run. Returns how many were removed.
    @discardableResult
    public static func sweepStale(in directory: URL) -> Int {
        let folder = directory.standardizedFileURL.path
        guard table.withLock({ $0.swept.insert(folder).inserted }) else { return 0 }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0 else { continue }
            // ESRCH: no such process. EPERM means it runs under another user: not ours to judge.
            guard kill(pid, 0) == -1 && errno == ESRCH else { continue }
            if unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    // MARK: - Exit paths

    private static func installOnce() {
        guard table.withLock({ table in defer { table.installed = true }; return !table.installed }) else { return }
        atexit { TemporaryBodyFiles.releaseAll() }
        for signal in cleanedSignals {
            var current = sigaction()
            sigaction(signal, nil, &current)
            // A signal the user chose to ignore (nohup's SIGHUP) stays ignored.
            if isIgnored(current) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = cleanupHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, previous + Int(signal))
        }
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        let handler: (@convention(c) (Int32) -> Void)? = action.__sigaction_handler.sa_handler
        let ignore: (@convention(c) (Int32) -> Void)? = SIG_IGN
        return handler.map { unsafeBitCast($0, to: Int.self) } == ignore.map { unsafeBitCast($0, to: Int.self) }
    }

    /// Removes every file in the table. Async-signal-safe.
    static func unlinkAllFromSignal() {
        for slot in 0..<slots where inUse[slot] == 1 {
            unlink(paths + slot * pathCapacity)
        }
    }

    private static func atomicStore(_ flag: UnsafeMutablePointer<Int32>, _ value: Int32) {
        // A full barrier around the store, so the handler never sees a slot in use before its path.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        flag.pointee = value
        atomicMemoryFence(ordering: .sequentiallyConsistent)
    }
}

/// SIGINT/SIGTERM/SIGHUP/SIGQUIT: remove the files, then hand the signal to whoever handled it before
/// (the terminal's restore, or the default action: the process dies of it).
private let cleanupHandler: @convention(c) (Int32) -> Void = { signal in
    TemporaryBodyFiles.unlinkAllFromSignal()
    sigaction(signal, TemporaryBodyFiles.previous + Int(signal), nil)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    sigprocmask(SIG_UNBLOCK, &set, nil)
    raise(signal)
}
