import CourierMessage
import Foundation
import Testing
@testable import CourierHTTP

/// AWS Signature Version 4 as the published test suite signs it (`Fixtures/sigv4-vectors.json`), and what
/// the signer adds: the date, the session token, the payload hash for S3, and curl's `--aws-sigv4` spelling.
struct AWSSigV4SignerTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        var name: String
        var method: String
        var url: String
        var headers: [[String]]
        var body: String
        var authorization: String
        var sessionToken: String?
        var testDescription: String { name }
    }

    struct Vectors: Decodable { var vectors: [Vector] }

    static let vectors: [Vector] = {
        guard let url = Bundle.module.url(forResource: "Fixtures/sigv4-vectors", withExtension: "json"),
              let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode(Vectors.self, from: data).vectors) ?? []
    }()

    /// 2015-08-30T12:36:00Z, the test suite's time.
    static let suiteDate = Date(timeIntervalSince1970: 1_440_938_160)

    @Test func theFixturesAreThere() {
        #expect(Self.vectors.count == 16)
    }

    @Test(arguments: vectors)
    func eachPublishedVectorSignsToItsAuthorization(_ vector: Vector) throws {
        // Given the suite's request, key and time
        var request = HTTPRequest(method: HTTPMethod(rawValue: vector.method), url: try #require(URL(string: vector.url)),
                                  headers: HTTPHeaders(vector.headers.map { ($0[0], $0[1]) }),
                                  body: vector.body.isEmpty ? .empty : .data(Data(vector.body.utf8)))
        request.awsSigV4 = AWSSigV4Configuration(accessKey: "AKIDEXAMPLE",
                                                 secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                                 region: "us-east-1", service: "service", sessionToken: vector.sessionToken)
        // When it is signed
        let signed = try AWSSigV4Signer.sign(request, with: try #require(request.awsSigV4), at: Self.suiteDate)
        // Then the Authorization header is the suite's, and the date and token are sent
        #expect(signed.headers["Authorization"] == vector.authorization)
        #expect(signed.headers["X-Amz-Date"] == "20150830T123600Z")
        #expect(signed.headers["X-Amz-Security-Token"] == vector.sessionToken)
    }

    @Test func curlsSpellingNamesTheRegionAndService() {
        let parsed = AWSSigV4Configuration.parse("aws:amz:eu-west-1:execute-api", accessKey: "AK", secretKey: "SK")
        #expect(parsed?.region == "eu-west-1" && parsed?.service == "execute-api")
        #expect(AWSSigV4Configuration.parse("aws:amz", accessKey: "AK", secretKey: "SK") == nil)
        #expect(AWSSigV4Configuration.parse("aws:amz:eu-west-1", accessKey: "AK", secretKey: "SK") == nil)
    }

    @Test func s3GetsThePayloadHashAsAHeaderAndItsPathAsSent() throws {
        // Given an S3 PUT of a body to a path that needed encoding
        var request = HTTPRequest(method: .put, url: try #require(URL(string: "https://bucket.s3.amazonaws.com/a%20b.txt")),
                                  body: .data(Data("hello".utf8)))
        let configuration = AWSSigV4Configuration(accessKey: "AK", secretKey: "SK", region: "us-east-1", service: "s3")
        request.awsSigV4 = configuration
        let signed = try AWSSigV4Signer.sign(request, with: configuration, at: Self.suiteDate)
        // Then the body's SHA-256 is sent and signed, and the path is signed encoded once
        #expect(signed.headers["X-Amz-Content-Sha256"] == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
        #expect(signed.headers["Authorization"]?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date,") == true)
        let canonical = AWSSigV4Signer.canonicalRequest(signed, payloadHash: "x", service: "s3").text
        #expect(canonical.hasPrefix("PUT\n/a%20b.txt\n\n"), "\(canonical)")
        let other = AWSSigV4Signer.canonicalRequest(signed, payloadHash: "x", service: "execute-api").text
        #expect(other.hasPrefix("PUT\n/a%2520b.txt\n\n"), "\(other)")
    }
}
