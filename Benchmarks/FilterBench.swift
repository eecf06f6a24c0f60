import CourierBody
import CourierDemo
import CourierHTTP
import Foundation
import Glibc

/// JSONPath filter figures on the demo server's `/large` bodies (1, 10, 50 MB of JSON records, fetched
/// over loopback and mapped from disk): the streaming `BodyFilter` the Response pane runs, against the
/// tree evaluator it replaced (parse the whole body into a `JSONValue`, evaluate, build the result
/// document), measured in the same run: time, peak RSS growth, and their ratios.
enum FilterBench {
    /// The expressions measured: one descending through every record, one filter over the root array.
    static let expressions = ["$..id", "$[?(@.score > 99)].email"]

    struct Row {
        var label = ""
        var matches = 0, referenceMatches = 0
        var time = 0.0, growth = 0.0
        var referenceTime = 0.0, referenceGrowth = 0.0
    }

    /// Runs every size; `COURIER_BENCH_BODY_MB=1,10` picks sizes.
    static func run(sizes: [Int] = [1, 10, 50]) {
        let sizes = BodyBench.chosenSizes(default: sizes)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-filter-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bodies: [(Int, URL)]
        do {
            bodies = try fetch(sizes, into: folder)
        } catch {
            print("filter: cannot fetch /large: \(error)")
            return
        }
        var rows: [(Data, JSONPath, Row)] = []
        // Every streaming run first, then every reference, each after a heap trim: freed heap left
        // resident would hide a later run's growth.
        for (megabytes, file) in bodies {
            guard let data = try? Data(contentsOf: file, options: .alwaysMapped) else { continue }
            touch(data)
            for expression in expressions {
                guard let path = try? JSONPath(expression) else { continue }
                var row = Row()
                let padded = expression.padding(toLength: 26, withPad: " ", startingAt: 0)
                row.label = String(format: "%3d MB  %@", megabytes, padded)
                measureStreaming(path, data, into: &row)
                rows.append((data, path, row))
            }
        }
        for index in rows.indices { measureTree(rows[index].1, rows[index].0, into: &rows[index].2) }
        print("== filter: JSONPath over /large bodies (ms, MB; ratios = tree / streaming)")
        print("body    expression                    matches   streaming   growth       tree   growth"
              + "   time ratio  memory ratio")
        for (_, _, row) in rows {
            let same = row.matches == row.referenceMatches ? " " : "!"
            let format = "%@ %8d%@ %10.1f %7.1f  %9.1f %8.1f   %8.1fx   %10.1fx"
            print(String(format: format, row.label, row.matches, same,
                         row.time, row.growth, row.referenceTime, row.referenceGrowth,
                         row.referenceTime / max(row.time, 0.001), row.referenceGrowth / max(row.growth, 0.1)))
        }
        print("   streaming = BodyFilter (one pass with the tokenizer, building only matched values, then"
              + " the indexed result document); tree = JSONValue.parse + evaluate + the same document;"
              + " growth = peak RSS (VmHWM) minus RSS before the run, the body's pages already resident;"
              + " ! = match counts differ")
    }

    /// Fetches `/large?mb=N` for each size from a demo server into files.
    static func fetch(_ sizes: [Int], into folder: URL) throws -> [(Int, URL)] {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = HTTPClient(configuration: .init(transport: CurlTransport(), retry: nil))
        return try sizes.map { megabytes in
            let url = URL(string: server.baseURL.absoluteString + "/large?mb=\(megabytes)")!
            let response = try PipelineBench.blocking { () async -> Result<HTTPResponse, any Error> in
                do {
                    return .success(try await client.send(HTTPRequest(url: url)))
                } catch {
                    return .failure(error)
                }
            }.get()
            let file = folder.appendingPathComponent("large-\(megabytes).json")
            try response.body.readAll().write(to: file)
            return (megabytes, file)
        }
    }

    /// Reads one byte per page, so the mapped body is resident before any baseline is taken.
    static func touch(_ data: Data) {
        var sum: UInt8 = 0
        data.withUnsafeBytes { bytes in
            for index in stride(from: 0, to: bytes.count, by: 4_096) { sum &+= bytes[index] }
        }
        if sum == 1 { print("", terminator: "") }
    }

    /// Returns freed heap to the system, so the next run's growth is not hidden by an earlier run's pages.
    /// (glibc's `malloc_trim`, looked up at run time: the Glibc module does not export malloc.h.)
    static func settle() {
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        typealias Trim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    static func measureStreaming(_ path: JSONPath, _ data: Data, into row: inout Row) {
        settle()
        let before = BodyBench.currentRSS()
        BodyBench.resetPeak()
        var matches = 0
        row.time = BodyBench.time {
            let outcome = BodyFilter(path).run(over: BodyDocument(data: data), isCancelled: { false }) { _ in }
            matches = (try? outcome?.get())?.matches ?? -1
        }
        row.growth = BodyBench.peakRSS() - before
        row.matches = matches
    }

    static func measureTree(_ path: JSONPath, _ data: Data, into row: inout Row) {
        settle()
        let before = BodyBench.currentRSS()
        BodyBench.resetPeak()
        var matches = 0
        row.referenceTime = BodyBench.time {
            guard let tree = try? JSONValue.parse(data) else { matches = -1; return }
            let found = path.evaluate(tree)
            JSONPath.document(of: found).indexAll()
            matches = found.count
        }
        row.referenceGrowth = BodyBench.peakRSS() - before
        row.referenceMatches = matches
    }
}
