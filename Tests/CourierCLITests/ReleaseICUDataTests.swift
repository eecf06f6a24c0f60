import CourierTestSupport
import Foundation
import Testing

/// The release build links a cut-down ICU data package (Scripts/icu-data-subset.py): it must keep what
/// Courier's date formats, time zones, regular expressions and normalisation read, and drop the rest.
/// `make test-release` runs the command-line tests on the binary that links it.
@Suite struct ReleaseICUDataTests {
    /// The items of an ICU common data package: its table of contents, read as ICU reads it.
    static func itemNames(_ package: Data) throws -> [String] {
        let bytes = [UInt8](package)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        let table = u16(0)
        let count = u32(table)
        return try (0..<count).map { index in
            let start = table + u32(table + 4 + 8 * index)
            let end = try #require(bytes[start...].firstIndex(of: 0))
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }

    @Test func theReleaseICUDataKeepsRootAndEnglishTimeZonesAndNormalisationAndDropsTheRest() async throws {
        // Given the toolchain's static ICU archive
        let info = try await CodeRunners.run("swiftc", ["-print-target-info"])
        let resources = try #require(info.stdout.firstMatch(of: /"runtimeResourcePath": "(.*)\/swift"/)?.1)
        let archive = "\(resources)/swift_static/linux/lib_FoundationICU.a"
        try #require(FileManager.default.fileExists(atPath: archive), "no static ICU archive at \(archive)")
        let folder = try TemporaryFolder()
        let object = folder.url.appendingPathComponent("data.o").path
        // When the release build's subset is written
        let made = try await CodeRunners.run("python3", [CourierCLI.packageRoot.path + "/Scripts/icu-data-subset.py",
                                                          archive, object])
        #expect(made.status == 0, "\(made.stderr)")
        let dumped = folder.url.appendingPathComponent("data.dat").path
        let copied = try await CodeRunners.run("objcopy", ["-O", "binary", "--only-section=.rodata.icudata", object, dumped])
        #expect(copied.status == 0, "\(copied.stderr)")
        let package = try Data(contentsOf: URL(fileURLWithPath: dumped))
        let names = try Self.itemNames(package).map { String($0.drop { $0 != "/" }.dropFirst()) }
        // Then it holds the root and English locale data, time zones, normalisation and break rules, sorted
        // as ICU's binary search needs them
        for needed in ["root.res", "en.res", "en_US_POSIX.res", "en_001.res", "pool.res", "supplementalData.res",
                       "likelySubtags.res", "zoneinfo64.res", "metaZones.res", "timezoneTypes.res", "windowsZones.res",
                       "zone/root.res", "zone/en.res", "nfkc.nrm", "uts46.nrm", "cnvalias.icu", "brkitr/word.brk",
                       "res_index.res"] {
            #expect(names.contains(needed), "\(needed) is missing")
        }
        #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        // And none of the legacy converters, collation, other locales or character names
        #expect(!names.contains { $0.hasSuffix(".cnv") || $0.hasPrefix("coll/") || $0.hasSuffix(".dict") })
        #expect(!names.contains { ["de.res", "ja.res", "zone/fr.res", "unames.icu"].contains($0) })
        #expect(package.count < 5_000_000, "\(package.count) bytes")
    }
}
