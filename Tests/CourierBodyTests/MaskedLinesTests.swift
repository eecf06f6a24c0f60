import CourierBody
import CourierSecurity
import Foundation
import Testing

/// A body seen through the secret policy: known values are masked line by line as they are drawn and
/// searched, colours stay on the right characters, and a search finds only what is shown.
@Suite struct MaskedLinesTests {
    let masker = SecretMasker(secrets: ["tok-S3CRET-1234", "key/with space"])

    @Test func pretty_JSON_lines_show_the_mask_in_the_colour_of_the_value_and_keep_later_colours_in_place() throws {
        // Given a pretty JSON body whose string value holds a token
        let document = PrettyJSONDocument(data: Data(#"{"auth": "Bearer tok-S3CRET-1234", "n": 1}"#.utf8))
        let masked = MaskedLines(document, masker: masker)

        // When its line is read
        masked.indexAll()
        let line = (0..<masked.lineCount).map { masked.coloredLine($0) }.first { $0.text.contains("auth") }
        let shown = try #require(line)

        // Then the token is masked and each span still covers its own text
        #expect(shown.text == #"  "auth": "Bearer REDACTED","#)
        let value = try #require(shown.text.range(of: "REDACTED"))
        #expect(shown.role(at: shown.text.distance(from: shown.text.startIndex, to: value.lowerBound)) == .string)
        #expect(shown.spans.allSatisfy { $0.range.upperBound <= shown.text.count })
        #expect(shown.role(at: shown.text.count - 1) == .punctuation)
    }

    @Test func a_search_reads_the_masked_text_and_finds_the_mask_not_the_secret() throws {
        // Given a raw body of several lines, one holding the token and one its percent-encoded other secret
        let body = BodyDocument(data: Data("a\nx tok-S3CRET-1234 y\nkey%2Fwith%20space\nz\n".utf8))
        let masked = MaskedLines(body, masker: masker)

        // When it is searched for part of the token, and for the mask
        let secret = try BodySearch(SearchQuery("S3CRET")).hits(in: masked)
        let mask = try BodySearch(SearchQuery("REDACTED", caseInsensitive: false)).hits(in: masked)

        // Then only the mask is found, at the columns where it is drawn
        #expect(secret.isEmpty)
        #expect(mask.all.map(\.line) == [1, 2])
        #expect(mask.all.first?.columns == 2..<10)
        #expect(masked.line(1) == "x REDACTED y")
        #expect(masked.line(2) == "REDACTED")
    }

    @Test func a_line_without_a_secret_is_passed_through_unchanged() {
        let line = ColoredLine(text: "plain", spans: [ColoredLine.Span(0..<5, .key)])
        #expect(line.masked(by: masker) == line)
    }
}
