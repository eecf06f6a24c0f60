import CourierSecurity
import CourierHTTP
import Foundation
import Testing

/// RFC 6265 rules of the cookie jar: domain and path matching, Secure, expiry and Max-Age, attributes kept.
struct CookieJarTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    func url(_ text: String) -> URL { URL(string: text)! }

    @Test func aHostOnlyCookieGoesToItsHostAndADomainCookieToSubdomainsToo() {
        let jar = CookieJar()
        jar.store(setCookie: ["host=1", "wide=2; Domain=.example.com"], from: url("https://api.example.com/login"), now: now)
        #expect(jar.header(for: url("https://api.example.com/x"), now: now) == "host=1; wide=2")
        #expect(jar.header(for: url("https://www.example.com/x"), now: now) == "wide=2")
        #expect(jar.header(for: url("https://example.org/x"), now: now) == nil)
    }

    @Test func aCookieForAnotherSiteOrATopLevelDomainIsRefused() {
        let jar = CookieJar()
        jar.store(setCookie: ["a=1; Domain=evil.com", "b=2; Domain=com"], from: url("https://api.example.com/"), now: now)
        #expect(jar.all(now: now).isEmpty)
    }

    @Test func pathsMatchOnSegmentBoundariesAndTheDefaultPathIsTheRequestsFolder() {
        let jar = CookieJar()
        jar.store(setCookie: ["p=1; Path=/api", "d=2"], from: url("http://h.test/api/v1/login"), now: now)
        #expect(jar.header(for: url("http://h.test/api/users"), now: now) == "p=1")
        #expect(jar.header(for: url("http://h.test/api/v1/me"), now: now) == "d=2; p=1")
        #expect(jar.header(for: url("http://h.test/apix"), now: now) == nil)
    }

    @Test func aSecureCookieGoesOnlyOverHTTPS() {
        let jar = CookieJar()
        jar.store(setCookie: ["s=1; Secure; HttpOnly; SameSite=Strict"], from: url("https://h.test/"), now: now)
        #expect(jar.header(for: url("http://h.test/"), now: now) == nil)
        #expect(jar.header(for: url("https://h.test/"), now: now) == "s=1")
        let cookie = jar.all(now: now).first
        #expect(cookie?.httpOnly == true)
        #expect(cookie?.sameSite == "Strict")
    }

    @Test func maxAgeWinsOverExpiresAndZeroDeletes() {
        let jar = CookieJar()
        jar.store(setCookie: ["m=1; Max-Age=60; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
                              "e=2; Expires=Wed, 21 Oct 2015 07:28:00 GMT"], from: url("http://h.test/"), now: now)
        #expect(jar.header(for: url("http://h.test/"), now: now) == "m=1")
        #expect(jar.header(for: url("http://h.test/"), now: now.addingTimeInterval(61)) == nil)
        jar.store(setCookie: ["m=; Max-Age=0"], from: url("http://h.test/"), now: now)
        #expect(jar.all(now: now).isEmpty)
    }

    @Test func shownValuesAreMaskedUnlessAsked() {
        let cookie = Cookie(name: "sid", value: "s3cret", domain: "h.test")
        #expect(cookie.shownValue(showSecrets: false) == SecretPolicy.mask)
        #expect(cookie.shownValue(showSecrets: true) == "s3cret")
    }
}
