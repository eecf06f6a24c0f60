import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

/// The request value the code generators share, and what every generator does with secrets and text.
@Suite struct CodeExportTests {
    static let folder = URL(fileURLWithPath: "/project")

    /// The first request of `text`, resolved with `environment`'s values (private ones are secret).
    static func resolved(_ text: String, private values: [String: String] = [:],
                         public shared: [String: String] = [:]) throws -> (ResolvedRequest, VariableContext) {
        var environment = Environment(name: "dev")
        for (name, value) in shared { environment.values[name] = VariableValue(value) }
        for (name, value) in values { environment.values[name] = VariableValue(value, isSecret: true) }
        let context = VariableContext(environment: environment, processEnvironment: ["HOME_TOKEN": "from-the-process"])
        let file = HTTPFile(path: "api.http", text: text)
        let resolved = try Resolver(file: file, baseFolder: folder, context: context).resolve(file.requests[0])
        return (resolved, context)
    }

    static func code(_ language: CodeLanguage, _ resolved: ResolvedRequest, _ context: VariableContext,
                     showSecrets: Bool = false, main: Bool = false) -> String {
        language.code(for: resolved, context: context, baseFolder: folder, fileName: "api.http",
                      showSecrets: showSecrets, main: main)
    }

    static let secretRequest = """
        # @name upload
        POST https://ada:pa55word@api.example.com/users/{{userId}}?api_key=literal-k3y&page=2&sig={{$processEnv HOME_TOKEN}}
        Authorization: Bearer literal-b3arer
        X-Api-Key: {{apiKey}}
        X-Trace: trace-{{userId}}
        Cookie: session=c00kie-value
        Content-Type: application/json

        {"owner": "{{userId}}", "key": "{{apiKey}}"}
        """

