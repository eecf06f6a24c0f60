import CourierMessage
import CourierSecurity
import Foundation
import Testing
@testable import CourierHTTP

/// The request's secret set (`HTTPRequest.secretValues`), the one rule every writer masks by: what a URL and
/// a header carry as credentials, in every spelling a server may echo them back in.
struct RequestSecretSetTests {
    @Test func aURLsUserInfoGivesThePasswordThePairAndTheBasicCredentialsCurlSends() {
        let found = Set(SecretPolicy.credentials(inURL: "https://ann:p%40ss-1234@api.test/p?page=2"))
        let basic = Data("ann:p@ss-1234".utf8).base64EncodedString()
        #expect(found == ["p%40ss-1234", "p@ss-1234", "ann:p@ss-1234", basic])
        // A user name alone is the credential (a token given as the user)
        let token = Set(SecretPolicy.credentials(inURL: "https://ghp-token-99@git.test/"))
        #expect(token == ["ghp-token-99", Data("ghp-token-99:".utf8).base64EncodedString()])
    }

    @Test func secretQueryValuesCountAsWrittenAndDecodedButNotVariablesOrOtherParameters() {
        let found = SecretPolicy.credentials(inURL: "http://h/a?page=2&access_token=a%2Bb-123&api_key={{key}}&q=x")
        #expect(Set(found) == ["a%2Bb-123", "a+b-123"])
        #expect(SecretPolicy.credentials(inURL: "http://h/plain/path").isEmpty)
    }

    @Test func aBasicHeaderGivesItsDecodedPairAndPasswordToo() {
        let encoded = Data("bob:hunter-22".utf8).base64EncodedString()
        let found = Set(SecretPolicy.credentials(inHeader: "AUTHORIZATION", value: "Basic \(encoded)"))
        #expect(found == ["Basic \(encoded)", encoded, "bob:hunter-22", "hunter-22"])
        #expect(SecretPolicy.credentials(inHeader: "Accept", value: "Basic \(encoded)").isEmpty)
    }

    @Test func theRequestsSetHoldsHeadersURLQueryAndKnownSecrets() {
        var request = HTTPRequest(url: URL(string: "http://u:pw-5678@h.test/x?access_token=tok-1234")!,
                                  headers: ["X-Api-Key": "key-1234", "Accept": "text/plain"])
        request.knownSecrets = ["private-1234"]
        let set = request.secretValues
        for value in ["pw-5678", "tok-1234", "key-1234", "private-1234", Data("u:pw-5678".utf8).base64EncodedString()] {
            #expect(set.contains(value), "\(value)")
        }
        #expect(!set.contains("text/plain"))
    }

    @Test func secretNamesAreMatchedAsASCIIWithoutCase() {
        for name in ["AUTHORIZATION", "x-API-key", "My-Refresh-TOKEN", "COOKIE"] { #expect(SecretPolicy.isSecretHeader(name)) }
        for name in ["ACCESS_TOKEN", "Client_Secret", "apiKEY"] { #expect(SecretPolicy.isSecretParameter(name)) }
        for name in ["", "Accept", "tok", "Authorizatio"] { #expect(!SecretPolicy.isSecretHeader(name), "\(name)") }
        #expect(SecretPolicy.isURLHeader("LOCATION") && SecretPolicy.isURLHeader("Content-Location"))
        #expect(!SecretPolicy.isURLHeader("X-Location"))
    }

    @Test func aLocationsPasswordAndTokenAreMaskedWhateverTheRequestSent() {
        let headers: HTTPHeaders = ["Location": "http://eve:pw-9999@h.test/next?access_token=t-9999&page=1"]
        #expect(headers.redacted()["Location"] == "http://eve:REDACTED@h.test/next?access_token=REDACTED&page=1")
        #expect(headers.redacted(showSecrets: true) == headers)
        // A known secret elsewhere in the URL goes too, and the password still reads as `user:REDACTED`
        let known: HTTPHeaders = ["Content-Location": "http://eve:pw-9999@h.test/private-42/"]
        #expect(known.redacted(secrets: ["private-42", "eve:pw-9999"])["Content-Location"]
                == "http://eve:REDACTED@h.test/REDACTED/")
    }
}
