import Foundation

/// A new folder under the system temporary directory, removed when the test is done with it.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a file (creating folders) and returns its URL.
    @discardableResult
    public func write(_ relativePath: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// The text of a file in the folder.
    public func read(_ relativePath: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// Every byte of every file directly in the folder, as text.
    public func allText() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        return try names.map { String(decoding: try Data(contentsOf: url.appendingPathComponent($0)), as: UTF8.self) }
            .joined(separator: "\n")
    }
}