    @Test("No generator writes a secret: headers the policy names, the URL's password, secret query values, private values")
    func everyGeneratorKeepsSecretsOut() throws {
        // Given a request with a secret in every place a secret can be
        let (resolved, context) = try Self.resolved(Self.secretRequest,
                                                    private: ["userId": "u-5ecret-id", "apiKey": "x-api-s3cret"])
        let secrets = ["literal-k3y", "literal-b3arer", "x-api-s3cret", "u-5ecret-id", "c00kie-value", "pa55word",
                       "from-the-process"]
        for language in CodeLanguage.allCases where language != .curl {
            // When it is exported
            let code = Self.code(language, resolved, context, main: true)
            // Then no secret is in the code, and the comment names where each one comes from
            for secret in secrets { #expect(!code.contains(secret), "\(language): \(secret)") }
            let names = language == .swift
                ? ["authorization: the Authorization header's credentials", "apiKey: the private value 'apiKey'",
                   "userId: the private value 'userId'", "password: the password in the URL",
                   "cookie: the Cookie header's credentials", "homeToken: the private value 'HOME_TOKEN'"]
                : ["AUTHORIZATION: the Authorization header's credentials", "API_KEY: the private value 'apiKey'",
                   "USER_ID: the private value 'userId'", "PASSWORD: the password in the URL",
                   "COOKIE: the Cookie header's credentials", "HOME_TOKEN: the private value 'HOME_TOKEN'"]
            for name in names { #expect(code.contains(name), "\(language) names \(name):\n\(code)") }
            // And with --show-secrets every value is written as is
            let shown = Self.code(language, resolved, context, showSecrets: true)
            for secret in secrets {
                #expect(shown.contains(secret), "\(language) shows \(secret)")
            }
        }
    }

    @Test("A header credential is named after its variable when one holds it, else after the header; names are unique")
    func secretsAreNamedAfterTheirVariableOrHeader() throws {
        let (resolved, context) = try Self.resolved("""
            GET https://x/a?token={{token}}&access_token=abcd-literal
            Authorization: Bearer {{token}}
            X-Api-Key: key-one-value
            X-API-KEY: key-two-value
            """, private: ["token": "t0ken-value"])
        let request = CodeRequest(resolved, context: context, baseFolder: Self.folder, fileName: nil, showSecrets: false)
        #expect(request.secrets.map(\.environmentName) == ["TOKEN", "X_API_KEY", "X_API_KEY2", "ACCESS_TOKEN"])
        #expect(request.secrets.map(\.parameterName) == ["token", "xApiKey", "xApiKey2", "accessToken"])
        #expect(request.headers[0].value == CodeText([.text("Bearer "), .secret(0, percentEncoded: false)]))
        #expect(request.url.query[0].value == CodeText([.secret(0, percentEncoded: true)]))
    }

    @Test("A credential too short to mask as text is left out of its header only; Swift names never clash with locals")
    func shortCredentialsAndClashingNames() throws {
        let (resolved, context) = try Self.resolved("""
            POST https://x/abc?q=abc
            X-Api-Key: abc
            X-Request: {{request}}
            Content-Type: text/plain

            abcdef
            """, private: ["request": "request-value"])
        let request = CodeRequest(resolved, context: context, baseFolder: Self.folder, fileName: nil, showSecrets: false)
        #expect(request.secrets.map(\.parameterName) == ["xApiKey", "request2"])
        #expect(request.url.path == CodeText("/abc"))
        #expect(request.body == .content(CodeText("abcdef")))
        let swift = CodeLanguage.swift.code(for: resolved, context: context, baseFolder: Self.folder, fileName: nil,
                                            showSecrets: false)
        #expect(swift.contains("static func postRequest(xApiKey: String, request2: String) -> URLRequest {"))
    }

    @Test("A binary body with a secret inside is bytes around the secret; a < ./file body is read when the code runs")
    func binaryAndFileBodies() throws {
        let folder = try TemporaryFolder("export-bodies")
        try Data([0x89, 0x50, 0x00]).write(to: folder.url.appendingPathComponent("blob.bin"))
        try Data([0xFF, 0x00]).write(to: folder.url.appendingPathComponent("part.bin"))
        let file = HTTPFile(path: "api.http", text: """
            # @name file
            POST https://x/upload
            Content-Type: application/octet-stream

            < ./blob.bin

            ###
            # @name parts
            POST https://x/parts
            Content-Type: multipart/form-data; boundary=B

            --B
            Content-Disposition: form-data; name="t"

            {{token}}
            --B
            Content-Disposition: form-data; name="f"; filename="p.bin"

            < ./part.bin
            --B--
            """)
        let context = VariableContext(environment: Environment(values: ["token": VariableValue("t0ken-value", isSecret: true)]))
        let resolver = Resolver(file: file, baseFolder: folder.url, context: context)
        let fileRequest = CodeRequest(try resolver.resolve(file.requests[0]), context: context, baseFolder: folder.url,
                                      fileName: nil, showSecrets: false)
        #expect(fileRequest.body == .file(path: folder.url.appendingPathComponent("blob.bin").standardizedFileURL.path))
        let parts = try resolver.resolve(file.requests[1])
        let python = CodeLanguage.python.code(for: parts, context: context, baseFolder: folder.url, fileName: nil,
                                              showSecrets: false)
        #expect(!python.contains("t0ken-value"))
        #expect(python.contains("b\"Content-Disposition: form-data; name=\\\"t\\\"\\r\\n\""), "\(python)")
        #expect(python.contains("TOKEN.encode() + b\"\\r\\n\""))
        #expect(python.contains("b\"\\xff\\x00\\r\\n\"\n    + b\"--B--\""))
        let swift = CodeLanguage.swift.code(for: parts, context: context, baseFolder: folder.url, fileName: nil,
                                            showSecrets: false)
        #expect(swift.contains("Data(token.utf8), Data(base64Encoded: "))
        let js = CodeLanguage.js.code(for: try resolver.resolve(file.requests[0]), context: context,
                                      baseFolder: folder.url, fileName: nil, showSecrets: false)
        #expect(js.contains("body: await readFile(\"\(folder.url.standardizedFileURL.path)/blob.bin\"),"))
    }

    @Test("Each language's string literal escapes quotes, backslashes, its own interpolation, controls and invisibles")
    func literalsEscapeWhatTheirLanguageReads() {
        let hostile = "q\"b\\d$x\\(y)${z}\n\t\r\u{7}\u{202E}é😀"
        #expect(PythonExporter.string(hostile) == "\"q\\\"b\\\\d$x\\\\(y)${z}\\n\\t\\r\\x07\\u202eé😀\"")
        #expect(JavaScriptExporter.string(hostile) == "\"q\\\"b\\\\d$x\\\\(y)${z}\\n\\t\\r\\u{7}\\u{202e}é😀\"")
        #expect(GoExporter.string(hostile) == "\"q\\\"b\\\\d$x\\\\(y)${z}\\n\\t\\r\\u0007\\u202eé😀\"")
        #expect(KotlinExporter.string(hostile) == "\"q\\\"b\\\\d\\$x\\\\(y)\\${z}\\n\\t\\r\\u0007\\u202eé😀\"")
        #expect(SwiftLiteral.string(hostile) == "\"q\\\"b\\\\d$x\\\\(y)${z}\\n\\t\\r\\u{7}\\u{202e}é😀\"")
        #expect(CurlExporter.quoteBody("a\u{202E}b") == "$'a\\u202eb'")
        #expect(PythonExporter.bytes(Data([0x41, 0x22, 0x5C, 0xFF, 0x0A])) == "b\"A\\\"\\\\\\xff\\n\"")
        #expect(GoExporter.bytes(Data([0x41, 0xFF])) == "\"A\\xff\"")
    }

    @Test("A multi-line Swift literal escapes a third quote in a row, a trailing space and keeps \\( as text")
    func swiftMultilineLiteral() throws {
        let (resolved, context) = try Self.resolved("""
            POST https://x/
            Content-Type: text/plain

            say \"\"\"hi\"\"\" \\(x) {{token}}\u{20}
            end
            """, private: ["token": "t0ken-value"])
        let request = CodeRequest(resolved, context: context, baseFolder: Self.folder, fileName: nil, showSecrets: false)
        guard case .content(let body) = request.body else { Issue.record("no body"); return }
        #expect(SwiftLiteral.expression(body, request, indent: "") == """
            \"\"\"
                say ""\\"hi""\\" \\\\(x) \\(token)\\u{20}
                end
                \"\"\"
            """)
    }

    @Test("Names are split into words at case changes, separators and acronyms, with accents dropped")
    func namesFromNames() {
        #expect(CodeNames.words("X-Api-Key") == ["X", "Api", "Key"])
        #expect(CodeNames.words("createdAt") == ["created", "At"])
        #expect(CodeNames.words("URLPath2") == ["URL", "Path2"])
        #expect(CodeNames.upperSnake("accessToken") == "ACCESS_TOKEN")
        #expect(CodeNames.upperSnake("2fa") == "_2FA")
        #expect(CodeNames.lowerCamel("user_ID") == "userId")
        #expect(CodeNames.lowerCamel("naïve-value") == "naiveValue")
        #expect(CodeNames.upperCamel("first_name") == "FirstName")
        #expect(CodeNames.upperCamel("$$$") == "Value")
    }
}
