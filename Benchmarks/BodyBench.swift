import CourierBody
import Foundation

/// Large-body figures: time to the first screen, to the end, and to a search hit on the last line, and
/// peak RSS, for generated 1, 10 and 50 MB JSON (minified and pretty), each against JSONSerialization
/// parsing and re-serialising the same body pretty (what a tree-based viewer does before its first screen).
enum BodyBench {
    static let screenLines = 50

    /// Runs every size; `COURIER_BENCH_BODY_MB=1,10` picks sizes.
    static func run(sizes: [Int] = [1, 10, 50]) {
        let chosen = ProcessInfo.processInfo.environment["COURIER_BENCH_BODY_MB"]
        let sizes = chosen.map { $0.split(separator: ",").compactMap { Int($0) } } ?? sizes
        print("== body: large JSON bodies (times in ms; ratio = reference / Courier)")
        print("size   form      first-screen  ref-pretty   ratio   to-end   search-last  peak-RSS")
        for megabytes in sizes {
            for minified in [true, false] {
                measure(megabytes: megabytes, minified: minified)
            }
        }
    }

    /// Writes a JSON array of user objects, about `megabytes` large, whose last object holds a unique
    /// word, to `file` in pieces (so generating it does not raise the peak RSS being measured).
    static func writeBody(megabytes: Int, minified: Bool, to file: URL) {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { return }
        guard let handle = try? FileHandle(forWritingTo: file) else { return }
        defer { try? handle.close() }
        let target = megabytes << 20
        let separator = minified ? "," : ",\n"
        var written = 0
        var index = 0
        var piece = "["
        while written + piece.utf8.count < target {
            if index > 0 { piece += separator }
            let user = #"{"id":\#(index),"name":"user \#(index)","email":"user\#(index)@example.com","age":\#(20 + index % 50),"tags":["a","b"],"active":\#(index % 2 == 0)}"#
            piece += minified ? user : user.replacingOccurrences(of: ",\"", with: ",\n  \"")
            index += 1
            if piece.utf8.count > 1 << 20 {
                handle.write(Data(piece.utf8))
                written += piece.utf8.count
                piece = ""
            }
        }
        piece += separator + #"{"id":-1,"name":"LASTNEEDLE"}]"#
        handle.write(Data(piece.utf8))
    }

    /// Resets the kernel's peak-RSS mark (VmHWM), so each measurement starts from the current size.
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func measure(megabytes: Int, minified: Bool) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.json")
        writeBody(megabytes: megabytes, minified: minified, to: file)
        resetPeak()

        // Courier: map the file, pretty-print the first screen lazily.
        let firstScreen = time {
            guard let raw = try? BodyDocument(contentsOf: file) else { return }
            let pretty = PrettyJSONDocument(data: raw.bytes)
            for line in 0..<screenLines { _ = pretty.coloredLine(line) }
        }
        guard let mapped = (try? BodyDocument(contentsOf: file))?.bytes else { return }
        let pretty = PrettyJSONDocument(data: mapped)
        let toEnd = time {
            pretty.indexAll()
            let count = pretty.lineCount
            for line in max(0, count - screenLines)..<count { _ = pretty.coloredLine(line) }
        }
        var searchTime = 0.0
        let searchMS = time {
            guard let search = try? BodySearch(SearchQuery("lastneedle"), in: pretty) else { return }
            let semaphore = DispatchSemaphore(value: 0)
            Task { await search.wait(); semaphore.signal() }
            semaphore.wait()
            searchTime = search.hits.isEmpty ? -1 : 0
        }
        let courierPeak = peakRSS()

        // Reference: parse the whole document into a tree and serialise it pretty, then show 50 lines.
        resetPeak()
        let reference = time {
            guard let data = try? Data(contentsOf: file), let object = try? JSONSerialization.jsonObject(with: data),
                  let out = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]) else { return }
            _ = String(decoding: out.prefix(4_096), as: UTF8.self).split(separator: "\n").prefix(screenLines)
        }
        let referencePeak = peakRSS()
        let form = minified ? "minified" : "pretty  "
        print(String(format: "%3d MB %@  %10.1f  %10.1f  %6.0fx  %7.1f  %10.1f%@  %5.0f MB (ref %5.0f MB)",
                     megabytes, form, firstScreen, reference, reference / max(firstScreen, 0.001), toEnd, searchMS,
                     searchTime < 0 ? "!" : " ", courierPeak, referencePeak))
    }

    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// VmHWM from /proc/self/status in MB (the process's peak resident set so far).
    static func peakRSS() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }
}
