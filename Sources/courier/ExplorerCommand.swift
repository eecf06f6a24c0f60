import CourierApp
import CourierBody
import CourierCollections
import CourierDemo
import CourierHTTP
import CourierHistory
import CourierTerminal
import Foundation

/// `courier [PATH]` and `courier demo`: the explorer.
enum ExplorerCommand {
    /// The port `courier demo` prefers; a free one is taken when it is busy.
    static let demoPort: UInt16 = 8088

    /// `courier` itself: the explorer's arguments and options, which head the top-level help.
    static let spec = CommandSpec(
        name: "", summary: "The explorer: browse, edit and send the saved requests of a collection.",
        overview: "Courier, a terminal API explorer.",
        arguments: [ArgumentSpec("PATH", .file, optional: true,
                                 help: "A .http file, a folder of them or a Postman collection (default: "
                                     + "./Collections, else . when it or a folder in it holds .http or .rest files).")],
        options: [
            .option("--theme", "NAME", default: "dark, or \"theme\" in ~/.config/courier/config.json",
                    help: "dark, light, high-contrast, monochrome or a Themes/NAME.json."),
            .option("--env", "ENV", default: "\"environment\" in ~/.config/courier/config.json",
                    help: "The environment from http-client.env.json to resolve {{variables}} with."),
            .flag("--show-secrets", help: "Draw sent credentials and private values instead of REDACTED."),
            .flag("--version", short: "V", help: "Print the version."),
        ],
        notes: """
            See 'courier SUBCOMMAND --help' for each subcommand. Inside the explorer, ? lists every key;
            "keys" in ~/.config/courier/config.json rebinds them (see the README).
            """)

    /// `courier demo`.
    static let demoSpec = CommandSpec(
        name: "demo", summary: "Start the demo server and open the explorer on the demo collection.",
        overview: "Start the demo server on 127.0.0.1 and open the explorer on the demo collection.",
        options: [
            .option("--port", "N", .number, default: "8088; a free one when it is taken",
                    help: "The port to try first."),
            .option("--theme", "NAME", default: "dark", help: "The colour theme."),
        ])

    static func open(_ arguments: [String]) -> Int32 {
        let args: ParsedArguments
        do {
            // The explorer's help is the top-level help, which also lists the subcommands.
            guard let parsed = try spec.parse(arguments) else {
                Console.out(CommandLineMain.help)
                return 0
            }
            args = parsed
        } catch {
            return error.report()
        }
        if args.flag("--version") { return CommandLineMain.printVersion() }
        do throws(UsageError) {
            let theme = args.value("--theme")
            let environment = args.value("--env")
            let positionals = args.positionals
            if let first = positionals.first, !FileManager.default.fileExists(atPath: first),
               let hint = mistypedSubcommand(first) {
                // `courier sned https://…`: a subcommand mistyped, whatever follows it.
                Console.fail("no collection at '\(first)' and no command of that name\(hint)")
                return 2
            }
            guard positionals.count <= 1 else { throw UsageError("give one PATH, not \(positionals.count)", command: "") }
            guard let path = positionals.first ?? defaultCollection() else {
                Console.fail("""
                    no Collections folder and no .http or .rest file here: give a .http file or a folder of them \
                    (courier api/users.http), or try the demo collection with 'courier demo'
                    """)
                return 2
            }
            guard FileManager.default.fileExists(atPath: path) else {
                Console.fail("no collection at '\(path)': give a .http file or a folder of them")
                return 2
            }
            // A Postman collection opens through a converted copy, as `courier run` runs one.
            let postman: (folder: String, notice: String)?
            do {
                postman = try PostmanExplorerCopy.prepare(path)
            } catch {
                Console.fail("\(path): \(error)")
                return 1
            }
            let status = launch(path: postman?.folder ?? path, environment: environment, themeName: theme,
                                overrides: [:], notice: postman?.notice, showSecrets: args.flag("--show-secrets"))
            if let notice = postman?.notice { Console.error(notice) }
            return status
        } catch {
            return error.report()
        }
    }

    /// "; did you mean 'courier send'?" when `word` is close to a subcommand's name (a mistyped subcommand
    /// reads as a path), nil otherwise.
    static func mistypedSubcommand(_ word: String) -> String? {
        let close = NameSuggestions.closest(to: word, in: CommandLineMain.subcommands.map(\.name))
        return close.isEmpty ? nil : "; did you mean \(ListWording.quoted(close.map { "courier " + $0 }))?"
    }

    /// What `courier` with no PATH opens: `Collections` when there is one, else the current folder when it
    /// holds request files (a `.http`/`.rest` file, or the `.http/` folder httpyac users keep) or one of its
    /// folders does, as the editor tools open the files beside them. Only one level down is looked at: run in
    /// a home folder, `courier` does not search it all.
    static func defaultCollection(in folder: String = ".") -> String? {
        let collections = folder == "." ? "Collections" : (folder as NSString).appendingPathComponent("Collections")
        if FileManager.default.fileExists(atPath: collections) { return collections }
        return holdsRequests(folder, depth: 1) ? folder : nil
    }

