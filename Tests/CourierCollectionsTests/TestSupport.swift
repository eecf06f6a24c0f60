import Foundation
@testable import CourierCollections

/// A folder under the system temporary directory, removed when the test is done with it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-collections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a file (creating folders) and returns its URL.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    func read(_ relativePath: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relativePath), encoding: .utf8)
    }
}

enum Fixtures {
    /// The copied Fixtures folder inside the test bundle.
    static var folder: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)! }

    static func text(_ relativePath: String) throws -> String {
        let data = try Data(contentsOf: folder.appendingPathComponent(relativePath))
        return String(decoding: data, as: UTF8.self)
    }

    static func roundTripFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder.appendingPathComponent("roundtrip"),
                                                    includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "http" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

/// Fixed dynamic values so that expansions can be asserted exactly.
extension DynamicValues {
    static let fixed = DynamicValues(uuid: { "00000000-0000-4000-8000-000000000000" },
                                     now: { Date(timeIntervalSince1970: 1_700_000_000) },
                                     randomInt: { $0.lowerBound })
}

extension HTTPFile {
    /// The request called `name`, for tests.
    func named(_ name: String) -> RequestTemplate? { requests.first { $0.name == name } }
}
