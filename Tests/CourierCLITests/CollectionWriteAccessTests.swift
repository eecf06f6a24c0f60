import CourierTestSupport
import Foundation
import Testing

/// What a collection may write: `>> file` and `>>! file` save a response only inside the folder of the
/// `.http` file, never into a hidden folder or onto a hidden file, never through a symbolic link, and
/// `>>!` replaces only a file an earlier redirect wrote unless `--allow-overwrite`. The peer is hostile: it
/// answers every request with a git configuration that would run a command at the next `git status`.
@Suite("What a collection may write", .enabled(if: CourierCLI.isBuilt))
struct CollectionWriteAccessTests {
    static let hostileConfig = "[core]\n\tfsmonitor = \"touch /tmp/courier-pwned\"\n"

    /// A peer answering every request with `hostileConfig`.
    static func hostilePeer() throws -> LoopbackServer {
        try LoopbackServer { _ in LoopbackServer.Reply(headers: [("Content-Type", "text/plain")],
                                                      body: Data(hostileConfig.utf8)) }
    }

    /// Runs `courier run api.http` in `folder` with its state (the ledger of written files) in `state`.
    static func run(_ folder: URL, state: TemporaryFolder, _ extra: [String] = [],
                    environment: [String: String] = [:]) async throws -> ChildResult {
        try await CourierCLI.run(["run", "api.http"] + extra, in: folder,
                                 environment: ["XDG_STATE_HOME": state.url.path].merging(environment) { $1 })
    }

