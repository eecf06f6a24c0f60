// swift-tools-version:6.0
import PackageDescription

/// Courier: a terminal API explorer. The module graph points one way:
/// courier → CourierApp → {CourierTerminal, CourierCollections, CourierHTTP, CourierWebSocket, CourierBody};
/// CourierHTTP → CCurl; CourierWebSocket → CCurl, CCrypto; CourierTerminal → CNcursesw; CourierCollections → CYaml.
let package = Package(
    name: "Courier",
    products: [
        .executable(name: "courier", targets: ["courier"]),
        .library(name: "CourierHTTP", targets: ["CourierHTTP"]),
        .library(name: "CourierWebSocket", targets: ["CourierWebSocket"]),
        .library(name: "CourierCollections", targets: ["CourierCollections"]),
        .library(name: "CourierBody", targets: ["CourierBody"]),
        .library(name: "CourierTerminal", targets: ["CourierTerminal"]),
        .library(name: "CourierApp", targets: ["CourierApp"]),
        .library(name: "CourierDemo", targets: ["CourierDemo"]),
    ],
    targets: [
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto"),
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        .systemLibrary(name: "CYaml", path: "Sources/CYaml"),

        .target(name: "CourierHTTP", dependencies: ["CCurl"]),
        .target(name: "CourierWebSocket", dependencies: ["CCurl", "CCrypto", "CourierHTTP"]),
        .target(name: "CourierCollections", dependencies: ["CourierHTTP", "CourierBody", "CYaml"]),
        .target(name: "CourierBody"),
        .target(name: "CourierTerminal", dependencies: ["CNcursesw"]),
        .target(name: "CourierDemo", dependencies: ["CourierWebSocket"]),
        .target(name: "CourierApp", dependencies: [
            "CourierTerminal", "CourierCollections", "CourierHTTP", "CourierWebSocket", "CourierBody",
        ]),
        .executableTarget(name: "courier", dependencies: [
            "CourierApp", "CourierDemo", "CourierHTTP", "CourierCollections", "CourierWebSocket", "CourierBody",
        ]),
        .executableTarget(name: "courier-bench", dependencies: [
            "CourierHTTP", "CourierDemo", "CourierWebSocket", "CourierBody", "CourierApp", "CourierTerminal",
            "CourierCollections",
        ], path: "Benchmarks"),

        .testTarget(name: "CourierHTTPTests", dependencies: ["CourierHTTP", "CourierDemo"]),
        .testTarget(name: "CourierWebSocketTests", dependencies: ["CourierWebSocket", "CourierDemo"]),
        .testTarget(name: "CourierCollectionsTests", dependencies: ["CourierCollections", "CourierDemo"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "CourierBodyTests", dependencies: ["CourierBody"]),
        .testTarget(name: "CourierTerminalTests", dependencies: ["CourierTerminal"], exclude: ["Snapshots"]),
        .testTarget(name: "CourierAppTests", dependencies: ["CourierApp", "CourierDemo"],
                    resources: [.copy("Snapshots")]),
        .testTarget(name: "CourierDemoTests", dependencies: ["CourierDemo", "CourierHTTP"]),
        .testTarget(name: "EndToEndTests", dependencies: [
            "CourierDemo", "CourierHTTP", "CourierWebSocket", "CourierTerminal", "CourierApp",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
