import CourierTestSupport
import Foundation
import Testing

/// `courier send` takes HTTPie's request items, and the server receives what they say.
@Suite("courier send with HTTPie request items")
struct SendRequestItemsTests {
    @Test func dataItemsMakeAJSONPostWithHeadersAndQueryParameters() async throws {
        // Given a loopback server, and files holding a text and a JSON value
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("send-items")
        try folder.write("bio.txt", "Countess")
        try folder.write("meta.json", "{\"langs\": [\"en\", \"fr\"]}\n")

        // When courier sends items without a method
        let result = try await CourierCLI.run(["send", "127.0.0.1:\(server.port)/users", "name=Ada", "age:=36",
                                               "admin:=true", "X-Trace:abc", "q==a b", "bio=@bio.txt",
                                               "meta:=@meta.json", #"odd\=name=x"#], in: folder.url)

        // Then the method is POST, the body a JSON object in the items' order, the header and query sent
        #expect(result.status == 0, "\(result.stderr)")
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.path == "/users")
        #expect(received.query == "q=a%20b")
        #expect(received.header("X-Trace") == "abc")
        #expect(received.header("Content-Type") == "application/json")
        #expect(received.header("Accept") == "application/json, */*;q=0.5")
        #expect(received.bodyText == #"{"name": "Ada", "age": 36, "admin": true, "bio": "Countess", "#
                + #""meta": {"langs": ["en", "fr"]}, "odd=name": "x"}"#)
    }

    @Test func aFormIsURLEncodedAndAFileItemMakesItMultipart() async throws {
        // Given a loopback server and a small PNG-named file
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("send-form")
        try folder.write("a.png", "PNGBYTES")
        let url = "http://127.0.0.1:\(server.port)/upload"

        // When a form is sent without a file, then with one
        let plain = try await CourierCLI.run(["send", "--form", url, "name=Ada Lovelace", "expr=a+b&c"], in: folder.url)
        let multipart = try await CourierCLI.run(["send", "-f", "PUT", url, "name=Ada", "photo@./a.png"], in: folder.url)

        // Then the first is urlencoded, the second multipart with the file's bytes and type
        #expect(plain.status == 0 && multipart.status == 0, "\(plain.stderr)\(multipart.stderr)")
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].method == "POST")
        #expect(requests[0].header("Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(requests[0].bodyText == "name=Ada+Lovelace&expr=a%2Bb%26c")
        #expect(requests[1].method == "PUT")
        let type = try #require(requests[1].header("Content-Type"))
        let boundary = try #require(type.components(separatedBy: "boundary=").last)
        #expect(type.hasPrefix("multipart/form-data; boundary="))
        #expect(requests[1].bodyText == "--\(boundary)\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n"
                + "Content-Type: image/png\r\n\r\nPNGBYTES\r\n--\(boundary)--\r\n")
    }

    @Test func aLowercaseWordBeforeItemsIsTheURLAndCurlStyleFlagsStillWork() async throws {
        // Given a loopback server
        let server = try CaptureServer()
        defer { server.stop() }

        // When the host comes first with an item after it (HTTPie would read 'localhost' as a method), and a
        // curl-style request with -H and -d
        let items = try await CourierCLI.run(["send", "localhost:\(server.port)/a", "X-One:1"])
        let curlStyle = try await CourierCLI.run(["send", "PATCH", "http://127.0.0.1:\(server.port)/b",
                                                  "-H", "X-Two: 2", "-d", "raw=1"])

        // Then both are sent as meant
        #expect(items.status == 0 && curlStyle.status == 0, "\(items.stderr)\(curlStyle.stderr)")
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].method == "GET" && requests[0].path == "/a" && requests[0].header("X-One") == "1")
        #expect(requests[1].method == "PATCH" && requests[1].header("X-Two") == "2" && requests[1].bodyText == "raw=1")
    }

    @Test(arguments: [
        (["photo@./a.png"], "Error: 'photo@./a.png' uploads a file, which needs --form (a multipart form)"),
        (["age:=three"], "Error: 'age:=three' is not JSON"),
        (["-d", "x", "name=Ada"], "Error: -d and data items (field=value) exclude each other"),
        (["--form", "age:=3"], "Error: 'age:=3' is raw JSON, which a form cannot carry; use age=VALUE"),
        (["plainword"], "Error: 'plainword' is not a request item"),
        (["bio=@/nonexistent/bio.txt"], "Error: cannot read the file '/nonexistent/bio.txt' of 'bio=@/nonexistent/bio.txt'"),
    ])
    func aWrongItemIsAUsageErrorThatSaysWhatToType(extra: [String], message: String) async throws {
        let result = try await CourierCLI.run(["send", "http://127.0.0.1:9/x"] + extra)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }
}
