import Foundation
import Testing
@testable import CourierCollections

/// The `{{…}}` expressions `courier run` orders requests by are found over the bytes of ASCII text, and give
/// what Foundation's search gave; other text still goes through Foundation.
@Suite("Template expressions")
struct TemplateExpressionsTests {
    /// The expressions as Foundation's search finds them (how they were always found).
    static func byFoundation(_ text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            found.append(rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces))
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func scanned(_ text: String) -> [String] {
        var found: [String] = []
        TemplateExpressions.forEach(in: text) { found.append($0) }
        return found
    }

    @Test("ASCII text: the same expressions, in order, as Foundation's search")
    func asciiTextGivesFoundationsExpressions() {
        let texts = [
            "GET https://x/a", "GET {{host}}/a?q={{ q }}&t={{\tlogin.response.body.$.token\t}}",
            "{{{x}}}", "{{a}}{{b}}", "{{unclosed", "}}{{a}} }} {{", "{{}}", "{{ }}", "{ {a} }", "{{a\n}}",
            "POST {{h}}/x\nAuthorization: Bearer {{login.request.headers.X}}\n\n{\"a\": \"{{$uuid}}\"}",
        ]
        for text in texts {
            #expect(Self.scanned(text) == Self.byFoundation(text), "\(text.debugDescription)")
        }
        #expect(Self.scanned("{{ a }} and {{{b}}}") == ["a", "{b"])
    }

    @Test("Non-ASCII text is searched by Foundation, as before")
    func nonASCIITextIsSearchedByFoundation() {
        for text in ["GET https://x/é/{{ id }}", "{{\u{00A0}name\u{00A0}}}", "{{a}}日本{{b.response.body.*}}"] {
            #expect(Self.scanned(text) == Self.byFoundation(text), "\(text.debugDescription)")
        }
        // A no-break space is whitespace to Foundation: trimmed here as it always was
        #expect(Self.scanned("{{\u{00A0}name\u{00A0}}}") == ["name"])
    }

    @Test("References to responses and requests are read the same over bytes and over Foundation")
    func referencesAreReadAlike() {
        let reference = ResponseStore.reference("login.response.body.$.token")
        #expect(reference?.name == "login" && reference?.part == .response && reference?.rest == "body.$.token")
        #expect(ResponseStore.reference("é.request.headers.X")?.name == "é")
        #expect(ResponseStore.reference("a.request.response.x")?.part == .response)
        #expect(ResponseStore.reference("host") == nil)
        #expect(CollectionRunner.variableNames(in: "{{host}}/{{login.response.body.x}}/{{$uuid}}") == ["host"])
    }

    @Test("A URL's scheme is refused as before, whatever its case")
    func otherProtocolsSchemesAreRefused() {
        func refusal(_ url: String) -> String? {
            HTTPFileParser.refusal(of: .init(method: "GET", url: url, version: nil))
        }
        #expect(refusal("AMQPS://broker/q") == HTTPFileParser.refusedWords["AMQP"])
        #expect(refusal("mqtt://broker") == HTTPFileParser.refusedWords["MQTT"])
        #expect(refusal("Grpcs://h:1/a.B/C") == HTTPFileParser.grpcSchemeRefusal)
        #expect(refusal("https://x/mqtt://y") == nil)
        #expect(refusal("x/a") == nil)
        #expect(refusal("MQTT://brökér") == HTTPFileParser.refusedWords["MQTT"])
    }
}
