import CourierBody
import Foundation

/// Feeds arbitrary bytes to the JSON tokenizer, the lazy pretty-printer and the JSON parser: none may
/// crash, tokens must tile the input in order, and the pretty document must reach its end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    bytes.withUnsafeBytes { raw in
        var tokenizer = JSONTokenizer()
        var last = 0
        while let token = tokenizer.next(in: raw) {
            precondition(token.range.lowerBound >= last && token.range.upperBound <= size, "token out of order")
            last = token.range.upperBound
        }
        // The same bytes fed in two chunks must give a tokenizer that never fails early.
        var streaming = JSONTokenizer()
        let half = UnsafeRawBufferPointer(rebasing: raw[0..<size / 2])
        while streaming.next(in: half, isFinal: false) != nil {}
        while streaming.next(in: raw, isFinal: true) != nil {}
        precondition(streaming.failure == tokenizer.failure, "chunked tokenizing differs")
    }
    let document = PrettyJSONDocument(data: bytes)
    document.indexAll()
    let count = document.lineCount
    if count > 0 {
        _ = document.coloredLine(count - 1)
        _ = document.coloredLine(count / 2)
        _ = document.foldRange(at: 0)
        _ = document.path(atLine: count / 2)
    }
    _ = try? JSONValue.parse(bytes)
    return 0
}
