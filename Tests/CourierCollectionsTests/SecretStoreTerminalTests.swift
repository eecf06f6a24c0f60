import CourierCollections
import CourierTestSupport
import Foundation
import Testing

/// While the explorer owns the terminal, a store's command runs without it: a curses passphrase prompt
/// cannot draw over the screen or read its keys.
@Suite struct SecretStoreTerminalTests {
    @Test func aStoreCommandRunsWithoutTheTerminalOnceTheExplorerKeepsItOff() async throws {
        let child = try await TestInOwnProcess.run("secretStoreOffTheTerminalChildWhenStartedByItsTest")
        #expect(child.status == 0, "child ended with \(child.status): \(child.stdout)\(child.stderr)")
    }
}

/// The child's side: a stand-in `pass` on PATH (process-wide, hence its own process) says what it was given.
@Test func secretStoreOffTheTerminalChildWhenStartedByItsTest() async throws {
    guard TestInOwnProcess.isChild("secretStoreOffTheTerminalChildWhenStartedByItsTest") else { return }
    let bin = try TemporaryFolder("pass-bin")
    // Prints GPG_TTY, its pid, its session id and what standard input held.
    _ = try bin.write("pass", """
        #!/bin/sh
        input=$(cat | wc -c)
        printf '%s:%s:%s:%s\\n' "$GPG_TTY" "$$" "$(cut -d' ' -f6 /proc/$$/stat)" "$input"

        """)
    try FileManager.default.setAttributes([.posixPermissions: 0o755],
                                          ofItemAtPath: bin.url.appendingPathComponent("pass").path)
    setenv("PATH", bin.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), 1)
    setenv("GPG_TTY", "/dev/pts/99", 1)
    // When the explorer keeps store commands off the terminal
    SecretStores.keepOffTheTerminal()
    let answer = try SecretStores.value(of: .pass(path: "work/api"))
    // Then the command led a session of its own, read nothing, and gpg would find no terminal for pinentry
    let fields = answer.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    #expect(fields.count == 4, "\(answer)")
    #expect(fields.first == "/dev/null", "\(answer)")
    #expect(fields.count == 4 && fields[1] == fields[2], "not a session of its own: \(answer)")
    #expect(fields.last == "0", "\(answer)")
}
