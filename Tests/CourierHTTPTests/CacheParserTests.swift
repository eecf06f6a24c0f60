import CourierHTTP
import CourierMessage
import Foundation
import Testing

@Suite("HTTP dates")
struct CacheHTTPDateTests {
    /// 1994-11-06 08:49:37 UTC, RFC 9110's example instant.
    let example = Date(timeIntervalSince1970: 784_111_777)

    @Test func parsesTheIMFFixdateForm() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == example)
    }

    @Test func parsesTheObsoleteRFC850FormWithItsTwoDigitYear() {
        // Given a clock in 2026, when '94' is read, then it is 1994 (2094 would be more than 50 years ahead).
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == example)
        // And a year that is not far in the future stays in this century.
        let parsed = HTTPDate.parse("Tuesday, 06-Nov-29 08:49:37 GMT", now: now)
        #expect(parsed.map(HTTPDate.format) == "Tue, 06 Nov 2029 08:49:37 GMT")
    }

    @Test func parsesTheAsctimeFormWithItsSpacePaddedDay() {
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == example)
        #expect(HTTPDate.parse("Sun Nov 16 08:49:37 1994") == example.addingTimeInterval(10 * 86_400))
    }

    @Test func formatsAsIMFFixdateAndRoundTrips() {
        #expect(HTTPDate.format(example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        let leapDay = HTTPDate.parse("Thu, 29 Feb 2024 23:59:59 GMT")
        #expect(leapDay.map(HTTPDate.format) == "Thu, 29 Feb 2024 23:59:59 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test(arguments: [
        "", "0", "-1", "yesterday", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
        "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sun Nov 6 08:49:37 1994", "Sun Nov  6 08:49:37 94", "Sun, 06 Nov 1994 08:49:37 GMT trailing",
        "Sun, 06 Nov 19９4 08:49:37 GMT",
    ])
    func rejectsMalformedOrOutOfRangeDates(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func acceptsALeapSecond() {
        #expect(HTTPDate.parse("Wed, 31 Dec 2016 23:59:60 GMT") != nil)
    }

    @Test func aCacheReadsDayMonthAndZoneNamesInAnyCaseWhileTheGrammarStaysStrict() {
        // Given dates whose names are in the wrong case, in each of the three formats
        let shouting = ["SUN, 06 NOV 1994 08:49:37 gmt", "sunday, 06-nov-94 08:49:37 Gmt", "sUN nOV  6 08:49:37 1994"]
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for text in shouting {
            // Then the strict parse refuses them and a cache's parse reads the same instant
            #expect(HTTPDate.parse(text, now: now) == nil, "\(text)")
            #expect(HTTPDate.parse(text, now: now, caseSensitive: false) == example, "\(text)")
        }
        // And a name that is not one stays refused
        #expect(HTTPDate.parse("Sun, 06 Nox 1994 08:49:37 GMT", caseSensitive: false) == nil)
    }
}

