import CourierTestSupport
import Foundation
import Testing

/// Environment values read from a secret store when a request uses them: `pass` with a throwaway GPG key,
/// the Secret Service (GNOME Keyring under its own D-Bus session), and 1Password's `op` when it is missing.
/// The secret reaches the server and nothing Courier prints.
@Suite(.serialized) struct SecretStoreRunTests {
    let folder: URL
    let server: CaptureServer

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-stores-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("api"), withIntermediateDirectories: true)
        server = try CaptureServer()
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static func installed(_ programs: String...) -> Bool {
        programs.allSatisfy { program in
            ["/usr/bin", "/bin", "/usr/local/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        }
    }

    /// A collection whose `token` is the given store reference, in the private (or public) environment file.
    func collection(reference: String, inPrivateFile: Bool = true) throws -> URL {
        let api = folder.appendingPathComponent("api")
        try Data("### Secret\n# @name secret\nGET {{base}}/secret\nAuthorization: Bearer {{token}}\n".utf8)
            .write(to: api.appendingPathComponent("api.http"))
        let publicValues = "\"base\": \"\(server.base)\"" + (inPrivateFile ? "" : ", \"token\": \(reference)")
        try Data("{\"dev\": {\(publicValues)}}".utf8).write(to: api.appendingPathComponent("http-client.env.json"))
        if inPrivateFile {
            try Data("{\"dev\": {\"token\": \(reference)}}".utf8)
                .write(to: api.appendingPathComponent("http-client.private.env.json"))
        }
        return api.appendingPathComponent("api.http")
    }

    @Test(.enabled(if: installed("pass", "gpg"), "pass and gnupg are not installed (make deps installs them)"))
    func aTokenKeptInPassIsSentAndNeverPrinted() async throws {
        defer { cleanUp() }
        // Given a password store with a throwaway key that has no passphrase
        let gnupg = folder.appendingPathComponent("gnupg"), store = folder.appendingPathComponent("store")
        let environment = ["GNUPGHOME": gnupg.path, "PASSWORD_STORE_DIR": store.path]
        let setup = try await ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", """
            set -e
            mkdir -m 700 "$GNUPGHOME"
            gpg --batch --quiet --passphrase '' --quick-gen-key 'Courier Test <test@courier.invalid>' default default never
            pass init test@courier.invalid >/dev/null
            printf 'pass-secret-1\\nsecond line\\n' | pass insert -m work/api-token >/dev/null
            """], environment: environment)
        #expect(setup.status == 0, "\(setup.stderr)")
        defer { _ = try? FileManager.default.removeItem(at: gnupg) }
        let file = try collection(reference: "{\"secretStore\": \"pass\", \"path\": \"work/api-token\"}")
        // When the request runs, in text and in JSON
        let run = try await CourierCLI.run(["run", file.path, "--env", "dev", "--timing"], environment: environment)
        let json = try await CourierCLI.run(["run", file.path, "--env", "dev", "--json"], environment: environment)
        // Then the server received the entry's first line, and no output holds it
        #expect(run.status == 0 && json.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer pass-secret-1", "Bearer pass-secret-1"])
        for output in [run.stdout, run.stderr, json.stdout, json.stderr] { #expect(!output.contains("pass-secret-1"), "\(output)") }
        // And an entry that is not there is an error naming the store; nothing is sent
        _ = try collection(reference: "{\"secretStore\": \"pass\", \"path\": \"work/missing\"}")
        let missing = try await CourierCLI.run(["run", file.path, "--env", "dev"], environment: environment)
        #expect(missing.status == 3, "a value the store cannot give is bad input: exit 3")
        #expect(missing.stderr.contains("'{{token}}' in request 'secret' is read from a secret store: pass: pass show failed"),
                "\(missing.stderr)")
        #expect(server.requests.count == 2)
        _ = try? await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["gpgconf", "--kill", "gpg-agent"],
                                        environment: environment)
    }

    @Test func onePasswordWithoutItsCLIIsAClearErrorAndNothingIsSent() async throws {
        defer { cleanUp() }
        let file = try collection(reference: "{\"secretStore\": \"1password\", \"reference\": \"op://Work/API/token\"}")
        let run = try await CourierCLI.run(["run", file.path, "--env", "dev"],
                                           environment: ["PATH": folder.path + ":/usr/bin:/bin"])
        #expect(run.status == 3, "a value the store cannot give is bad input: exit 3")
        #expect(run.stderr.contains("1password: the 1Password CLI 'op' is not installed"), "\(run.stderr)")
        #expect(server.requests.isEmpty)
    }

    @Test func onePasswordsCLIIsAskedWithTheReference() async throws {
        defer { cleanUp() }
        // Given an `op` on PATH that answers `op read --no-newline REF` as 1Password's CLI does (a stand-in:
        // the real one needs an account)
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let op = bin.appendingPathComponent("op")
        try Data("""
            #!/bin/sh
            [ "$1 $2 $3" = "read --no-newline op://Work/API/token" ] && printf 'op-secret-1' && exit 0
            echo "[ERROR] could not read secret '$3': no such item" >&2; exit 1

            """.utf8).write(to: op)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: op.path)
        let file = try collection(reference: "{\"secretStore\": \"1password\", \"reference\": \"op://Work/API/token\"}")
        let path = ["PATH": bin.path + ":/usr/bin:/bin"]
        // When the request runs, then the token reaches the server and not the output
        let run = try await CourierCLI.run(["run", file.path, "--env", "dev"], environment: path)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.first?.header("Authorization") == "Bearer op-secret-1")
        #expect(!run.stdout.contains("op-secret-1") && !run.stderr.contains("op-secret-1"))
        // And an item that is not there is op's own message, under the store's name
        _ = try collection(reference: "{\"secretStore\": \"1password\", \"reference\": \"op://Work/API/gone\"}")
        let missing = try await CourierCLI.run(["run", file.path, "--env", "dev"], environment: path)
        #expect(missing.status == 3, "a value the store cannot give is bad input: exit 3")
        #expect(missing.stderr.contains("1password: op read failed (exit 1): [ERROR] could not read secret"),
                "\(missing.stderr)")
    }

    @Test func aStoreReferenceInTheSharedFileIsRefusedNamingTheFile() async throws {
        defer { cleanUp() }
        let file = try collection(reference: "{\"secretStore\": \"pass\", \"path\": \"bank/pin\"}", inPrivateFile: false)
        let run = try await CourierCLI.run(["run", file.path, "--env", "dev"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("http-client.env.json"), "\(run.stderr)")
        #expect(run.stderr.contains("store references belong in http-client.private.env.json"))
        #expect(server.requests.isEmpty)
        // And a reference that names no known store says which are
        _ = try collection(reference: "{\"secretStore\": \"vault\", \"path\": \"x\"}")
        let unknown = try await CourierCLI.run(["run", file.path, "--env", "dev"])
        #expect(unknown.stderr.contains("unknown secretStore \"vault\"; use \"pass\", \"secret-service\" or \"1password\""),
                "\(unknown.stderr)")
    }

    @Test(.enabled(if: installed("dbus-run-session", "dbus-send", "gnome-keyring-daemon", "secret-tool"),
                   "dbus, gnome-keyring and libsecret-tools are not installed (make deps installs them)"))
    func aTokenKeptInTheSecretServiceIsSentAndALockedOrMissingOneIsAClearError() async throws {
        defer { cleanUp() }
        let file = try collection(reference: "{\"secretStore\": \"secret-service\", "
                                  + "\"attributes\": {\"service\": \"courier-test\", \"account\": \"ada\"}}")
        let home = folder.appendingPathComponent("home")
        // Given GNOME Keyring on a D-Bus session of its own, its login keyring made and unlocked with a password
        // (the daemon stops with the script), holding the token, courier runs the request
        let script = """
            set -e
            export HOME="\(home.path)" XDG_RUNTIME_DIR="\(home.path)/run" XDG_CACHE_HOME="\(home.path)/cache"
            export XDG_DATA_HOME="\(home.path)/data" XDG_CONFIG_HOME="\(home.path)/config"
            mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
            printf 'keyring-password' | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
            keyring=$!
            trap 'kill $keyring' EXIT
            # Until the daemon owns the Secret Service's name, at most a minute.
            for i in $(seq 600); do
              dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \\
                string:org.freedesktop.secrets 2>/dev/null | grep -q true && break
              sleep 0.1
            done
            printf 'keyring-secret-1' | secret-tool store --label='Courier test' service courier-test account ada
            "\(CourierCLI.executable.path)" run "\(file.path)" --env dev --json
            """
        let run = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/dbus-run-session"), ["--", "/bin/bash", "-c", script],
                                             environment: ["NO_COLOR": "1"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.first?.header("Authorization") == "Bearer keyring-secret-1")
        #expect(!run.stdout.contains("keyring-secret-1") && !run.stderr.contains("keyring-secret-1"))
        // When no Secret Service can be reached, the error names the store
        let unreachable = try await CourierCLI.run(["run", file.path, "--env", "dev"],
                                                   environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.path)/no-bus"])
        #expect(unreachable.status == 3, "a value the store cannot give is bad input: exit 3")
        #expect(unreachable.stderr.contains("is read from a secret store: secret-service:"), "\(unreachable.stderr)")
        #expect(server.requests.count == 1)
    }
}

extension SecretStoreRunTests {
    @Test func checkAndExportNameTheStoreAndNeverAskIt() async throws {
        defer { cleanUp() }
        // Given a token in 1Password, whose CLI is not even installed
        let file = try collection(reference: "{\"secretStore\": \"1password\", \"reference\": \"op://Work/API/token\"}")
        let path = ["PATH": folder.path + ":/usr/bin:/bin"]
        // When the file is checked and exported, secrets shown
        let check = try await CourierCLI.run(["check", file.path, "--env", "dev"], environment: path)
        let export = try await CourierCLI.run(["export", "curl", file.path, "--env", "dev", "--show-secrets"],
                                              environment: path)
        // Then neither asked the store, and the code names it
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("Bearer <1password op://Work/API/token>"), "\(export.stdout)")
        #expect(server.requests.isEmpty)
    }
}
