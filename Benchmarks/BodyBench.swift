import CourierBody
import Foundation

/// Large-body figures: time to the first screen, to the end, and to a search hit on the last line, and
/// peak RSS, for generated 1, 10 and 50 MB JSON (minified and pretty), each against JSONSerialization
/// parsing and re-serialising the same body pretty (what a tree-based viewer does before its first screen).
enum BodyBench {
    static let screenLines = 50

    /// One body's figures: Courier's, then the reference's (measured after every Courier run, so the
    /// reference's large heap does not inflate Courier's peak).
    struct Row {
        var label = ""
        var firstScreen = 0.0, toEnd = 0.0, search = 0.0, found = false
        var baseline = 0.0, peak = 0.0
        var reference = 0.0, referencePeak = 0.0, referenceGrowth = 0.0
    }

    /// Runs every size; `COURIER_BENCH_BODY_MB=1,10` picks sizes.
    static func run(sizes: [Int] = [1, 10, 50]) {
        let sizes = BodyBench.chosenSizes(default: sizes)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var rows: [(URL, Row)] = []
        for megabytes in sizes {
            for minified in [true, false] {
                let file = folder.appendingPathComponent("body-\(megabytes)-\(minified).json")
                writeBody(megabytes: megabytes, minified: minified, to: file)
                var row = measureCourier(file)
                row.label = String(format: "%3d MB %@", megabytes, minified ? "minified" : "pretty  ")
                rows.append((file, row))
            }
        }
        for index in rows.indices { measureReference(rows[index].0, into: &rows[index].1) }
        print("== body: large JSON bodies, mapped from disk (ms; ratio = reference / Courier first screen)")
        print("body         first-screen  reference    ratio    to-end  search-last   RSS growth / peak   ref growth / peak")
        for (_, row) in rows {
            print(String(format: "%@  %10.1f  %9.1f  %7.0fx  %8.1f  %10.1f%@  %5.0f / %5.0f MB   %5.0f / %5.0f MB",
                         row.label, row.firstScreen, row.reference, row.reference / max(row.firstScreen, 0.001),
                         row.toEnd, row.search, row.found ? " " : "!", row.peak - row.baseline, row.peak,
                         row.referenceGrowth, row.referencePeak))
        }
        print("   ! = the search did not find the last line; growth = peak RSS (VmHWM) minus RSS before the run"
              + " (a reference's freed heap stays resident, so later references show less growth); reference = JSONSerialization parse"
              + " + pretty re-serialisation of the same body, which a tree-based viewer needs before its first screen")
    }

    /// The body sizes in megabytes from `COURIER_BENCH_BODY_MB=1,10`, else `sizes`.
    static func chosenSizes(default sizes: [Int]) -> [Int] {
        let chosen = ProcessInfo.processInfo.environment["COURIER_BENCH_BODY_MB"]
        return chosen.map { $0.split(separator: ",").compactMap { Int($0) } } ?? sizes
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

    /// Courier: map the file, pretty-print the first screen lazily, jump to the end, search for the last line.
    static func measureCourier(_ file: URL) -> Row {
        var row = Row()
        row.baseline = currentRSS()
        resetPeak()
        row.firstScreen = time {
            guard let raw = try? BodyDocument(contentsOf: file) else { return }
            let pretty = PrettyJSONDocument(data: raw.bytes)
            for line in 0..<screenLines { _ = pretty.coloredLine(line) }
        }
        guard let mapped = (try? BodyDocument(contentsOf: file))?.bytes else { return row }
        let pretty = PrettyJSONDocument(data: mapped)
        row.toEnd = time {
            pretty.indexAll()
            let count = pretty.lineCount
            for line in max(0, count - screenLines)..<count { _ = pretty.coloredLine(line) }
        }
        var found = false
        row.search = time {
            guard let hits = try? BodySearch(SearchQuery("lastneedle")).hits(in: pretty) else { return }
            // The needle is on the last object's name line: `"name": "LASTNEEDLE"`, then `}` and `]`.
            found = hits.all.last?.line == pretty.lineCount - 3
        }
        row.found = found
        row.peak = peakRSS()
        return row
    }

    /// The reference: parse the whole document into a tree and serialise it pretty, then take 50 lines.
    static func measureReference(_ file: URL, into row: inout Row) {
        let before = currentRSS()
        resetPeak()
        row.reference = time {
            guard let data = try? Data(contentsOf: file), let object = try? JSONSerialization.jsonObject(with: data),
                  let out = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]) else { return }
            _ = String(decoding: out.prefix(4_096), as: UTF8.self).split(separator: "\n").prefix(screenLines)
        }
        row.referencePeak = peakRSS()
        row.referenceGrowth = row.referencePeak - before
    }

    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// VmHWM from /proc/self/status in MB (the process's peak resident set so far).
    static func peakRSS() -> Double { status("VmHWM:") }

    /// VmRSS from /proc/self/status in MB (the resident set now).
    static func currentRSS() -> Double { status("VmRSS:") }

    private static func status(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }
}
