import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

/// Go, Kotlin and HTTPie exports, which no compiler here can check: compared with golden files under
/// Fixtures/export (a missing one is written; `COURIER_RECORD_SNAPSHOTS=1` rewrites them), and scanned for
/// balanced brackets and closed strings.
@Suite struct ExportGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/export")

    /// The same hostile request as the run tests, with a secret header, query value and body value.
    static let request = "@tag = a+b c&d=é\n"
        + "# @name echo\n"
        + "POST https://api.example.com/echo/ü?q={{tag}}&literal=x+y&api_key={{apiKey}}&flag\n"
        + "Content-Type: application/json; charset=utf-8\n"
        + "Authorization: Bearer {{token}}\n"
        + "X-Quote: say \"hi\" \\ and $HOME `cmd` \\(x) ${x} é\n"
        + "X-Dup: one\nX-Dup: two\n"
        + "\n"
        + "{\"text\": \"quote \\\" backslash \\\\ $x \\(x) ${x} \"\"\" é 😀\",\n"
        + "\t\"raw\": \"tab\tzero\u{200B}width\",\n"
        + "  \"token\": \"{{token}}\"}\n"

    static func code(_ language: CodeLanguage, main: Bool) throws -> String {
        let context = VariableContext(environment: Environment(values: [
            "token": VariableValue("t0ken-value", isSecret: true), "apiKey": VariableValue("k3y-value", isSecret: true),
        ]))
        let file = HTTPFile(path: "api.http", text: request)
        let resolved = try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"), context: context)
            .resolve(file.requests[0])
        return language.code(for: resolved, context: context, baseFolder: URL(fileURLWithPath: "/"),
                             fileName: "api.http", showSecrets: false, main: main)
    }

    static func assertGolden(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = folder.appendingPathComponent(name)
        let record = ProcessInfo.processInfo.environment["COURIER_RECORD_SNAPSHOTS"] == "1"
        guard !record, let golden = try? String(contentsOf: file, encoding: .utf8) else {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? text.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("wrote \(name): read it, then commit it", sourceLocation: sourceLocation)
            return
        }
        #expect(golden == text, "\(name) differs from its golden:\n\(text)", sourceLocation: sourceLocation)
    }

    /// What a C-like language's parser would trip on first: a string not closed on its line, or brackets
    /// that do not pair. Comments (`//`) and string contents are skipped, escapes included.
    static func syntaxProblem(_ code: String) -> String? {
        var stack: [Character] = []
        let pairs: [Character: Character] = [")": "(", "]": "[", "}": "{"]
        for (number, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var inString = false
            var escaped = false
            var previous: Character = " "
            for character in line {
                defer { previous = character }
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" {
                        inString = false
                    }
                    continue
                }
                if character == "/" && previous == "/" { break }
                switch character {
                case "\"": inString = true
                case "(", "[", "{": stack.append(character)
                case ")", "]", "}":
                    guard stack.popLast() == pairs[character] else { return "line \(number + 1): unpaired \(character)" }
                default: break
                }
            }
            if inString { return "line \(number + 1): string not closed" }
        }
        return stack.isEmpty ? nil : "unclosed \(String(stack))"
    }

    @Test("The Go export matches its golden text; brackets pair and strings close", arguments: [false, true])
    func go(main: Bool) throws {
        let code = try Self.code(.go, main: main)
        Self.assertGolden(code, named: main ? "echo-main.go.txt" : "echo.go.txt")
        #expect(Self.syntaxProblem(code) == nil, "\(Self.syntaxProblem(code) ?? "")")
        #expect(!code.contains("t0ken-value") && !code.contains("k3y-value"))
    }

    @Test("The Kotlin export matches its golden text; brackets pair and strings close", arguments: [false, true])
    func kotlin(main: Bool) throws {
        let code = try Self.code(.kotlin, main: main)
        Self.assertGolden(code, named: main ? "echo-main.kt.txt" : "echo.kt.txt")
        #expect(Self.syntaxProblem(code) == nil, "\(Self.syntaxProblem(code) ?? "")")
        #expect(!code.contains("t0ken-value") && !code.contains("k3y-value"))
    }

    @Test("The HTTPie export matches its golden text and splits into the words a shell would pass")
    func httpie() throws {
        let code = try Self.code(.httpie, main: false)
        Self.assertGolden(code, named: "echo.httpie.txt")
        let command = code.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        let words = try ShellWords.split(command).get()
        #expect(words.contains("X-Quote:say \"hi\" \\ and $HOME `cmd` \\(x) ${x} é"))
        #expect(words.contains("Authorization:Bearer $TOKEN"), "expanded by the shell, not written: \(words)")
        #expect(words.contains("api_key==$API_KEY"))
        #expect(!code.contains("t0ken-value") && !code.contains("k3y-value"))
    }

    @Test("The syntax check finds an unclosed string and unpaired brackets")
    func syntaxCheckWorks() {
        #expect(Self.syntaxProblem("a(\"x\\\")\")") == nil)
        #expect(Self.syntaxProblem("a(\"x)") == "line 1: string not closed")
        #expect(Self.syntaxProblem("a(b]") == "line 1: unpaired ]")
        #expect(Self.syntaxProblem("// (\nf{") == "unclosed {")
    }
}