@Suite("Cache-Control")
struct CacheControlParserTests {
    @Test func parsesTokensQuotedStringsAndCaseInsensitiveNames() {
        let control = CacheControl(parsing: #"Max-Age=60, no-cache="Set-Cookie, X-Secret", PRIVATE, ext="a,b""#)
        #expect(control.maxAge == .value(60))
        #expect(control.noCache == .fields(["set-cookie", "x-secret"]))
        #expect(control.isPrivate)
        #expect(control.directives.last == CacheControl.Directive(name: "ext", argument: "a,b"))
    }

    @Test func acceptsAQuotedDeltaSecondsArgument() {
        #expect(CacheControl(parsing: #"max-age="30""#).maxAge == .value(30))
    }

    @Test func treatsNonNumericOrConflictingMaxAgeAsInvalid() {
        #expect(CacheControl(parsing: "max-age=abc").maxAge == .invalid)
        #expect(CacheControl(parsing: "max-age").maxAge == .invalid)
        #expect(CacheControl(parsing: "max-age=-5").maxAge == .invalid)
        #expect(CacheControl(parsing: "max-age=10, max-age=20").maxAge == .invalid)
        // Agreeing duplicates are harmless.
        #expect(CacheControl(parsing: "max-age=10, max-age=10").maxAge == .value(10))
    }

    @Test func clampsHugeDeltaSecondsTo2To31() {
        #expect(CacheControl(parsing: "max-age=99999999999999999999").maxAge == .value(2_147_483_648))
        #expect(CacheControl(parsing: "max-age=0000000000000000000005").maxAge == .value(5))
    }

    @Test func skipsMalformedElementsButKeepsTheRest() {
        let control = CacheControl(parsing: " , =5, no store, no-store,,  max-age = 7 ")
        #expect(control.noStore)
        #expect(control.maxAge == .value(7))
        #expect(control.directives.count == 2)
    }

    @Test func unqualifiedNoCacheWinsOverAQualifiedOne() {
        #expect(CacheControl(parsing: #"no-cache="Foo", no-cache"#).noCache == .all)
        #expect(CacheControl(parsing: "public").noCache == nil)
    }

    @Test func readsMaxStaleWithAndWithoutALimit() {
        #expect(CacheControl(parsing: "max-stale").maxStale == .any)
        #expect(CacheControl(parsing: "max-stale=30").maxStale == .limit(30))
        #expect(CacheControl(parsing: "max-stale=soon").maxStale == .limit(0))
        #expect(CacheControl(parsing: "max-age=1").maxStale == .absent)
    }

    @Test func combinesSeveralFieldLines() {
        let headers: HTTPHeaders = HTTPHeaders([("Cache-Control", "no-cache"), ("Cache-Control", "max-age=5")])
        let control = CacheControl(headers: headers)
        #expect(control?.noCache == .all)
        #expect(control?.maxAge == .value(5))
        #expect(CacheControl(headers: [:]) == nil)
    }

    @Test func describesItselfQuotingWhatIsNotAToken() {
        #expect(CacheControl(parsing: #"max-age=5, no-cache="a b""#).description == #"max-age=5, no-cache="a b""#)
    }
}

@Suite("Vary and Pragma")
struct CacheVaryPragmaTests {
    @Test func readsVaryFieldNamesLowerCasedAndDeduplicated() {
        let vary = Vary(headers: HTTPHeaders([("Vary", "Accept-Language, accept"), ("Vary", "ACCEPT")]))
        #expect(vary == .fields(["accept-language", "accept"]))
    }

    @Test func anyStarMakesVaryAny() {
        #expect(Vary(headers: ["Vary": "Accept, *"]) == .any)
    }

    @Test func selectsRequestValuesIgnoringWhitespaceAroundCommasAndDigestsSecrets() {
        let vary = Vary.fields(["accept", "authorization", "x-missing"])
        let selected = vary.selectedValues(of: ["Accept": "a/b ,  c/d", "Authorization": "Bearer s3cret"])
        #expect(selected["accept"] == "a/b,c/d")
        #expect(selected["x-missing"] == "")
        #expect(selected["authorization"]?.hasPrefix("digest:") == true)
        #expect(selected["authorization"]?.contains("s3cret") == false)
    }

    @Test func acceptLanguageEncodingAndCharsetSelectAlikeInAnyOrderAndCase() {
        // Given two requests whose Accept-Language and Accept-Encoding differ only in order and case
        let vary = Vary.fields(["accept-language", "accept-encoding", "accept-charset", "foo"])
        let first = vary.selectedValues(of: ["Accept-Language": "en, de;q=0.5", "Accept-Encoding": "gzip, br",
                                             "Accept-Charset": "UTF-8", "Foo": "a, b"])
        let second = vary.selectedValues(of: ["Accept-Language": "DE;q=0.5,   En", "Accept-Encoding": "br,gzip",
                                              "Accept-Charset": "utf-8", "Foo": "a, b"])
        // Then they select the same stored response
        #expect(first == second)
        // But a field whose order may matter keeps it
        #expect(vary.selectedValues(of: ["Foo": "b, a"])["foo"] != first["foo"])
    }

    @Test func pragmaNoCacheCountsOnlyWithoutCacheControl() {
        #expect(Pragma.requestsNoCache(["Pragma": "no-cache"]))
        #expect(!Pragma.requestsNoCache(["Pragma": "no-cache", "Cache-Control": "max-age=5"]))
        #expect(!Pragma.requestsNoCache(["Pragma": "x-other"]))
    }
}
