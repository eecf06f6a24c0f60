import Foundation

/// httpyac's one-line tests after a request, `?? FIELD [NAME] CONDITION [EXPECTED]` (`?? status == 200`,
/// `?? header content-type includes json`, `?? js response.parsedBody.id > 0`, `?? duration < 500`), run as
/// a response handler declaring one `client.test` named after the line, so they pass and fail like any test.
/// `?? body PATH …` reads a path into the parsed body; an object or array equals the JSON written.
struct HttpyacAssertion: Equatable {
    enum Field: String, CaseIterable { case status, duration, header, body, xpath, js }

    /// The request variable an `xpath` assertion's handler reads its value from: `ScriptRunner` evaluates
    /// the XPath (libxml2 lives on this side, not in the script engine) and hands the result in under it.
    static let xpathVariable = "$xpath"
    /// The request variable an assertion whose expected value holds variables reads it from, substituted.
    static let expectedVariable = "$expected"

    /// Conditions, with the JavaScript that decides them from `actual` and the written `expected`.
    static let conditions: [String: String] = [
        "==": "loose(actual, expected)", "equals": "loose(actual, expected)", "!=": "!loose(actual, expected)",
        ">": "Number(actual) > Number(expected)", ">=": "Number(actual) >= Number(expected)",
        "<": "Number(actual) < Number(expected)", "<=": "Number(actual) <= Number(expected)",
        "startsWith": "String(actual).startsWith(expected)", "endsWith": "String(actual).endsWith(expected)",
        "includes": "contains(actual, expected)", "contains": "contains(actual, expected)",
        "exists": "actual !== undefined && actual !== null", "isTrue": "!!actual", "isFalse": "!actual",
        "isNumber": "typeof actual === \"number\"", "isBoolean": "typeof actual === \"boolean\"",
        "isString": "typeof actual === \"string\"", "isArray": "Array.isArray(actual)",
        "matches": "new RegExp(expected).test(String(actual))",
        // httpyac compares the base64 digest of the value's UTF-8 bytes.
        "sha256": "crypto.sha256().updateWithText(String(actual)).digest().toBase64() === expected",
        "sha512": "crypto.sha512().updateWithText(String(actual)).digest().toBase64() === expected",
        "md5": "crypto.md5().updateWithText(String(actual)).digest().toBase64() === expected",
    ]

    /// Why a `??` line cannot be read. httpyac still sends the request: a line without a condition is not a
    /// test at all, one whose field it has no value for is a test that fails; `failsTest` says which.
    struct Problem: Error, Equatable {
        var message: String
        var failsTest = true
    }

    var text: String
    var field: Field
    /// The header name, or the JavaScript expression of a `js` field.
    var subject: String
    var condition: String
    var expected: String

    /// Reads the line after `??`; the error says what is wrong.
    static func parse(_ line: String) -> Result<HttpyacAssertion, Problem> {
        let text = line.trimmingCharacters(in: .whitespaces).dropFirst(2).trimmingCharacters(in: .whitespaces)
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first, let field = Field(rawValue: first) else {
            let known = Field.allCases.map(\.rawValue).joined(separator: ", ")
            let word = words.first ?? ""
            return .failure(Problem(message: "'?? \(word)' checks nothing Courier knows; use one of \(known)"))
        }
        guard let at = words.indices.dropFirst().first(where: { conditions[words[$0]] != nil }) else {
            return .failure(Problem(message: "'?? \(text)' has no condition such as ==, <, includes or exists",
                                    failsTest: false))
        }
        let subject = words[1..<at].joined(separator: " ")
        if (field == .header || field == .js || field == .xpath) && subject.isEmpty {
            let needed = field == .header ? "a header name" : field == .xpath ? "an XPath expression" : "an expression"
            return .failure(Problem(message: "'?? \(field.rawValue)' needs \(needed)"))
        }
        return .success(HttpyacAssertion(text: text, field: field, subject: subject, condition: words[at],
                                         expected: words[(at + 1)...].joined(separator: " ")))
    }

    /// The handler of a `??` line that cannot be read but is a test in httpyac: one test, named after the
    /// line, that fails saying why.
    static func failingScript(line: String, problem: Problem) -> String {
        let text = line.trimmingCharacters(in: .whitespaces).dropFirst(2).trimmingCharacters(in: .whitespaces)
        return "client.test(\(literal(text)), () => { client.assert(false, \(literal(problem.message))); });"
    }

    /// The XPath expression the handler needs evaluated on the response, for `?? xpath EXPR …`.
    var xpath: String? { field == .xpath ? subject : nil }

    /// The handler: httpyac's names for the response (`response.parsedBody`, `response.statusCode`) work in
    /// `js` expressions.
    var script: String {
        let actual: String
        switch field {
        case .status: actual = "response.status"
        case .duration: actual = "pm.response.responseTime"
        case .header: actual = "response.headers.valueOf(\(Self.literal(subject)))"
        case .body where subject.isEmpty: actual = "pm.response.text()"
        case .body:
            // `?? body items[0].id == 3`: a path into the parsed body, as httpyac reads it.
            actual = "((body) => body\(subject.hasPrefix("[") ? "" : ".")\(subject))(typeof response.body === "
                + "\"object\" && response.body !== null ? response.body : pm.response.text())"
        case .xpath: actual = "request.variables.get(\(Self.literal(Self.xpathVariable)))"
        case .js:
            actual = "((response) => (\(subject)))({ statusCode: response.status, parsedBody: response.body, "
                + "body: pm.response.text(), headers: pm.response.headers.toObject() })"
        }
        return """
            client.test(\(Self.literal(text)), () => {
                const same = (a, e) => { try { return JSON.stringify(a) === JSON.stringify(JSON.parse(e)); }
                    catch (error) { return false; } };
                const loose = (a, e) => a == e || String(a) === e || (e === "true" && a === true)
                    || (e === "false" && a === false) || (e === "null" && a === null)
                    || (typeof a === "object" && a !== null && same(a, e));
                const contains = (a, e) => Array.isArray(a) ? a.some((x) => loose(x, e)) : String(a).includes(e);
                const expected = \(expectedSource);
                const actual = \(actual);
                client.assert(\(Self.conditions[condition] ?? "false"), \(Self.literal(field.rawValue + " ")) + \
            (typeof actual === "string" ? actual : JSON.stringify(actual)));
            });
            """
    }

    /// The expected value as written, or (when it holds variables) as `ScriptRunner` substituted it.
    private var expectedSource: String {
        guard expected.contains("{{") else { return Self.literal(expected) }
        return "String(request.variables.get(\(Self.literal(Self.expectedVariable))))"
    }

    /// A JavaScript string literal (JSON's quoting is valid JavaScript).
    static func literal(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]))
            ?? Data()
        let array = String(decoding: data, as: UTF8.self)
        return array.count >= 2 ? String(array.dropFirst().dropLast()) : "\"\""
    }
}
