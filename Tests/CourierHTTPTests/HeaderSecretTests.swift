import CourierMessage
import Testing
@testable import CourierHTTP

/// A header list applies the secret policy (tested in CourierSecurityTests) to its own fields.
struct HeaderSecretTests {
    @Test func aHeaderListsCredentialValuesAreFoundAndMaskedWhereverTheyAppear() {
        let headers: HTTPHeaders = ["Authorization": "Bearer tok-999", "Cookie": "a=ck-1; b=ck-2", "X-Note": "tok-999"]
        #expect(Set(headers.secretValues).isSuperset(of: ["tok-999", "ck-1", "ck-2"]))
        #expect(headers.redacted(secrets: headers.secretValues)["X-Note"] == "REDACTED")
    }
}
