import Foundation
import Testing

/// `make install` into a temporary prefix, then the installed binary used from a folder that has nothing
/// of the project in it: `--version`, `courier demo` in tmux (which writes nothing into that folder) and
/// a user theme from the config folder.
@Suite(.serialized) struct InstallTests {
    let folder: URL
    let destination: URL
    let elsewhere: URL
    let config: URL
    let state: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-install-\(UUID().uuidString)")
        destination = folder.appendingPathComponent("dest")
        elsewhere = folder.appendingPathComponent("elsewhere")
        config = folder.appendingPathComponent("config")
        state = folder.appendingPathComponent("state")
        for url in [destination, elsewhere, config, state] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
    }

    var installed: URL { destination.appendingPathComponent("opt/courier/bin/courier") }

    /// Runs `make TARGET` in the package with an already built binary (the tests must not start a build).
    func make(_ target: String) async throws -> (Int32, String) {
        try await TmuxSession.spawn(["make", "-s", "-C", TmuxSession.packageRoot.path, target, "INSTALL_BUILD=",
                               "INSTALL_FROM=\(TmuxSession.binary.path)", "PREFIX=/opt/courier",
                               "DESTDIR=\(destination.path)"])
    }

    @Test func theInstalledBinaryRunsTheDemoAndAUserThemeFromAnEmptyFolder() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // Given courier installed under DESTDIR/PREFIX
        let (status, output) = try await make("install")
        #expect(status == 0, "\(output)")
        #expect(FileManager.default.isExecutableFile(atPath: installed.path))
        // When --version runs from a folder with nothing of the project in it
        let (versionStatus, version) = try await TmuxSession.spawn(["sh", "-c", "cd '\(elsewhere.path)' && '\(installed.path)' --version"])
        #expect(versionStatus == 0)
        #expect(version.hasPrefix("courier "), "\(version)")
        // And a user theme sits in the config folder and the demo starts there with it
        let themes = config.appendingPathComponent("courier/themes")
        try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
        try Data(##"{"roles": {"border": "#ff0000"}}"##.utf8).write(to: themes.appendingPathComponent("mine.json"))
        let command = "env XDG_CONFIG_HOME='\(config.path)' XDG_STATE_HOME='\(state.path)' XDG_CACHE_HOME='\(state.path)' "
            + "'\(installed.path)' demo --port 0 --theme mine"
        let tmux = try await TmuxSession(command: command, directory: elsewhere)
        defer { tmux.stop() }
        let (shown, screen) = await tmux.waitFor { $0.contains("listUsers") }
        // Then the explorer shows the demo collection it wrote to the state folder, with no theme warning
        #expect(shown, "\(screen)")
        #expect(!screen.contains("No theme named"), "\(screen)")
        let copy = state.appendingPathComponent("courier/demo/demo.http")
        #expect(FileManager.default.fileExists(atPath: copy.path))
        // And nothing was written into the folder it ran in
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        try await tmux.keys("q")
        // And uninstall removes the binary
        let (removed, removal) = try await make("uninstall")
        #expect(removed == 0, "\(removal)")
        #expect(!FileManager.default.fileExists(atPath: installed.path))
    }
}
