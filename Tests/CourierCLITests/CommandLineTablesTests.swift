import Foundation
import Testing
import CourierTestSupport

/// The CLI from tables: every command's help, parsing, usage errors, shell completions and manual page come
/// from one declaration per command. These run the built binary and check what it prints, what a real
/// loopback server received, and what bash completes.
@Suite("courier: the command tables")
struct CommandLineTablesTests {
    /// The package root, where the committed manual page and completion scripts live.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every subcommand, as the top-level help lists them.
    static func subcommands() async throws -> [String] {
        let help = try await CourierCLI.run(["--help"]).stdout
        let section = try #require(help.components(separatedBy: "SUBCOMMANDS:\n").last)
        return section.split(separator: "\n").prefix { $0.hasPrefix("  ") }
            .filter { !$0.hasPrefix("   ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The long option names a help text lists in its OPTIONS section.
    static func longOptions(inHelp help: String) -> [String] {
        let section = help.components(separatedBy: "OPTIONS:\n").last ?? ""
        return section.split(separator: "\n").prefix { $0.hasPrefix("  ") || $0.isEmpty }
            .filter { $0.hasPrefix("  -") }
            .compactMap { line in line.split(separator: " ").first { $0.hasPrefix("--") } }
            .map { $0.replacingOccurrences(of: ",", with: "") }
    }

    // MARK: Parsing

    @Test func everySpellingOfAnOptionReachesTheServer() async throws {
        // Given a server that keeps what it receives
        let server = try CaptureServer()
        defer { server.stop() }
        // When options come as --name value, --name=value, -Xvalue, bundled -kv and repeated -H
        let result = try await CourierCLI.run([
            "send", "POST", "\(server.base)/spellings", "-H", "X-One: 1", "--header=X-Two: 2", "-HX-Three: 3",
            "-kv", "--data=a=b", "--retry=0", "--idle-timeout", "5",
        ])
        // Then the request carries every header and the body
        #expect(result.status == 0, "\(result.stderr)")
        let received = try #require(server.requests.first)
        #expect(received.requestLine.hasPrefix("POST /spellings "))
        #expect(received.header("X-One") == "1")
        #expect(received.header("X-Two") == "2")
        #expect(received.header("X-Three") == "3")
        #expect(received.bodyText == "a=b")
        // And -v (bundled with -k) logged the attempt to standard error
        #expect(result.stderr.contains("POST"), "\(result.stderr)")
    }

    @Test func doubleDashEndsTheOptions() async throws {
        // Given a collection file whose name starts with a dash
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("GET http://127.0.0.1:9/x\n".utf8).write(to: folder.appendingPathComponent("-odd.http"))
        // When it is given after --
        let result = try await CourierCLI.run(["check", "--", "-odd.http"], in: folder)
        // Then it is a file, not an option
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("-odd.http:1: GET http://127.0.0.1:9/x"))
        // And without -- it is an unknown option
        let unknown = try await CourierCLI.run(["check", "-odd.http"], in: folder)
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "Error: unknown option '-o'\nHelp:  courier check --help\n")
    }

    @Test func aMistypedOptionSuggestsTheClosestName() async throws {
        let result = try await CourierCLI.run(["send", "http://127.0.0.1:9/", "--timout", "3"])
        #expect(result.status == 2)
        #expect(result.stderr == "Error: unknown option '--timout'; did you mean '--timeout'?\n"
                    + "Help:  courier send --help\n")
        let value = try await CourierCLI.run(["run", "x.http", "--cache-mode", "reloda"])
        #expect(value.status == 2)
        #expect(value.stderr.hasPrefix(
            "Error: --cache-mode takes one of default, revalidate, reload, only-if-cached or bypass, not 'reloda'; "
                + "did you mean 'reload'?"))
        let command = try await CourierCLI.run(["sned"])
        #expect(command.status == 2)
        #expect(command.stderr.contains("did you mean 'courier send'?"))
        // Followed by what the command would take, the typo is still what is named (not "give one PATH, not 2")
        let withURL = try await CourierCLI.run(["sned", "http://127.0.0.1:9/x"])
        #expect(withURL.status == 2)
        #expect(withURL.stderr.contains("no collection at 'sned' and no command of that name; did you mean 'courier send'?"),
                "\(withURL.stderr)")
    }

    @Test func everyCommandReportsAnUnknownOptionInOneFormatWithStatusTwo() async throws {
        for command in try await Self.subcommands() + [""] {
            let arguments = (command.isEmpty ? [] : [command]) + ["--bogus-option"]
            let result = try await CourierCLI.run(arguments)
            let invocation = command.isEmpty ? "courier" : "courier \(command)"
            #expect(result.status == 2, "\(command)")
            #expect(result.stderr == "Error: unknown option '--bogus-option'\nHelp:  \(invocation) --help\n",
                    "\(command)")
        }
    }

    @Test func theExplorerTakesItsOptionsInAnyOrder() async throws {
        // --env first used to be refused as an unknown option (only --theme could come first)
        let result = try await CourierCLI.run(["--env", "dev", "/nonexistent/collection.http"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: no collection at '/nonexistent/collection.http'"), "\(result.stderr)")
    }

    @Test func aMissingValueSaysWhatToType() async throws {
        let result = try await CourierCLI.run(["run", "x.http", "--report", "junit"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: --report needs a value: --report FORMAT FILE\n"))
        let flag = try await CourierCLI.run(["send", "http://127.0.0.1:9/", "--json=yes"])
        #expect(flag.stderr.hasPrefix("Error: --json takes no value\n"))
    }

    // MARK: Help

    @Test func theHelpOfEveryCommandHasTheSameSectionsAndFitsTheWidth() async throws {
        for command in try await Self.subcommands() {
            let result = try await CourierCLI.run([command, "--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdout.hasPrefix("OVERVIEW: "), "\(command)")
            #expect(result.stdout.contains("\n\nUSAGE: courier \(command)"), "\(command)")
            #expect(result.stdout.contains("\n  -h, --help              Show this help.\n"), "\(command)")
            for line in result.stdout.split(separator: "\n") { #expect(line.count <= 104, "\(command): \(line)") }
            // `courier help X` is the same text
            #expect(try await CourierCLI.run(["help", command]).stdout == result.stdout, "\(command)")
        }
        // Every line of the arguments and options, the explorer's included, is indented: a help text with a
        // line break of its own printed its second line at the left margin
        for command in try await [""] + Self.subcommands() {
            let help = try await CourierCLI.run(command.isEmpty ? ["--help"] : [command, "--help"]).stdout
            for section in ["ARGUMENTS:\n", "OPTIONS:\n"] {
                guard let body = help.components(separatedBy: section).dropFirst().first else { continue }
                let lines = body.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
                for line in lines { #expect(line.hasPrefix("  "), "\(command): \(line)") }
            }
        }
    }

    @Test func shortNamesThatWereAcceptedAreNowDocumented() async throws {
        #expect(try await CourierCLI.run(["send", "--help"]).stdout.contains("\n  -k, --insecure          Do not verify"))
        #expect(try await CourierCLI.run(["ws", "--help"]).stdout.contains("\n  -k, --insecure          Do not verify"))
        #expect(try await CourierCLI.run(["serve-demo", "--help"]).stdout.contains("\n  -p, --port N            TCP port"))
        #expect(try await CourierCLI.run(["--help"]).stdout.contains("\n  -V, --version           Print the version."))
    }

    // MARK: Generated files

    @Test(arguments: [
        (["help", "--man"], "docs/courier.1"),
        (["completions", "bash"], "completions/courier.bash"),
        (["completions", "zsh"], "completions/_courier"),
        (["completions", "fish"], "completions/courier.fish"),
    ])
    func theCommittedFileIsWhatTheBinaryGenerates(arguments: [String], path: String) async throws {
        let generated = try await CourierCLI.run(arguments)
        #expect(generated.status == 0)
        let committed = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        #expect(committed == generated.stdout, "run `make man` to regenerate \(path)")
    }

    @Test func theManualPageDescribesEveryCommandAndOption() async throws {
        let page = try await CourierCLI.run(["help", "--man"]).stdout
        #expect(page.contains(".TH COURIER 1"))
        for command in try await Self.subcommands() {
            #expect(page.contains(".SS \"courier \(command.replacingOccurrences(of: "-", with: "\\-"))\""), "\(command)")
            for option in Self.longOptions(inHelp: try await CourierCLI.run([command, "--help"]).stdout) {
                #expect(page.contains("\\fB\(option.replacingOccurrences(of: "-", with: "\\-"))\\fR"), "\(option)")
            }
        }
        // No line starts with a character roff would read as a request, except the requests themselves.
        for line in page.split(separator: "\n") where line.hasPrefix("'") { Issue.record("\(line)") }
    }

    // MARK: Completions

    /// What bash's completion function offers for the words typed so far (the last one being completed).
    static func bashCompletes(_ words: [String], in folder: URL? = nil) async throws -> [String] {
        let script = try await CourierCLI.run(["completions", "bash"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).bash")
        try Data(script.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", """
            source '\(file.path)'
            COMP_WORDS=(courier \(quoted)); COMP_CWORD=\(words.count)
            _courier
            printf '%s\\n' "${COMPREPLY[@]}"
            """], in: folder)
        #expect(result.status == 0)
        let data = result.stdoutData
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesSubcommandsOptionsAndTheirValues() async throws {
        #expect(try await Self.bashCompletes(["se"]) == ["send", "serve-demo"])
        #expect(try await Self.bashCompletes(["send", "--ti"]) == ["--timeout", "--timing"])
        #expect(try await Self.bashCompletes(["send", "--cache-mode", "re"]) == ["reload", "revalidate"])
        #expect(try await Self.bashCompletes(["run", "x.http", "--report", ""]) == ["html", "json", "junit", "tap"])
        #expect(try await Self.bashCompletes(["completions", ""]) == ["bash", "fish", "zsh"])
        #expect(try await Self.bashCompletes(["help", "coo"]) == ["cookies"])
        #expect(try await Self.bashCompletes(["cache", ""]) == ["clear", "ls", "show"])
        #expect(try await Self.bashCompletes(["send", ""]).contains("DELETE"))
        // A header value is free text: nothing is offered
        #expect(try await Self.bashCompletes(["send", "-H", ""]) == [])
    }

    @Test func bashCompletesFilesWhereAValueIsAPath() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("reports"),
                                                withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("GET http://127.0.0.1:9/\n".utf8).write(to: folder.appendingPathComponent("api.http"))
        #expect(try await Self.bashCompletes(["run", "a"], in: folder) == ["api.http"])
        #expect(try await Self.bashCompletes(["run", "api.http", "--report", "junit", "r"], in: folder) == ["reports"])
        #expect(try await Self.bashCompletes(["send", "--cache-dir", ""], in: folder) == ["reports"])
        #expect(try await Self.bashCompletes(["run", "--env", "dev", "a"], in: folder) == ["api.http"])
    }

    @Test func zshAndFishScriptsListEveryOptionOfEveryCommand() async throws {
        let zsh = try await CourierCLI.run(["completions", "zsh"]).stdout
        let fish = try await CourierCLI.run(["completions", "fish"]).stdout
        #expect(zsh.hasPrefix("#compdef courier\n"))
        for command in try await Self.subcommands() {
            let function = "_courier_" + command.replacingOccurrences(of: "-", with: "_")
            let body = try #require(zsh.components(separatedBy: "\n\(function)() {\n").dropFirst().first?
                .components(separatedBy: "\n}\n").first, "\(command)")
            let fishLines = fish.split(separator: "\n").filter { $0.contains("'__fish_seen_subcommand_from \(command)'") }
            #expect(fish.contains("-n '__fish_use_subcommand' -a \(command) -d '"), "\(command)")
            for option in Self.longOptions(inHelp: try await CourierCLI.run([command, "--help"]).stdout) {
                #expect(body.contains(option), "zsh \(command) \(option)")
                #expect(fishLines.contains { $0.contains(" -l \(option.dropFirst(2)) ") }, "fish \(command) \(option)")
            }
        }
        #expect(fish.contains("-l cache-mode -x -a 'default revalidate reload only-if-cached bypass'"))
        #expect(zsh.contains(#"'(--cache-mode)'--cache-mode'[Use the HTTP cache \(in ~/.cache/courier unless "#
                             + #"--cache-dir\) in MODE.]:MODE:(default revalidate reload only-if-cached bypass)'"#))
        #expect(zsh.contains(#"'1:subcommand:((ls\:"Stored responses, most recently used first, with age and "#
                             + #"freshness." "#))
        // Each script parses in its shell, where the shell is installed.
        for (shell, text) in [("zsh", zsh), ("fish", fish)] {
            guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: FileManager.default.isExecutableFile)
            else { continue }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)")
            try Data(text.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try await ChildProcess.run(URL(fileURLWithPath: path), ["-n", file.path])
            #expect(result.status == 0, "\(shell) -n: \(result.stderr)")
        }
        // Single quotes balance on every fish line (a quote in a description is escaped).
        for line in fish.split(separator: "\n") {
            let unescaped = line.replacingOccurrences(of: "\\\\", with: "").replacingOccurrences(of: "\\'", with: "")
            #expect(unescaped.filter { $0 == "'" }.count % 2 == 0, "\(line)")
        }
    }
}

/// The zsh and fish scripts in their own shells (installed by `make deps`; skipped where they are not).
@Suite("courier completions: zsh and fish")
struct ShellCompletionTests {
    static func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)"].first(where: FileManager.default.isExecutableFile)
    }

    /// Runs `shell arguments` and returns its standard output, sorted by line.
    static func run(_ shell: String, _ arguments: [String]) async throws -> [String] {
        let result = try await ChildProcess.run(URL(fileURLWithPath: shell), arguments, limit: .seconds(120))
        #expect(result.status == 0, "\(arguments)")
        return Set(String(decoding: result.stdoutData, as: UTF8.self).split(separator: "\n").map(String.init)).sorted()
    }

    /// What zsh's completion system offers for `line` with the generated `_courier`, typed into an
    /// interactive zsh on a pseudo-terminal; every candidate handed to compadd is collected in a file.
    static func zshCompletes(_ line: String) async throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-zsh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(try await CourierCLI.run(["completions", "zsh"]).stdout.utf8)
            .write(to: folder.appendingPathComponent("_courier"))
        let found = folder.appendingPathComponent("found").path
        let driver = folder.appendingPathComponent("driver.zsh")
        // The marker is printed only once the completion before it has finished (zsh reads input in order).
        try Data("""
            zmodload zsh/zpty
            zpty z zsh -f -i
            zpty -w z "fpath=(\(folder.path) \\$fpath); autoload -U compinit; compinit -u -D"
            zpty -w z "compadd() { builtin compadd \\"\\$@\\"; local -a a; builtin compadd -O a \\"\\$@\\"; \\
                print -rl -- \\$a >> \(found) }"
            zpty -w z "$1"$'\\t'
            zpty -w z $'\\C-uprint -r -- MARK$((6*7))'
            zpty -r z out '*MARK42*'
            zpty -d z
            cat \(found)
            """.utf8).write(to: driver)
        return try await run(try #require(shell("zsh")), [driver.path, line])
    }

    @Test(.enabled(if: shell("zsh") != nil))
    func zshCompletesSubcommandsOptionsAndValues() async throws {
        #expect(try await Self.zshCompletes("courier send --cache-mode ")
                == ["bypass", "default", "only-if-cached", "reload", "revalidate"])
        #expect(try await Self.zshCompletes("courier send --ti") == ["--timeout", "--timing"])
        #expect(try await Self.zshCompletes("courier cache ") == ["clear", "ls", "show"])
        #expect(try await Self.zshCompletes("courier help coo") == ["cookies"])
        #expect(try await Self.zshCompletes("courier run x.http --report ") == ["html", "json", "junit", "tap"])
    }

    @Test(.enabled(if: shell("fish") != nil))
    func fishCompletesSubcommandsOptionsAndValues() async throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).fish")
        try Data(try await CourierCLI.run(["completions", "fish"]).stdout.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        func completes(_ line: String) async throws -> [String] {
            try await Self.run(try #require(Self.shell("fish")), ["-c", "source \(script.path); complete -C '\(line)'"])
                .map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try await completes("courier send --cache-mode ")
                == ["bypass", "default", "only-if-cached", "reload", "revalidate"])
        #expect(try await completes("courier send --ti") == ["--timeout", "--timing"])
        #expect(try await completes("courier cache ") == ["clear", "ls", "show"])
        #expect(try await completes("courier completions ") == ["bash", "fish", "zsh"])
        #expect(try await completes("courier se") == ["send", "serve-demo"])
    }
}
