@testable import CourierSecurity
import Testing

/// The one secret policy and the one sanitiser, as values.
struct SecretPolicyTests {
    @Test func secretHeadersAreNamedOrRecognisedByWhatTheirNameSays() {
        for name in ["Authorization", "proxy-authorization", "Cookie", "Set-Cookie", "X-Api-Key", "Api-Key",
                     "X-Upload-Token", "X-Client-Secret", "DB-Password"] {
            #expect(SecretPolicy.isSecretHeader(name), "\(name)")
        }
        for name in ["Accept", "Content-Type", "X-Trace", "Location"] { #expect(!SecretPolicy.isSecretHeader(name)) }
    }

    /// A header field is shown by what its name is, read once in any case: a credential masked after its scheme
    /// (before anything else, even when the name also says URL), a URL with its password masked, and any other
    /// value with only the known secrets masked in it.
    @Test func aHeaderFieldIsShownByWhatItsNameIsInAnyCase() {
        let none = SecretMasker(secrets: [String]())
        let known = SecretMasker(secrets: ["s3cr3t-value"])
        #expect(SecretPolicy.maskedHeaderValue(name: "AUTHORIZATION", value: "Bearer abc", masker: none)
                == "Bearer REDACTED")
        #expect(SecretPolicy.maskedHeaderValue(name: "x-upload-TOKEN", value: "abc", masker: none) == "REDACTED")
        #expect(SecretPolicy.maskedHeaderValue(name: "Location-Token", value: "http://h/", masker: none) == "REDACTED")
        for name in ["Location", "CONTENT-location"] {
            #expect(SecretPolicy.maskedHeaderValue(name: name, value: "https://u:pw@h/p?token=t", masker: none)
                    == "https://u:REDACTED@h/p?token=REDACTED")
        }
        #expect(SecretPolicy.maskedHeaderValue(name: "Content-Type", value: "text/s3cr3t-value", masker: known)
                == "text/REDACTED")
        #expect(SecretPolicy.maskedHeaderValue(name: "Content-Type", value: "text/s3cr3t-value", masker: none)
                == "text/s3cr3t-value")
        #expect(SecretNames.headerKind("X-Trace") == .plain && SecretNames.headerKind("LOCATION") == .url
                && SecretNames.headerKind("Set-Cookie") == .secret)
    }

    @Test func aURLKeepsItsShapeWithPasswordAndSecretParametersMasked() {
        let url = "https://ann:pw-1@api.test/p?access_token=abc123&page=2&client_secret=zz&Sig=q#top"
        #expect(SecretPolicy.maskedURL(url)
                == "https://ann:REDACTED@api.test/p?access_token=REDACTED&page=2&client_secret=REDACTED&Sig=REDACTED#top")
        #expect(SecretPolicy.maskedURL("http://h/a?q=1") == "http://h/a?q=1")
    }

    @Test func knownValuesAreMaskedAlsoPercentEncodedAndTheSchemeIsKept() {
        #expect(SecretPolicy.masking("x=a%2Fb%2Bc and a/b+c", secrets: ["a/b+c"]) == "x=REDACTED and REDACTED")
        #expect(SecretPolicy.masking("/p/x%20y", secrets: ["x y"]) == "/p/REDACTED")
        #expect(SecretPolicy.masking("short ab", secrets: ["ab"]) == "short ab")
        #expect(SecretPolicy.maskedHeaderValue("Bearer tok") == "Bearer REDACTED")
    }

    /// The byte pre-check that lets most printed text skip the scalar-by-scalar escape finds exactly the
    /// dangerous scalars: every one of them, and not the `µs` of an attempt line or other common punctuation.
    @Test func theSanitisersByteCheckFindsDangerousScalarsAndOnlyThem() {
        let dangerous: [UInt32] = Array(0x00...0x08) + Array(0x0B...0x1F) + [0x7F] + Array(0x80...0x9F)
            + Array(Sanitizer.bidiControls)
        for value in dangerous {
            let text = "12 µs – \(Character(Unicode.Scalar(value)!)) …"
            #expect(Sanitizer.mayHoldDangerousScalar(text.utf8), "U+\(String(value, radix: 16))")
        }
        let safe = ["attempt 1  200  41 µs  reused connection", "a – b … ‘c’ “d” → ✓ ü € \u{200D} \u{2060} ⁰ ÿ",
                    "line\n\tnext"]
        for text in safe {
            #expect(!Sanitizer.mayHoldDangerousScalar(text.utf8), "\(text)")
            #expect(Sanitizer.escaped(text) == text)
        }
    }

    @Test func theSanitiserEscapesC0C1AndBidiForPrintingAndJSON() {
        let hostile = "a\u{1B}]0;t\u{07}b\u{9B}c\u{202E}d\ne\tf"
        #expect(Sanitizer.escaped(hostile) == "a\\x1B]0;t\\x07b\\x9Bc\\u202Ed\ne\tf")
        #expect(Sanitizer.escaped("line\nnext", keepingLayout: false) == "line\\x0Anext")
        #expect(Sanitizer.escaped("plain ü € text") == "plain ü € text")
        #expect(Sanitizer.escapedJSON("{\"t\":\"\u{9B}\u{202E}\"}") == "{\"t\":\"\\u009B\\u202E\"}")
        #expect(Sanitizer.sanitize("\u{1B}]0;t\u{07}") == "␛]0;t␇")
    }

    @Test func jsonEscapedInPlaceAtTheEndOfABufferMatchesTheStringFormAndLeavesWhatCameBefore() {
        // Given a buffer holding an earlier line (with a bidi control of its own) and then a new JSON line
        let earlier = Array("{\"t\":\"\u{202E}\"}\n".utf8)
        for line in ["{\"t\":\"\u{9B}x\u{202E}é€\u{2069}\"}", "{\"t\":\"plain ü € 😀\"}", "{\"t\":\"\u{E2}\u{80}\"}"] {
            var bytes = earlier + Array(line.utf8)
            // When the new line is escaped in place
            Sanitizer.escapeJSON(&bytes, from: earlier.count)
            // Then it reads as escapedJSON writes it and the earlier bytes are untouched
            #expect(bytes == earlier + Array(Sanitizer.escapedJSON(line).utf8))
        }
    }

    @Test func textEscapedInPlaceAtTheEndOfABufferMatchesTheStringFormAndLeavesWhatCameBefore() {
        // Given a buffer holding an earlier line (with a control of its own) and then new text
        let earlier = Array("a\u{1B}b\n".utf8)
        for text in ["x\u{1B}[31m\u{7F}\u{9B}é\u{202E}\ty\nz", "plain ü € 😀\tline\n", "", "\u{E2}\u{80}"] {
            var bytes = earlier + Array(text.utf8)
            // When the new text is escaped in place
            Sanitizer.escape(&bytes, from: earlier.count)
            // Then it reads as escaped writes it and the earlier bytes are untouched
            #expect(bytes == earlier + Array(Sanitizer.escaped(text).utf8))
        }
    }
}
