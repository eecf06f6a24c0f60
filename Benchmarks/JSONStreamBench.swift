import CourierBody
import Foundation

/// `courier send` prints a large JSON body a chunk at a time through `PrettyJSONStream`; the explorer lays
/// the same bytes out through `PrettyJSONDocument`. Both run one cursor, so the stream should cost about
/// what the document costs to render every line: the ratio (stream / document) guards the adapter.
enum JSONStreamBench {
    static let chunkSize = 256 << 10

    static func run() {
        let bodies: [(String, Data)] = [
            ("8 MB array of objects", Data(("[" + (0..<80_000).map {
                #"{"id":\#($0),"name":"user \#($0)","tags":["a","b"],"active":true}"#
            }.joined(separator: ",") + "]").utf8)),
            ("700,000 nested objects", Data((String(repeating: #"{"a":"#, count: 700_000) + "1"
                                              + String(repeating: "}", count: 700_000)).utf8)),
            ("8 MB string", Data(("{\"s\":\"" + String(repeating: "x", count: 8_000_000) + "\"}").utf8)),
        ]
        print("== jsonstream: pretty JSON fed in 256 KB chunks vs the lazy document rendering every line (ms, best of 3)")
        print("body                      stream  document   ratio  output MB")
        for (label, body) in bodies {
            var stream = Double.infinity, document = Double.infinity
            var output = 0
            for _ in 0..<3 {
                let (streamTime, streamBytes) = time { streamed(body) }
                let (documentTime, _) = time { rendered(body) }
                stream = min(stream, streamTime)
                document = min(document, documentTime)
                output = streamBytes
            }
            print(String(format: "%@  %7.1f  %8.1f  %6.2f  %9.1f", label.padding(toLength: 22, withPad: " ", startingAt: 0),
                         stream * 1000, document * 1000, stream / max(document, 1e-9), Double(output) / 1e6))
        }
    }

    private static func time(_ body: () -> Int) -> (Double, Int) {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = body()
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, result)
    }

    /// The stream's output size for `body` fed a chunk at a time.
    private static func streamed(_ body: Data) -> Int {
        var layout = PrettyJSONStream()
        var bytes = 0
        for start in stride(from: 0, to: body.count, by: chunkSize) {
            bytes += layout.feed(body[start..<min(body.count, start + chunkSize)]).count
        }
        return bytes + layout.finish().count
    }

    /// The document's output size for `body`, every line rendered as display bytes.
    private static func rendered(_ body: Data) -> Int {
        let document = PrettyJSONDocument(data: body)
        var bytes = 0
        var line = 0
        while true {
            let count = document.forEachLineBytes(from: line, limit: 65_536) { _, text in bytes += text.count + 1 }
            if count == 0 { break }
            line += count
        }
        return bytes
    }
}
