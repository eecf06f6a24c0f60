import Foundation

/// The libraries `require` gives scripts, as Postman's sandbox lists them, and where their files come from:
/// Debian's packages (`node-lodash`, `node-moment`, …) install them under `/usr/share/nodejs`, and scripts read
/// files there and nowhere else. The sources are Debian's, so they are loaded when a script asks, never
/// copied into Courier; a module that is not installed, or not on the list, is an error naming what is.
public enum ScriptModules {
    /// Where a module a script may `require` comes from.
    public enum Source: Sendable, Hashable {
        /// Files of a Debian package under the module folders.
        case package(String)
        /// Written into Courier (`crypto-js`, `atob`, `btoa`, `timers`).
        case builtIn
        /// Postman has it, Debian does not package it, and Courier does not provide it: the error says what to
        /// use instead.
        case unavailable(String)
    }

    /// Every name `require` answers, with where it comes from (Postman's list: its libraries and the Node
    /// built-ins it emulates).
    public static let modules: [(name: String, source: Source)] = [
        ("ajv", .package("node-ajv")), ("atob", .builtIn), ("btoa", .builtIn), ("chai", .package("chai")),
        ("cheerio", .package("node-cheerio")), ("crypto-js", .builtIn), ("lodash", .package("node-lodash")),
        ("moment", .package("node-moment")), ("uuid", .package("node-uuid")), ("xml2js", .package("node-xml2js")),
        ("tv4", .builtIn),
        ("csv-parse/lib/sync", .unavailable("Debian has no csv-parse package")),
        ("postman-collection", .unavailable("Debian has no postman-collection package")),
        ("assert", .package("node-assert")), ("buffer", .package("node-buffer")),
        ("events", .package("node-events")), ("punycode", .package("node-punycode")),
        ("querystring", .package("node-querystring")), ("string_decoder", .package("node-string-decoder")),
        ("stream", .package("node-readable-stream")), ("timers", .builtIn), ("url", .package("node-url")),
        ("util", .package("node-util")),
        ("path", .unavailable("Debian has no browser build of Node's path module")),
    ]

    /// The folders module files are read from: `COURIER_SCRIPT_MODULES` (colon-separated) when set, else
    /// Debian's. Packages are looked up in the first ones; a file may be a link into any of them.
    public static var folders: [String] {
        if let custom = ProcessInfo.processInfo.environment["COURIER_SCRIPT_MODULES"] {
            return custom.split(separator: ":").map(String.init)
        }
        // Debian's node packages link some of their files into /usr/share/javascript.
        return ["/usr/share/nodejs", "/usr/lib/nodejs", "/usr/share/javascript"]
    }

    /// The largest module file read (Debian's largest, lodash.js, is 540 KB).
    static let maximumFileSize = 16 << 20

    /// The text of the module file at `path`, when it is a regular `.js` or `.json` file inside one of
    /// `folders` once every link is resolved; nil otherwise (missing, elsewhere, too large).
    static func read(_ path: String) -> String? {
        guard path.hasSuffix(".js") || path.hasSuffix(".json") || path.hasSuffix(".cjs"),
              let resolved = realpath(path, nil) else { return nil }
        let real = String(cString: resolved)
        free(resolved)
        let roots = folders.compactMap { folder -> String? in
            guard let root = realpath(folder, nil) else { return nil }
            defer { free(root) }
            return String(cString: root)
        }
        guard roots.contains(where: { real.hasPrefix($0 + "/") }) else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maximumFileSize,
              let data = FileManager.default.contents(atPath: real) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The table the `require` prelude reads: name → package folder (or "" for built-ins), and for the ones
    /// that are not available, why. Made once: the folders come from the process's environment.
    static let preludeTable: String = {
        let available = modules.map { module -> String in
            switch module.source {
            case .package(let package): "\(quoted(module.name)): {package: \(quoted(package))}"
            case .builtIn: "\(quoted(module.name)): {builtIn: true}"
            case .unavailable(let why): "\(quoted(module.name)): {unavailable: \(quoted(why))}"
            }
        }
        let roots = folders.map(quoted).joined(separator: ", ")
        return "{modules: {\(available.joined(separator: ", "))}, folders: [\(roots)]}"
    }()

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