    /// Whether `folder`, or a folder `depth` levels below it (hidden and tool folders left out), holds a
    /// request file: projects keep theirs in `http/` or `requests/` as often as beside the README.
    private static func holdsRequests(_ folder: String, depth: Int) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        if names.contains(where: { CollectionLoader.extensions.contains(($0 as NSString).pathExtension.lowercased())
            || CollectionLoader.requestFolders.contains($0) }) {
            return true
        }
        guard depth > 0 else { return false }
        return names.lazy.filter { !$0.hasPrefix(".") && !CollectionLoader.skippedFolders.contains($0) }.contains {
            var isFolder: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent($0)
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
                && holdsRequests(path, depth: depth - 1)
        }
    }

    static func demo(_ arguments: [String]) -> Int32 {
        demoSpec.run(arguments) { args throws(UsageError) in
            if let extra = args.positionals.first {
                throw UsageError("unexpected argument '\(extra)'", command: "demo")
            }
            return demo(theme: args.value("--theme"),
                        port: args.number("--port").map { UInt16(clamping: Int($0)) } ?? demoPort)
        }
    }

    private static func demo(theme: String?, port: UInt16) -> Int32 {
        // The project's own copy when run from the checkout; anywhere else the copy built into the binary,
        // written to the state folder (never the current one).
        var notice: String?
        let collection: String
        if FileManager.default.fileExists(atPath: "Collections/demo.http") {
            collection = "Collections/demo.http"
        } else {
            do {
                collection = try DemoCollectionCopy.prepare(environment: ProcessInfo.processInfo.environment).path
            } catch {
                Console.fail("cannot write the demo collection: \(error)")
                return 1
            }
            notice = "Demo collection: \(collection)"
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
        // The server fills in `base` for the environments that set none; one the user pointed elsewhere
        // keeps its own, and the first status line says which is which.
        let environments = DemoEnvironments.notice(collection: collection)
        let status = launch(path: collection, environment: DemoEnvironments.own, themeName: theme, overrides: [:],
                            defaults: (["base": base, "ws": ws], [DemoEnvironments.own]),
                            notice: [environments, notice].compactMap { $0 }.joined(separator: " · "))
        // Said again once the terminal is back, where it stays readable.
        if let notice { Console.error(notice) }
        return status
    }

    /// Takes over the terminal, runs the explorer and gives the terminal back.
    static func launch(path: String, environment: String?, themeName: String?, overrides: [String: String],
                       defaults: ([String: String], win: Set<String>) = ([:], []), notice: String? = nil,
                       showSecrets: Bool = false) -> Int32 {
        let processEnvironment = ProcessInfo.processInfo.environment
        let noColor = !(processEnvironment["NO_COLOR"] ?? "").isEmpty
        let settings: UserSettings
        do {
            settings = try UserSettings.load(from: UserSettings.defaultFile(environment: processEnvironment))
        } catch {
            Console.error("Error: \(error)")
            return 2
        }
        let environment = environment ?? settings.environment
        let folders = themeFolders(processEnvironment, collection: path)
        // A theme file is a few hundred bytes: reading it before the first frame avoids a flash of the default.
        let (theme, warning) = ThemeLoader.load(name: themeName ?? settings.theme ?? "dark", folders: folders,
                                                trueColor: true, noColor: noColor)
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
        if showSecrets { state.setSecretsShown(true) }
        let keysError = state.useKeys(settings.keys)
        if let notice { state.status = StatusMessage(notice) }
        if let warning { state.status = StatusMessage(warning, kind: .error) }
        let queue = ActionQueue { backend.wake() }
        // The private HTTP cache under ~/.cache/courier/http, so the compare view has something to show;
        // an unusable folder just means no cache. Its leftovers are collected after the first frame.
        let cache = try? HTTPCacheMiddleware(directory: cacheFolder(processEnvironment), housekeeping: .later)
        var configuration = EffectRunner.Configuration(
            transport: DeferredTransport { CurlTransport() }, themeFolders: folders, trueColor: true, noColor: noColor,
            cache: cache, historyDirectory: HistoryStore.defaultDirectory(environment: processEnvironment),
            cookies: CookieJarStore(environment: processEnvironment))
        configuration.authTokens = OAuth2TokenCache(environment: processEnvironment)
        let runner = EffectRunner(configuration: configuration, queue: queue,
                                  store: CollectionStore(overrides: overrides, defaults: defaults.0,
                                                         defaultsWin: defaults.win))
        SecretStores.keepOffTheTerminal()
        Explorer.run(backend: CrashTestHook.wrap(backend), state: state, runner: runner, queue: queue,
                     startup: [.loadCollectionInStages(path: path), .listThemes])
        // Said again once the terminal is back, where it stays readable.
        if let keysError { Console.error("Error: \(keysError) (the default keys were in use)") }
        return 0
    }

    /// Where theme files are looked for, before the built-in copies: `$COURIER_THEMES`, the user's
    /// config (`$XDG_CONFIG_HOME/courier/themes`), `Themes/` beside the collection, and the current
    /// folder's `Themes/`.
    static func themeFolders(_ environment: [String: String], collection: String? = nil) -> [URL] {
        var folders: [URL] = []
        if let custom = environment["COURIER_THEMES"] { folders.append(URL(fileURLWithPath: custom)) }
        let config = environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? UserSettings.home(environment).appendingPathComponent(".config")
        folders.append(config.appendingPathComponent("courier/themes"))
        if let collection {
            var isFolder: ObjCBool = false
            let url = URL(fileURLWithPath: collection)
            let folder = FileManager.default.fileExists(atPath: collection, isDirectory: &isFolder) && isFolder.boolValue
                ? url : url.deletingLastPathComponent()
            folders.append(folder.appendingPathComponent("Themes"))
            // A collection in `Collections/` keeps its themes in the project's `Themes/` beside that folder.
            folders.append(folder.deletingLastPathComponent().appendingPathComponent("Themes"))
        }
        folders.append(URL(fileURLWithPath: "Themes"))
        var seen = Set<String>()
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// `$XDG_CACHE_HOME/courier/http`, else `~/.cache/courier/http`.
    static func cacheFolder(_ environment: [String: String]) -> URL {
        HTTPCacheStore.defaultDirectory(environment: environment)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