    @Test func aRedirectIntoTheHomeFolderCannotReplaceBashrc() async throws {
        // Given a collection opened from $HOME that saves its response over ~/.bashrc, and another elsewhere
        let server = try Self.hostilePeer()
        defer { server.stop() }
        let home = try TemporaryFolder("home")
        let state = try TemporaryFolder("state")
        try home.write(".bashrc", "original\n")
        let request = "GET \(server.baseURL.absoluteString)/config\n\n>>! {{$processEnv HOME}}/.bashrc\n"
        try home.write("api.http", request)
        let elsewhere = try TemporaryFolder("elsewhere")
        try elsewhere.write("api.http", request)
        // When both run with HOME pointing there
        let inHome = try await Self.run(home.url, state: state, environment: ["HOME": home.url.path])
        let outside = try await Self.run(elsewhere.url, state: state, environment: ["HOME": home.url.path])
        // Then neither wrote: a hidden file, and a file outside the collection's folder, each at the line
        #expect(try home.read(".bashrc") == "original\n")
        #expect(inHome.status == 3 && outside.status == 3)
        #expect(!inHome.stdout.contains("saved:") && !outside.stdout.contains("saved:"))
        #expect(inHome.stderr.contains("api.http:3: request 'GET \(server.baseURL.absoluteString)/config': did not "
                                       + "save the response to \(home.url.path)/.bashrc: '.bashrc' is hidden"),
                "\(inHome.stderr)")
        #expect(outside.stderr.contains("api.http:3:") && outside.stderr.contains("it is outside the folder of the "
                                                                                  + ".http file"), "\(outside.stderr)")
    }

    @Test func aRedirectCannotWriteGitConfig() async throws {
        // Given a repository whose collection saves the server's answer over .git/config
        let server = try Self.hostilePeer()
        defer { server.stop() }
        let folder = try TemporaryFolder("repo")
        let state = try TemporaryFolder("state")
        try folder.write(".git/config", "[core]\n\tbare = false\n")
        try folder.write("api.http", "GET \(server.baseURL.absoluteString)/a\n\n>>! ./.git/config\n\n###\n"
                         + "GET \(server.baseURL.absoluteString)/b\n\n>> ./.git/hooks/post-checkout\n")
        // When it runs, even with --allow-overwrite
        let result = try await Self.run(folder.url, state: state, ["--allow-overwrite"])
        // Then .git is untouched and both redirects are refused at their lines
        #expect(result.status == 3)
        #expect(try folder.read(".git/config") == "[core]\n\tbare = false\n")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(".git/hooks").path))
        #expect(result.stderr.contains("api.http:3:") && result.stderr.contains("'.git' is hidden"), "\(result.stderr)")
        #expect(result.stderr.contains("api.http:8:"), "\(result.stderr)")
    }

    @Test func aRedirectNeverWritesThroughASymbolicLink() async throws {
        // Given a folder link and a file link inside the collection, both pointing outside it
        let server = try Self.hostilePeer()
        defer { server.stop() }
        let folder = try TemporaryFolder("links")
        let target = try TemporaryFolder("target")
        let state = try TemporaryFolder("state")
        try target.write("victim.txt", "victim\n")
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link").path,
                                                   withDestinationPath: target.url.path)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("out.txt").path,
                                                   withDestinationPath: target.url.appendingPathComponent("victim.txt").path)
        try folder.write("api.http", "GET \(server.baseURL.absoluteString)/a\n\n>> ./link/x.txt\n\n###\n"
                         + "GET \(server.baseURL.absoluteString)/b\n\n>>! ./out.txt\n")
        // When it runs
        let result = try await Self.run(folder.url, state: state, ["--allow-overwrite"])
        // Then nothing reached the link's target, and each redirect names the link
        #expect(result.status == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.url.path) == ["victim.txt"])
        #expect(try target.read("victim.txt") == "victim\n")
        #expect(result.stderr.contains("api.http:3:") && result.stderr.contains("'link' is a symbolic link"),
                "\(result.stderr)")
        #expect(result.stderr.contains("api.http:8:") && result.stderr.contains("'out.txt' is a symbolic link"),
                "\(result.stderr)")
    }

    @Test func bangReplacesOnlyWhatARedirectWroteUnlessOverwriteIsAllowed() async throws {
        // Given a file the user wrote, and a request replacing it and another replacing a file of its own
        let server = try Self.hostilePeer()
        defer { server.stop() }
        let folder = try TemporaryFolder("overwrite")
        let state = try TemporaryFolder("state")
        try folder.write("notes.txt", "mine\n")
        try folder.write("api.http", "GET \(server.baseURL.absoluteString)/a\n\n>>! ./notes.txt\n\n###\n"
                         + "GET \(server.baseURL.absoluteString)/b\n\n>>! ./out/answer.txt\n")
        // When it runs twice
        let first = try await Self.run(folder.url, state: state)
        let second = try await Self.run(folder.url, state: state)
        // Then the user's file is kept, saying how to replace it, while its own output is replaced each time
        #expect(try folder.read("notes.txt") == "mine\n")
        #expect(first.status == 3 && second.status == 3)
        #expect(first.stderr.contains("api.http:3: request 'GET \(server.baseURL.absoluteString)/a': did not replace "
                                      + "./notes.txt: it exists and Courier did not write it (or it changed since); "
                                      + "pass --allow-overwrite to replace it"), "\(first.stderr)")
        #expect(first.stdout.contains("saved: ./out/answer.txt") && second.stdout.contains("saved: ./out/answer.txt"),
                "\(first.stdout)\(second.stdout)")
        #expect(try folder.read("out/answer.txt") == Self.hostileConfig)
        // And the record of what it wrote is private
        let ledger = state.url.appendingPathComponent("courier/redirects.json")
        let mode = try FileManager.default.attributesOfItem(atPath: ledger.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // When someone else changes its output, it is not Courier's any more
        try folder.write("out/answer.txt", "edited by hand\n")
        let third = try await Self.run(folder.url, state: state)
        #expect(try folder.read("out/answer.txt") == "edited by hand\n")
        #expect(third.stderr.contains("did not replace ./out/answer.txt"), "\(third.stderr)")

        // When the user allows overwriting
        let allowed = try await Self.run(folder.url, state: state, ["--allow-overwrite"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try folder.read("notes.txt") == Self.hostileConfig)
        #expect(try folder.read("out/answer.txt") == Self.hostileConfig)
    }
}
