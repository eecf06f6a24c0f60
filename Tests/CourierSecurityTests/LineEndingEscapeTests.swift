import Testing
@testable import CourierSecurity

/// CRLF is a line ending, kept with the layout; a carriage return anywhere else can overwrite what a line shows,
/// and is escaped.
@Suite struct LineEndingEscapeTests {
    @Test func crlfStaysAndALoneCarriageReturnIsEscaped() {
        #expect(Sanitizer.escaped("a\r\nb") == "a\r\nb")
        #expect(Sanitizer.escaped("a\r\n\r\nb\r\n") == "a\r\n\r\nb\r\n")
        #expect(Sanitizer.escaped("ok\rFAILED") == "ok\\x0DFAILED")
        #expect(Sanitizer.escaped("end\r") == "end\\x0D")
        #expect(Sanitizer.escaped("\r\r\n") == "\\x0D\r\n")
        #expect(Sanitizer.escaped("a\r\u{1B}[2J\r\n") == "a\\x0D\\x1B[2J\r\n")
        // A single-line field keeps no layout: both are escaped
        #expect(Sanitizer.escaped("a\r\nb", keepingLayout: false) == "a\\x0D\\x0Ab")
        // The bytes written in place read the same
        var bytes = Array("x".utf8)
        bytes += Array("one\r\ntwo\rthree".utf8)
        Sanitizer.escape(&bytes, from: 1)
        #expect(String(decoding: bytes, as: UTF8.self) == "xone\r\ntwo\\x0Dthree")
    }
}
