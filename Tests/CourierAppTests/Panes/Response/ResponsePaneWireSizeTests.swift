import CourierBody
import CourierTerminal
import Foundation
import Testing
@testable import CourierApp

/// A body that came compressed shows its decoded size with its size on the wire in the status line.
struct ResponsePaneWireSizeTests {
    @Test func theStatusLineShowsTheDecodedAndTheWireSize() {
        // Given a 3,000-byte JSON body that crossed the network as 300 bytes of gzip
        let body = "[" + Array(repeating: "1", count: 1500).joined(separator: ",") + "]"
        let info = ResponsePaneInfo(status: 200, reason: "OK", headers: [.init("Content-Encoding", "gzip")], wireBytes: 300)
        let pane = ResponsePaneState(info: info, body: BodyDocument(data: Data(body.utf8)))
        // When the pane is drawn
        var buffer = Buffer(size: Size(width: 80, height: 8))
        ResponsePaneView.draw(ShownResponse(pane), RenderContext(area: Rect(x: 0, y: 0, width: 80, height: 8)),
                              into: &buffer)
        // Then its status line gives both sizes, and the body is text, not a binary summary
        let status = buffer.lines().first { $0.contains("200 OK") } ?? ""
        #expect(status.contains("2.9 KB, 300 B on the wire"), "\(status)")
        #expect(!buffer.lines().joined().contains("binary"))
    }
}
