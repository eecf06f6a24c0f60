import CourierApp
import CourierBody
import CourierHTTP
import CourierTerminal
import Foundation

/// Frame times while scrolling a large response in the explorer: each frame is one key through `update`
/// plus a full `Screen.render`, as the run loop does. Measured while the background index is still being
/// built (the first seconds after a response arrives, when the viewer and the indexer share the body's
/// lock) and after it is done; the reference is the same key sequence over a small body in the same run.
enum ScrollBench {
    /// The issue's budget for one frame while scrolling.
    static let frameBudgetMs = 50.0
    static let screen = Size(width: 160, height: 50)

    /// Frame-time statistics of one key sequence (milliseconds).
    struct Frames {
        var median = 0.0, p99 = 0.0, worst = 0.0, overBudget = 0, count = 0
        /// The key of the slowest frame.
        var worstKey = ""

        init(_ samples: [Double], keys: [Key] = []) {
            if let slowest = samples.indices.max(by: { samples[$0] < samples[$1] }), slowest < keys.count {
                worstKey = "\(keys[slowest].description) #\(slowest + 1)"
            }
            let sorted = samples.sorted()
            guard !sorted.isEmpty else { return }
            count = sorted.count
            median = sorted[sorted.count / 2]
            p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            worst = sorted[sorted.count - 1]
            overBudget = sorted.filter { $0 > ScrollBench.frameBudgetMs }.count
        }
    }

    /// Runs the 10 and 50 MB bodies (`COURIER_BENCH_BODY_MB` picks sizes) in pretty and raw views.
    static func run(sizes: [Int] = [10, 50]) {
        let sizes = BodyBench.chosenSizes(default: sizes)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-scroll-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("small.json")
        writeSmallBody(to: small)
        print("== scroll: frame time (key + update + full render, \(screen.width)×\(screen.height)) over a large JSON response, ms")
        print("body / view / phase              frames  median     p99   worst  >50ms   ref p99   p99 ratio  slowest key")
        for megabytes in sizes {
            let file = folder.appendingPathComponent("scroll-\(megabytes).json")
            BodyBench.writeBody(megabytes: megabytes, minified: false, to: file)
            for raw in [false, true] {
                let reference = measure(small, raw: raw, whileIndexing: false)
                for whileIndexing in [true, false] {
                    let frames = measure(file, raw: raw, whileIndexing: whileIndexing)
                    let label = String(format: "%3d MB %@ %@", megabytes, raw ? "raw   " : "pretty",
                                       whileIndexing ? "while indexing" : "indexed       ")
                    print(String(format: "%@  %6d  %6.2f  %6.2f  %6.2f  %5d  %8.2f  %9.1fx  %@", label, frames.count,
                                 frames.median, frames.p99, frames.worst, frames.overBudget, reference.p99,
                                 frames.p99 / max(reference.p99, 0.001), frames.worstKey))
                }
            }
        }
        print("   keys: 200 × PageDown, G, 200 × PageUp, g, 500 × j, Ctrl-G to the middle; reference = the same keys over a"
              + " 100 KB body; '>50ms' counts frames over the issue's budget")
    }

    /// The frames of one key sequence over `file`, started right after the response arrives (the index
    /// building beside it) or after the index is complete.
    static func measure(_ file: URL, raw: Bool, whileIndexing: Bool) -> Frames {
        guard let body = try? BodyDocument(contentsOf: file) else { return Frames([]) }
        let pane = ResponsePaneState(info: ResponsePaneInfo(status: 200, reason: "OK",
                                                           headers: [.init("Content-Type", "application/json")]),
                                     body: body)
        var state = AppState(size: screen, collectionPath: "Collections")
        // The index job showing the response asks for, run as the effect runner runs it.
        let jobs = update(&state, .responsePaneReady(generation: state.generation, pane)).compactMap { effect in
            if case .bodyJob(let job) = effect { job } else { nil }
        }
        let indexing = Task.detached(priority: jobs.first?.priority) {
            for job in jobs { job.run(isCancelled: { Task.isCancelled }) { _ in } }
        }
        defer { indexing.cancel() }
        if !whileIndexing {
            let semaphore = DispatchSemaphore(value: 0)
            Task { await indexing.value; semaphore.signal() }
            semaphore.wait()
        }
        press(&state, .char("3"))
        if raw { press(&state, .char("r")) }
        var samples: [Double] = []
        // The middle of the body, from its size: the line count is not known until the index is done.
        let middle = max(1, body.byteCount / 14)
        let sequence = keys(middle: middle)
        for key in sequence {
            samples.append(BodyBench.time {
                press(&state, key)
                _ = Screen.render(state)
            })
        }
        return Frames(samples, keys: sequence)
    }

    private static func press(_ state: inout AppState, _ key: Key) { _ = update(&state, .input(.key(key))) }

    /// The key sequence: page through, jump to the end, page back, jump to the top, line steps, go to a line.
    static func keys(middle: Int) -> [Key] {
        var keys: [Key] = Array(repeating: Key(.pageDown), count: 200) + [.char("G")]
        keys += Array(repeating: Key(.pageUp), count: 200) + [.char("g")]
        keys += Array(repeating: .char("j"), count: 500)
        keys += [.ctrl("g")] + String(middle).map { .char($0) } + [Key(.enter)]
        return keys
    }

    /// About 100 KB of the same records, for the reference run.
    static func writeSmallBody(to file: URL) {
        let records = (0..<800).map { #"{"id":\#($0),"name":"user \#($0)","email":"user\#($0)@example.com","tags":["a","b"]}"# }
        try? Data(("[" + records.joined(separator: ",") + "]").utf8).write(to: file)
    }
}
