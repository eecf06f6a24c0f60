import CourierTestSupport
import Foundation
@testable import CourierCollections

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
