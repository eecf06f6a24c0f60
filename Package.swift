// swift-tools-version:6.0
import PackageDescription

/// Courier: a terminal API explorer. The module graph points one way:
/// courier → CourierApp → {CourierTerminal, CourierCollections, CourierHTTP, CourierWebSocket, CourierBody,
/// CourierHistory}; CourierHistory → CourierBody (kept responses, redacted; CourierCollections imports HAR into it);
/// CourierHTTP, CourierScript, CourierHistory → CourierMessage (the one header list and response head, a leaf);
/// every module → CourierSecurity (the secret policy, the sanitiser, atomic writes and folder listings; dependency-free);
/// CourierCollections → CourierScript → {CJavaScriptCore, CCrypto}; CourierCollections → {CYaml, CXML2, CSecret};
/// CourierCollections → CourierGRPC → {CourierHTTP (its HTTP/2 streams), CourierBody, CZlib};
/// CourierHTTP → CCurl, CCrypto (PKCE, AWS signatures), CHTTPParser (`courier load`'s wire loop);
/// CourierWebSocket → CCurl, CCrypto; CourierTerminal → CNcursesw.
let package = Package(
    name: "Courier",
    products: [
        .executable(name: "courier", targets: ["courier"]),
        .library(name: "CourierHTTP", targets: ["CourierHTTP"]),
        .library(name: "CourierWebSocket", targets: ["CourierWebSocket"]),
        .library(name: "CourierCollections", targets: ["CourierCollections"]),
        .library(name: "CourierBody", targets: ["CourierBody"]),
        .library(name: "CourierHistory", targets: ["CourierHistory"]),
        .library(name: "CourierScript", targets: ["CourierScript"]),
        .library(name: "CourierTerminal", targets: ["CourierTerminal"]),
        .library(name: "CourierApp", targets: ["CourierApp"]),
        .library(name: "CourierDemo", targets: ["CourierDemo"]),
        .library(name: "CourierSecurity", targets: ["CourierSecurity"]),
        .library(name: "CourierMessage", targets: ["CourierMessage"]),
        .library(name: "CourierGRPC", targets: ["CourierGRPC"]),
    ],
    targets: [
        // The one dlopen-and-dlsym loader of the C modules below that load their library on first use.
        .target(name: "CLibraryLoader", path: "Sources/CLibraryLoader", publicHeadersPath: "."),
        // libcurl, loaded with dlopen on the first request (see library.h), so it is not linked.
        .target(name: "CCurl", dependencies: ["CCrypto", "CLibraryLoader"], path: "Sources/CCurl",
                publicHeadersPath: "."),
        // libcrypto, loaded with dlopen on the first hash, signature or random bytes (see library.h): not linked.
        .target(name: "CCrypto", dependencies: ["CLibraryLoader"], path: "Sources/CCrypto", publicHeadersPath: "."),
        // http-parser for `courier load`'s own wire loop, loaded with dlopen when a run takes that way: not linked.
        .target(name: "CHTTPParser", dependencies: ["CLibraryLoader"], path: "Sources/CHTTPParser",
                publicHeadersPath: "."),
        // The courier process's end: C's standard streams flushed before `_exit` (see main.swift).
        .target(name: "CProcess", path: "Sources/CProcess", publicHeadersPath: "."),
        // ncursesw for the explorer, loaded with dlopen when it first draws (see its library.h): not linked.
        .target(name: "CNcursesw", dependencies: ["CLibraryLoader"], path: "Sources/CNcursesw",
                publicHeadersPath: "."),
        // Loaded with dlopen on the first script (see its shim.h), so it is not linked.
        .systemLibrary(name: "CJavaScriptCore", path: "Sources/CJavaScriptCore"),
        // libyaml for OpenAPI descriptions in YAML, loaded with dlopen on first use (see its library.h): not linked.
        .target(name: "CYaml", dependencies: ["CLibraryLoader"], path: "Sources/CYaml", publicHeadersPath: "."),
        // libxml2 for XPath over XML responses, loaded with dlopen on first use (see its shim.h): not linked.
        .systemLibrary(name: "CXML2", path: "Sources/CXML2"),
        // zlib for gRPC's gzip message compression (libcurl decodes HTTP bodies itself), loaded with dlopen on
        // first use (see its library.h): not linked.
        .target(name: "CZlib", dependencies: ["CLibraryLoader"], path: "Sources/CZlib", publicHeadersPath: "."),
        // libsecret for environment values kept in the keyring, loaded with dlopen on first use: not linked.
        .systemLibrary(name: "CSecret", path: "Sources/CSecret"),

        .target(name: "CourierSecurity"),
        // The one header list and response head that the client, history, scripts and panes share: a leaf.
        .target(name: "CourierMessage"),
        .target(name: "CourierHTTP", dependencies: [
            "CCurl", "CCrypto", "CHTTPParser", "CourierSecurity", "CourierMessage", "CProcess",
        ]),
        .target(name: "CourierWebSocket", dependencies: [
            "CCurl", "CCrypto", "CourierHTTP", "CourierSecurity", "CourierMessage",
        ]),
        .target(name: "CourierCollections", dependencies: [
            "CourierHTTP", "CourierWebSocket", "CourierBody", "CourierScript", "CYaml", "CXML2", "CSecret",
            "CourierSecurity", "CourierGRPC", "CourierHistory", "CourierMessage",
        ]),
        .target(name: "CourierScript", dependencies: ["CJavaScriptCore", "CCrypto", "CourierMessage", "CourierBody"]),
        .target(name: "CourierGRPC", dependencies: [
            "CourierHTTP", "CourierBody", "CourierSecurity", "CourierMessage", "CZlib",
        ]),
        .target(name: "CourierBody", dependencies: ["CourierSecurity"]),
        .target(name: "CourierHistory", dependencies: ["CourierBody", "CourierSecurity", "CourierMessage"]),
        .target(name: "CourierTerminal", dependencies: ["CNcursesw", "CourierSecurity", "CProcess"]),
        .target(name: "CourierDemo", dependencies: ["CourierHTTP", "CourierWebSocket", "CCrypto"]),
        .target(name: "CourierApp", dependencies: [
            "CourierTerminal", "CourierCollections", "CourierHTTP", "CourierWebSocket", "CourierBody",
            "CourierScript", "CourierSecurity", "CourierGRPC", "CourierHistory", "CourierMessage",
        ], exclude: ["README.md"]),
        .executableTarget(name: "courier", dependencies: [
            "CourierApp", "CourierDemo", "CourierHTTP", "CourierCollections", "CourierWebSocket", "CourierBody",
            "CourierScript", "CourierTerminal", "CourierSecurity", "CourierGRPC", "CourierHistory", "CourierMessage",
            "CProcess",
        ]),
        .executableTarget(name: "courier-bench", dependencies: [
            "CourierHTTP", "CourierDemo", "CourierWebSocket", "CourierBody", "CourierApp", "CourierTerminal",
            "CourierCollections", "CourierScript", "CourierSecurity", "CourierGRPC", "CourierHistory",
        ], path: "Benchmarks", exclude: ["README.md"]),

        // What the test targets share: the one child-process helper (CourierCLI, ChildProcess) and the
        // loopback servers. Only test targets depend on it.
        .target(name: "CourierTestSupport", dependencies: [
            "CourierHTTP", "CourierWebSocket", "CourierDemo", "CourierBody", "CourierHistory",
        ], path: "Tests/CourierTestSupport"),
        .testTarget(name: "CourierHTTPTests", dependencies: [
            "CourierHTTP", "CourierDemo", "CourierSecurity", "CourierTestSupport", "CourierMessage", "CHTTPParser",
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "CourierWebSocketTests", dependencies: [
            "CourierWebSocket", "CourierDemo", "CourierTestSupport", "CourierMessage",
        ]),
        .testTarget(name: "CourierCollectionsTests", dependencies: [
            "CourierCollections", "CourierDemo", "CourierTestSupport", "CourierMessage",
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "CourierBodyTests", dependencies: ["CourierBody", "CourierTestSupport"]),
        .testTarget(name: "CourierHistoryTests", dependencies: [
            "CourierHistory", "CourierTestSupport", "CourierMessage",
        ], exclude: ["Fixtures"]),
        .testTarget(name: "CourierSecurityTests", dependencies: ["CourierSecurity", "CourierTestSupport"]),
        // Every test that runs the built `courier` binary as a user would (except the tmux explorer tests
        // in EndToEndTests), through CourierTestSupport's CourierCLI.
        .testTarget(name: "CourierCLITests", dependencies: [
            "CourierTestSupport", "CourierDemo", "CourierHTTP", "CourierWebSocket", "CourierCollections",
            "CourierBody", "CourierSecurity", "CourierHistory", "CourierMessage",
        ]),
        .testTarget(name: "CourierScriptTests", dependencies: ["CourierScript", "CourierTestSupport", "CourierMessage"]),
        .testTarget(name: "CourierGRPCTests", dependencies: ["CourierGRPC", "CourierBody", "CourierHTTP"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "CourierTerminalTests", dependencies: ["CourierTerminal", "CourierSecurity", "CourierTestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "CourierAppTests", dependencies: [
            "CourierApp", "CourierDemo", "CourierCollections", "CourierScript", "CourierSecurity", "CourierTestSupport",
            "CourierHistory", "CourierMessage",
        ], resources: [.copy("Snapshots")]),
        .testTarget(name: "CourierDemoTests", dependencies: ["CourierDemo", "CourierHTTP"]),
        .testTarget(name: "EndToEndTests", dependencies: [
            "CourierTestSupport", "CourierDemo", "CourierHTTP", "CourierWebSocket", "CourierTerminal", "CourierApp", "CourierSecurity",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
