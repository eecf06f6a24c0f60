import Foundation
import Testing
import CourierTestSupport

/// The options `send`, `ws` and `run` share for reaching a server (one declaration, `ConnectionOptions`),
/// and whole numbers read once into typed values: the built binary, its exit status and its words.
@Suite("courier: the shared connection options and typed values")
struct ConnectionOptionsTests {
    /// Each command with the arguments that make a complete command line apart from the option tested.
    static let commands: [(name: String, arguments: [String])] = [
        ("send", ["http://127.0.0.1:1/"]), ("ws", ["ws://127.0.0.1:1/"]), ("run", ["api.http"]),
    ]

    @Test func aWholeNumberTooLargeForTheMachineIsAUsageErrorNotACrash() async throws {
        // When a count or a number of retries is a whole number past what an Int holds
        let retry = try await CourierCLI.run(["send", "--retry", "1e30", "http://127.0.0.1:1/"])
        let count = try await CourierCLI.run(["ws", "--count", "1e30", "ws://127.0.0.1:1/"])
        // Then each is the option's usual usage error, status 2, naming the option
        #expect(retry.status == 2, "\(retry.stderr)")
        #expect(retry.stderr.contains("Error: --retry takes a whole number, not '1e+30'"), "\(retry.stderr)")
        #expect(count.status == 2, "\(count.stderr)")
        #expect(count.stderr.contains("Error: --count takes a whole number of messages of at least 1"),
                "\(count.stderr)")
    }

    @Test func aTimeLongerThanTheClockHoldsIsAUsageErrorNamingTheOptionNotACrash() async throws {
        // When a timeout is a number of seconds no clock holds
        let results = [
            ("--timeout", try await CourierCLI.run(["send", "--timeout", "1e30", "http://127.0.0.1:1/"])),
            ("--idle-timeout", try await CourierCLI.run(["send", "--idle-timeout", "1e30", "http://127.0.0.1:1/"])),
            ("--idle-timeout", try await CourierCLI.run(["run", "api.http", "--idle-timeout", "1e30"])),
        ]
        // Then each is a usage error that names the option and what it takes, status 2
        for (option, result) in results {
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("Error: \(option) takes a number of seconds up to 31536000, not '1e30'"),
                    "\(result.stderr)")
        }
    }

    @Test func aFractionIsRefusedInTheWordsItAlwaysHad() async throws {
        // When whole-number options get a fraction
        let retry = try await CourierCLI.run(["send", "--retry", "1.5", "http://127.0.0.1:1/"])
        let count = try await CourierCLI.run(["ws", "--count", "0", "ws://127.0.0.1:1/"])
        let iterations = try await CourierCLI.run(["run", "api.http", "--iteration-count", "2.5"])
        // Then each says what it takes, with status 2
        #expect(retry.status == 2 && retry.stderr.contains("--retry takes a whole number, not '1.5'"), "\(retry.stderr)")
        #expect(count.status == 2 && count.stderr.contains("--count takes a whole number of messages of at least 1"))
        #expect(iterations.status == 2
                    && iterations.stderr.contains("--iteration-count takes a whole number of runs from 1"),
                "\(iterations.stderr)")
    }

    @Test(arguments: commands.map(\.name))
    func anUnreadableCertificateFileIsTheSameUsageErrorInEveryCommand(_ command: String) async throws {
        // Given the command's own complete arguments
        let arguments = try #require(Self.commands.first { $0.name == command }).arguments
        // When --cacert and --cert name files that do not exist
        let cacert = try await CourierCLI.run([command, "--cacert", "/nonexistent/ca.pem"] + arguments)
        let cert = try await CourierCLI.run([command, "--cert", "/nonexistent/client.pem"] + arguments)
        // Then each command refuses them before sending, in the same words, naming the option
        #expect(cacert.status == 2, "\(cacert.stderr)")
        #expect(cacert.stderr.contains("Error: --cacert: cannot read the certificate file '/nonexistent/ca.pem'"),
                "\(cacert.stderr)")
        #expect(cert.status == 2, "\(cert.stderr)")
        #expect(cert.stderr.contains("Error: --cert: cannot read the file '/nonexistent/client.pem'"), "\(cert.stderr)")
    }

    @Test(arguments: commands.map(\.name))
    func everyCommandListsTheSharedCertificateOptions(_ command: String) async throws {
        // When the command's help is shown
        let help = try await CourierCLI.run([command, "--help"]).stdout
        // Then it lists every option of the shared group it has
        for option in ["--cacert FILE", "-E, --cert FILE", "--key FILE", "--cert-type TYPE", "--key-type TYPE",
                       "--pass PHRASE"] {
            #expect(help.contains(option), "\(command): \(option)")
        }
    }
}
