import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// Starts work on a detached thread of its own made with `pthread_create`. Foundation's `Thread` sets up its
/// class, its current-thread record and their type metadata on first use (about 80 µs of a one-shot
/// `courier send`'s samples in a profile, under the run-to-run spread of a whole send), and the libcurl loop
/// and the Ctrl-C watch need none of it.
public enum PlainThread {
    private final class Work {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Runs `body` on a new thread named `name` (the kernel keeps 15 bytes of it); false when no thread
    /// could be made.
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let work = Unmanaged.passRetained(Work(name: name, body: body))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
            courier_name_thread(work.name)
            work.body()
            return nil
        }, work.toOpaque())
        guard result == 0 else {
            work.release()
            return false
        }
        return true
    }
}
