// swift-tools-version:6.0
import PackageDescription
import Foundation

/// One libFuzzer executable per folder under Sources/ (each holds only `LLVMFuzzerTestOneInput`),
/// found by listing the folder so that adding a fuzzer needs no edit here.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? [])
    .filter { $0.hasPrefix("Fuzz") }
    .sorted()

let package = Package(
    name: "CourierFuzz",
    dependencies: [.package(name: "Courier", path: "..")],
    targets: names.map { name in
        .executableTarget(name: name, dependencies: [
            .product(name: "CourierHTTP", package: "Courier"),
            .product(name: "CourierCollections", package: "Courier"),
            .product(name: "CourierWebSocket", package: "Courier"),
            .product(name: "CourierBody", package: "Courier"),
            .product(name: "CourierDemo", package: "Courier"),
            .product(name: "CourierSecurity", package: "Courier"),
            .product(name: "CourierMessage", package: "Courier"),
        ], swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    },
    swiftLanguageModes: [.v6]
)
