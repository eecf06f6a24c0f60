import CHTTPParser
import Foundation
import Testing
@testable import CourierHTTP

/// The C glue `courier load`'s wire loop reads responses with (response.h over http-parser): what it makes of
/// each kind of response, fed in pieces as a socket would deliver them.
@Suite struct WireResponseTests {
    /// A parser fed `text` in pieces of `piece` bytes, and what it said after the last.
    final class Reader {
        let response = UnsafeMutablePointer<courier_wire_response>.allocate(capacity: 1)
        var fields: [(Int32, String)] = []
        var error = HPE_OK

        init(headOnly: Bool = false, limit: Int = 1 << 30, cookies: Bool = true) {
            response.initialize(to: courier_wire_response())
            response.pointee.head_only = headOnly ? 1 : 0
            response.pointee.limit = Int64(limit)
            response.pointee.wants_cookies = cookies ? 1 : 0
            response.pointee.userp = Unmanaged.passUnretained(self).toOpaque()
            response.pointee.header = { userp, kind, value, length in
                let reader = Unmanaged<Reader>.fromOpaque(userp!).takeUnretainedValue()
                let text = String(decoding: UnsafeRawBufferPointer(start: value, count: length), as: UTF8.self)
                reader.fields.append((kind, text))
            }
            courier_wire_response_init(response)
        }

        func feed(_ text: String, piece: Int = 1 << 20) {
            let bytes = Array(text.utf8)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + piece)
                error = bytes[start..<end].withUnsafeBytes { chunk in
                    courier_wire_response_feed(response, chunk.baseAddress!.assumingMemoryBound(to: CChar.self),
                                               chunk.count)
                }
                start = end
            }
        }

        func close() { error = courier_wire_response_feed(response, nil, 0) }

        var complete: Bool { response.pointee.complete != 0 }
        var keepAlive: Bool { response.pointee.keep_alive != 0 }

        deinit {
            courier_wire_response_free(response)
            response.deallocate()
        }
    }

    init() throws {
        try #require(courier_http_parser_load(),
                     "libhttp-parser2.9 is not installed: apt-get install libhttp-parser-dev")
    }

    @Test("A Content-Length body is counted, in one piece or byte by byte, and the connection stays open")
    func contentLength() {
        for piece in [1, 7, 1 << 20] {
            let reader = Reader()
            reader.feed("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world", piece: piece)
            #expect(reader.complete && reader.keepAlive && reader.response.pointee.status == 200)
            #expect(reader.response.pointee.body == 11 && reader.error == HPE_PAUSED)
        }
    }

    @Test("A chunked body counts its data, not its framing; the next response on the connection is read after it")
    func chunkedThenNext() {
        let reader = Reader()
        reader.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
                    piece: 3)
        #expect(reader.complete && reader.response.pointee.body == 11)

        courier_wire_response_next(reader.response)
        #expect(!reader.complete)
        reader.feed("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno")
        #expect(reader.complete && reader.response.pointee.status == 404 && reader.response.pointee.body == 2)
    }

    @Test("HEAD, 204 and 304 have no body whatever their head says")
    func noBody() {
        let head = Reader(headOnly: true)
        head.feed("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n")
        #expect(head.complete && head.response.pointee.body == 0 && head.keepAlive)
        for status in ["204 No Content", "304 Not Modified"] {
            let reader = Reader()
            reader.feed("HTTP/1.1 \(status)\r\nETag: \"x\"\r\n\r\n")
            #expect(reader.complete && reader.response.pointee.body == 0)
        }
    }

    @Test("Interim 1xx responses are skipped; the final one is what counts")
    func interim() {
        let reader = Reader()
        reader.feed("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n")
        #expect(!reader.complete)
        reader.feed("HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok")
        #expect(reader.complete && reader.response.pointee.status == 201 && reader.response.pointee.body == 2)
    }

    @Test("Connection: close, HTTP/1.0 and a body ended by the close say the connection is done")
    func closing() {
        let close = Reader()
        close.feed("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        #expect(close.complete && !close.keepAlive)

        let untilClose = Reader()
        untilClose.feed("HTTP/1.0 200 OK\r\n\r\nsome bytes")
        #expect(!untilClose.complete)
        untilClose.close()
        #expect(untilClose.complete && !untilClose.keepAlive && untilClose.response.pointee.body == 10)
    }

    @Test("A response cut short is not complete; a body past the limit stops the parser; garbage is an error")
    func failures() {
        let cut = Reader()
        cut.feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
        cut.close()
        #expect(!cut.complete)

        let large = Reader(limit: 4)
        large.feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789")
        #expect(!large.complete && large.response.pointee.exceeded == 1 && large.error != HPE_OK)

        let garbage = Reader()
        garbage.feed("SSH-2.0-OpenSSH\r\n\r\n")
        #expect(!garbage.complete && garbage.error != HPE_OK && garbage.error != HPE_PAUSED)
    }

    @Test("Set-Cookie and Location reach Swift whole, however the bytes were split; other fields do not")
    func keptFields() {
        let reader = Reader()
        reader.feed("HTTP/1.1 302 Found\r\nLocation: /next?a=1\r\nX-Long-Field-Name: v\r\nset-cookie: s=1; Path=/\r\n"
                    + "Set-Cookie: t=2\r\nContent-Length: 0\r\n\r\n", piece: 2)
        #expect(reader.complete && reader.response.pointee.status == 302)
        #expect(reader.fields.map(\.1) == ["/next?a=1", "s=1; Path=/", "t=2"], "\(reader.fields)")

        let noJar = Reader(cookies: false)
        noJar.feed("HTTP/1.1 200 OK\r\nSet-Cookie: s=1\r\nContent-Length: 0\r\n\r\n")
        #expect(noJar.fields.isEmpty)
    }

    @Test("Only a complete HTTP/1.1 head without Expect is written again; only plain HTTP without a proxy")
    func eligibility() throws {
        let head = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(WireRepeater.sendable(head) == Array(head.utf8))
        #expect(WireRepeater.sendable("GET / HTTP/1.1\r\nHost: a\r\n") == nil)
        #expect(WireRepeater.sendable("GET / HTTP/2\r\nHost: a\r\n\r\n") == nil)
        #expect(WireRepeater.sendable("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n") == nil)

        let plain = HTTPRequest(url: try #require(URL(string: "http://127.0.0.1:1/x")))
        let tls = HTTPRequest(url: try #require(URL(string: "https://127.0.0.1:1/x")))
        #expect(WireRepeater.allowed(plain, environment: [:]))
        #expect(!WireRepeater.allowed(tls, environment: [:]))
        #expect(!WireRepeater.allowed(plain, environment: ["http_proxy": "http://proxy:3128"]))
        #expect(!WireRepeater.allowed(plain, environment: ["ALL_PROXY": "socks5://proxy"]))
        #expect(!WireRepeater.allowed(plain, environment: ["COURIER_LOAD_WIRE": "off"]))
    }
}
