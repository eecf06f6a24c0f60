import Foundation

/// What a finished child process left behind.
public struct ChildResult: Sendable {
    /// The exit status (128 + signal when a signal ended it); -1 when it outlived its time limit and was killed.
    public var status: Int32
    public var stdoutData: Data
    public var stderrData: Data

    public init(status: Int32, stdoutData: Data, stderrData: Data) {
        self.status = status
        self.stdoutData = stdoutData
        self.stderrData = stderrData
    }

    /// True when the child was killed for outliving its time limit.
    public var timedOut: Bool { status == -1 }
    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    public var stderr: String { String(decoding: stderrData, as: UTF8.self) }
    /// The single JSON object `--json` prints, or nil.
    public var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: stdoutData)) as? [String: Any] }
    /// The JSON objects of line-delimited `--json` output, one a line (lines that are not objects skipped).
    public var jsonLines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }
}
