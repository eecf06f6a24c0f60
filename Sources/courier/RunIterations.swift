import CourierCollections
import Foundation

extension RunCommand {
    /// The iterations of a run, as newman makes them: once, or once per row of `--data`, or
    /// `--iteration-count` times (past the last row the last row again).
    struct Iterations: Sendable {
        var rows: [IterationRow]
        var count: Int { rows.count }

        init(_ invocation: Invocation) throws {
            var data: [[String: String]] = []
            if let path = invocation.dataFile {
                let contents: Data
                do { contents = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                    throw CollectionError.unreadable(path: path, reason: "cannot read the data file")
                }
                data = try IterationData.rows(contents, file: path)
            }
            let count = invocation.iterationCount ?? max(data.count, 1)
            rows = (0..<count).map { index in
                IterationRow(values: data.isEmpty ? [:] : data[min(index, data.count - 1)], index: index, count: count)
            }
        }
    }
}
