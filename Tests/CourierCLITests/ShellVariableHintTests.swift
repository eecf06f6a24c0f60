import CourierTestSupport
import Foundation
import Testing

/// kulala.nvim and httpyac read a plain `{{NAME}}` from the shell when nothing else defines it; Courier reads
/// the shell only where the file says so. When the shell has the name, the error says how to read it.
@Suite("A shell variable read by name")
struct ShellVariableHintTests {
    @Test func anUnknownVariableTheShellHasSaysHowToReadItAndNothingIsSent() async throws {
        // Given a request using a name only the shell defines
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", "### me\nGET \(server.base)/me\nAuthorization: Bearer {{COURIER_TEST_SHELL_TOKEN}}\n")
        // When it runs with the variable in the shell's environment
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url,
                                              environment: ["COURIER_TEST_SHELL_TOKEN": "sh3ll-t0ken"])
        // Then it stops at the line naming the variable and saying how the shell's value is read
        #expect(result.status != 0)
        #expect(result.stderr.contains("api.http:3: unknown variable 'COURIER_TEST_SHELL_TOKEN'"), "\(result.stderr)")
        #expect(result.stderr.contains("the shell has COURIER_TEST_SHELL_TOKEN, and a request reads it only as "
                                       + "{{$processEnv COURIER_TEST_SHELL_TOKEN}}"), "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("sh3ll-t0ken"))
        #expect(server.requests.isEmpty)

        // When the file reads it as the hint says, it is sent
        try folder.write("api.http", "### me\nGET \(server.base)/me\n"
                         + "Authorization: Bearer {{$processEnv COURIER_TEST_SHELL_TOKEN}}\n")
        let sent = try await CourierCLI.run(["run", "api.http"], in: folder.url,
                                            environment: ["COURIER_TEST_SHELL_TOKEN": "sh3ll-t0ken"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(server.requests.first?.header("Authorization") == "Bearer sh3ll-t0ken")
    }
}
