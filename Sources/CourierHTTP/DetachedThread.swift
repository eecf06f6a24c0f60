import CProcess
import Foundation

/// A thread of Courier's own for work that lives as long as its owner (the curl loop, the output lane): a plain
/// detached pthread named as top and gdb show it. Foundation's `Thread` costs each start an `NSThread` object, the
/// process-wide `Thread.current` set-up and two `prctl` calls for a name it keeps to itself on Linux; the curl loop
/// starts on every one-shot send, where that was 0.05 ms of 8.
public enum DetachedThread {
    /// Starts `body` on a new thread called `name` (at most 15 bytes are kept). When the system refuses a thread
    /// (its limit is reached), Foundation's `Thread` is tried, which says why if it cannot either.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Start(name: name, body: body)
        let box = Unmanaged.passRetained(start)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
            start.run()
            return nil
        }, box.toOpaque())
        if result == 0 {
            pthread_detach(thread)
        } else {
            box.release()
            Thread { start.run() }.start()
        }
    }

    private final class Start: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            courier_name_this_thread(name)
            body()
        }
    }
}
