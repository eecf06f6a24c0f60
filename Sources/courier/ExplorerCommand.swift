import CourierApp
import CourierBody
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation

/// `courier [PATH]` and `courier demo`: the explorer.
enum ExplorerCommand {
    /// The port `courier demo` prefers; a free one is taken when it is busy.
    static let demoPort: UInt16 = 8088

    static let help = """
        OVERVIEW: The explorer: browse, edit and send the saved requests of a collection.

        USAGE: courier [PATH] [--theme NAME] [--env ENV]

        ARGUMENTS:
          PATH            A .http file or a folder of them (default: ./Collections).

        OPTIONS:
          --theme NAME    dark, light, high-contrast, monochrome or a Themes/NAME.json (default: dark).
          --env ENV       The environment from http-client.env.json to resolve {{variables}} with.
          -h, --help      Show help. Inside the explorer, ? lists every key.
        """

    static let demoHelp = """
        OVERVIEW: Start the demo server on 127.0.0.1 and open the explorer on the demo collection.

        USAGE: courier demo [--port N] [--theme NAME]

        OPTIONS:
          --port N        The port to try first (default: 8088; a free one when it is taken).
          --theme NAME    The colour theme (default: dark).
          -h, --help      Show help.
        """

    static func open(_ arguments: [String]) -> Int32 {
        var args = Arguments(arguments, command: "")
        if args.wantsHelp() { Console.out(help); return 0 }
        do throws(UsageError) {
            let theme = try args.option("--theme")
            let environment = try args.option("--env")
            let positionals = try args.positionals()
            guard positionals.count <= 1 else { throw UsageError("give one PATH, not \(positionals.count)", command: "") }
            let path = positionals.first ?? "Collections"
            guard FileManager.default.fileExists(atPath: path) else {
                Console.fail("no collection at '\(path)': give a .http file or a folder of them")
                return 2
            }
            return launch(path: path, environment: environment, themeName: theme, overrides: [:])
        } catch {
            return error.report()
        }
    }

    static func demo(_ arguments: [String]) -> Int32 {
        var args = Arguments(arguments, command: "demo")
        if args.wantsHelp() { Console.out(demoHelp); return 0 }
        do throws(UsageError) {
            let theme = try args.option("--theme")
            let port = try args.number("--port").map { UInt16(clamping: Int($0)) } ?? demoPort
            _ = try args.positionals()
            guard let collection = locate("Collections/demo.http") else {
                Console.fail("Collections/demo.http not found; run courier demo from the project folder")
                return 1
            }
            let server: DemoServer
            do {
                server = try (try? DemoServer.start(port: port)) ?? DemoServer.start(port: 0)
            } catch {
                Console.fail("the demo server could not start: \(error)")
                return 1
            }
            defer { server.stop() }
            let base = server.baseURL.absoluteString.trimmingSuffix("/")
            let ws = "ws://\(server.host):\(server.port)"
            return launch(path: collection, environment: "demo", themeName: theme, overrides: ["base": base, "ws": ws])
        } catch {
            return error.report()
        }
    }

    /// Takes over the terminal, runs the explorer and gives the terminal back.
    static func launch(path: String, environment: String?, themeName: String?, overrides: [String: String]) -> Int32 {
        let processEnvironment = ProcessInfo.processInfo.environment
        let noColor = !(processEnvironment["NO_COLOR"] ?? "").isEmpty
        let folders = themeFolders(processEnvironment)
        // A theme file is a few hundred bytes: reading it before the first frame avoids a flash of the default.
        let (theme, warning) = ThemeLoader.load(name: themeName ?? "dark", folders: folders, trueColor: true,
                                                noColor: noColor)
        // A parent may start us with signals blocked (test runners do); the terminal must still be
        // restored and the process end on SIGHUP/SIGTERM, so take the default mask.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        pthread_sigmask(SIG_SETMASK, &unblocked, nil)
        let backend: CursesBackend
        do {
            backend = try CursesBackend()
        } catch {
            Console.fail("the explorer needs a terminal: \(error)")
            return 1
        }
        defer { backend.restore() }
        var state = AppState(size: backend.size, collectionPath: path, environment: environment, theme: theme)
        if let warning { state.status = StatusMessage(warning, kind: .error) }
        let queue = ActionQueue { backend.wake() }
        // The private HTTP cache under ~/.cache/courier/http, so the compare view has something to show;
        // an unusable folder just means no cache.
        let cache = try? HTTPCacheMiddleware(directory: cacheFolder(processEnvironment))
        let runner = EffectRunner(
            configuration: .init(transport: CurlTransport(), themeFolders: folders, trueColor: true, noColor: noColor,
                                 cache: cache,
                                 historyDirectory: HistoryStore.defaultDirectory(environment: processEnvironment)),
            queue: queue, store: CollectionStore(overrides: overrides))
        Explorer.run(backend: CrashTestHook.wrap(backend), state: state, runner: runner, queue: queue,
                     startup: [.loadCollection(path: path), .listThemes])
        return 0
    }

    /// Where themes are looked for: `$COURIER_THEMES`, the user's config, the current folder's `Themes`,
    /// and the `Themes` folder of the checkout the binary was built in.
    static func themeFolders(_ environment: [String: String]) -> [URL] {
        var folders: [URL] = []
        if let custom = environment["COURIER_THEMES"] { folders.append(URL(fileURLWithPath: custom)) }
        let config = environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        folders.append(config.appendingPathComponent("courier/themes"))
        folders.append(URL(fileURLWithPath: "Themes"))
        folders.append(packageRoot.appendingPathComponent("Themes"))
        return folders
    }

    /// `$XDG_CACHE_HOME/courier/http`, else `~/.cache/courier/http`.
    static func cacheFolder(_ environment: [String: String]) -> URL {
        HTTPCacheStore.defaultDirectory(environment: environment)
    }

    /// The checkout folder when running from `.build/<config>/courier` or, links resolved,
    /// `.build/<triple>/<config>/courier`: the nearest folder above the binary that holds `Package.swift`.
    static var packageRoot: URL {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return binary.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A project file relative to the current folder, else to the checkout the binary was built in.
    static func locate(_ relative: String) -> String? {
        if FileManager.default.fileExists(atPath: relative) { return relative }
        let candidate = packageRoot.appendingPathComponent(relative).path
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
