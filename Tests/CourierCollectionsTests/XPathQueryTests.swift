@testable import CourierCollections
import CourierTestSupport
import Foundation
import Testing

/// XPath over XML response bodies (libxml2): what an expression gives, the errors, and hostile documents.
@Suite struct XPathQueryTests {
    static let order = Data("""
        <?xml version="1.0"?>
        <order id="42"><token>abc-123</token><items><item sku="a">One</item><item sku="b">Two</item></items></order>
        """.utf8)

    func value(_ expression: String, in body: Data = order) -> Result<String, XPathQuery.Failure> {
        XPathQuery(expression).evaluate(body)
    }

    @Test func elementsAttributesAndFunctionsGiveTheirTextAndAnElementOfElementsItsMarkup() throws {
        #expect(try value("//token").get() == "abc-123")
        #expect(try value("/order/@id").get() == "42")
        #expect(try value("//item[@sku='b']").get() == "Two")
        #expect(try value("count(//item)").get() == "2")
        #expect(try value("string(//item[1]/@sku)").get() == "a")
        #expect(try value("count(//item) > 1").get() == "true")
        #expect(try value("//items").get() == #"<items><item sku="a">One</item><item sku="b">Two</item></items>"#)
    }

    @Test func noMatchSeveralMatchesABadExpressionAndNonXMLSayWhy() throws {
        #expect(value("//missing") == .failure(.init("the XML response has nothing there")))
        #expect(value("//item") == .failure(.init("it selects 2 nodes; select one, as in (//item)[1]")))
        guard case .failure(let bad) = value("//item[") else { Issue.record("a bad expression gave a value"); return }
        #expect(bad.message.hasPrefix("not a valid XPath expression"), "\(bad.message)")
        guard case .failure(let notXML) = value("//a", in: Data("<a><b></a>".utf8)) else {
            Issue.record("malformed XML gave a value"); return
        }
        #expect(notXML.message.hasPrefix("the response is not well-formed XML: "), "\(notXML.message)")
        let namespaced = Data(#"<r xmlns="urn:x"><token>t</token></r>"#.utf8)
        guard case .failure(let hint) = value("//token", in: namespaced) else { Issue.record("matched"); return }
        #expect(hint.message.contains("local-name()"), "\(hint.message)")
        #expect(try value("//*[local-name()='token']", in: namespaced).get() == "t")
    }

    @Test func entityDeclarationsAreRefusedBeforeParsingSoNoBlowUpAndNoFileIsRead() {
        // Given a "billion laughs" document and one whose entity names a file on this machine
        var laughs = #"<?xml version="1.0"?><!DOCTYPE l [<!ENTITY l0 "ha">"#
        for level in 1...12 { laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
        laughs += "]><l>&l12;</l>"
        let file = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#
        // Then both are refused as declaring entities
        for document in [laughs, file] {
            #expect(value("/*", in: Data(document.utf8))
                    == .failure(.init("the XML response declares entities (<!ENTITY>), which Courier does not expand")))
        }
    }

    @Test func anExternalDTDIsNeverFetched() throws {
        // Given a document naming its DTD on a loopback server
        let server = try LoopbackServer { _ in .init(status: 200, body: Data("<!ELEMENT r ANY>".utf8)) }
        let document = #"<?xml version="1.0"?><!DOCTYPE r SYSTEM "\#(server.url("/r.dtd").absoluteString)"><r>v</r>"#
        // When it is queried
        let result = value("/r", in: Data(document.utf8))
        // Then the value is read and the server received nothing
        #expect(try result.get() == "v")
        #expect(server.requests.isEmpty)
    }

    @Test func aDocumentOverTheLimitIsRefusedUnparsed() {
        var huge = Data("<r>".utf8)
        huge.append(Data(repeating: UInt8(ascii: "a"), count: XPathQuery.maximumDocumentSize))
        huge.append(Data("</r>".utf8))
        #expect(value("/r", in: huge) == .failure(.init("the XML response is over 32 MB")))
    }

    @Test func xmlIsRecognisedByMediaTypeOrByItsFirstCharacter() {
        #expect(XPathQuery.isXML(Data("x".utf8), contentType: "application/soap+xml; charset=utf-8"))
        #expect(XPathQuery.isXML(Data("\n  <r/>".utf8), contentType: "text/plain"))
        #expect(!XPathQuery.isXML(Data(#"{"a": 1}"#.utf8), contentType: "application/json"))
    }
}
