import CourierBody
import Foundation

/// Differential fuzzing of the streaming JSONPath evaluator: for arbitrary bytes and each expression (every
/// selector, `..` before and after filters, several selectors, negative indices and slices, a filter
/// reading `$`) it must select what the tree evaluator selects from the parsed bytes (same values, paths
/// and order), and fail exactly where parsing fails.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // `$..*` gives every value a path as long as its depth: on 64 KB of brackets both evaluators would
    // hold gigabytes of paths, which tests the harness's memory rather than the evaluator.
    guard size <= 4_096 else { return 0 }
    // Parsed per input rather than held in a global, which LeakSanitizer reports as leaked at exit.
    let expressions = [
        "$", "$..*", "$.a", "$..a", "$.*[0]", "$[-1]", "$[1:3]", "$[::-1]", "$..[0,1]", "$..['a','b']",
        "$[?(@.a > 1)]", "$..[?(@.b)]", "$..a..b", "$.*.*", "$..[?(@ == $[0])]", "$..a[-1:]",
    ].compactMap { try? JSONPath($0) }
    let bytes = Data(bytes: data, count: size)
    var tree: JSONValue?
    var treeError: BodyError?
    do { tree = try JSONValue.parse(bytes) } catch { treeError = error }
    for path in expressions {
        var streamed: [JSONPathMatch] = []
        var streamError: BodyError?
        do { streamed = try path.evaluate(bytes) } catch { streamError = error }
        precondition(streamError == treeError, "\(path.expression): errors differ")
        guard let tree else { continue }
        // Compared as text: `==` on values recurses, and deep inputs would exhaust the stack.
        let expected = path.evaluate(tree).map { $0.path + " " + $0.value.compactJSON }
        let actual = streamed.map { $0.path + " " + $0.value.compactJSON }
        precondition(actual == expected, "\(path.expression): matches differ")
    }
    return 0
}
