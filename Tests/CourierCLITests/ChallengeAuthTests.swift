import CourierTestSupport
import Foundation
import Testing

/// Sign-ins libcurl answers for Courier: `courier send --user` (Basic), `--digest` and `--ntlm`, and a `.http`
/// file's `Authorization: NTLM user password` (kulala.nvim), against a loopback server that challenges and
/// records what each request carried; the password never goes out in clear and is never printed.
@Suite struct ChallengeAuthTests {
    @Test func userSendsBasicAndItIsMaskedInTheLog() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", server.base + "/basic", "--user", "ada:lovelace-secret", "-v"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.first?.header("Authorization") == "Basic " + Data("ada:lovelace-secret".utf8).base64EncodedString())
        #expect(!(result.stdout + result.stderr).contains("lovelace-secret"))
        #expect(!(result.stdout + result.stderr).contains(Data("ada:lovelace-secret".utf8).base64EncodedString()))
    }

    @Test func digestAnswersTheChallengeWithoutSendingThePassword() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", server.base + "/digest/area", "--digest", "--user", "ada:lovelace-secret"])
        #expect(result.status == 0, "\(result.stderr)")
        let sent = server.requests
        try #require(sent.count == 2)
        #expect(sent[0].header("Authorization") == nil)
        let answer = try #require(sent[1].header("Authorization"))
        #expect(answer.hasPrefix("Digest username=\"ada\"") && !answer.contains("lovelace-secret"), "\(answer)")
    }

    @Test func ntlmRunsTheHandshakeFromTheCommandLineAndFromAFile() async throws {
        // Given a server that challenges for NTLM
        let server = try CaptureServer()
        defer { server.stop() }
        // When courier sends with --ntlm, and runs a file written with kulala.nvim's NTLM line
        let sent = try await CourierCLI.run(["send", server.base + "/ntlm/one", "--ntlm", "--user", "CORP\\ada:lovelace-secret"])
        let folder = try TemporaryFolder()
        try folder.write("api.http", "GET \(server.base)/ntlm/two\nAuthorization: NTLM ada lovelace-secret\n")
        let ran = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        // Then each sent the negotiate message, then the authenticate message for the challenge, and got in
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(ran.status == 0, "\(ran.stdout)\(ran.stderr)")
        for path in ["/ntlm/one", "/ntlm/two"] {
            let messages = server.requests.filter { $0.target == path }.compactMap { $0.header("Authorization") }
            #expect(messages.count == 2 && messages[0].hasPrefix("NTLM TlRMTVNTUAAB")
                        && messages[1].hasPrefix("NTLM TlRMTVNTUAAD"), "\(path): \(messages)")
        }
        for output in [sent.stdout, sent.stderr, ran.stdout, ran.stderr] { #expect(!output.contains("lovelace-secret")) }
    }
}
