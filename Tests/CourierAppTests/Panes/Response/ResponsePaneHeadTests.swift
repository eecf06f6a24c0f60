import CourierBody
import CourierHTTP
import CourierMessage
import CourierTerminal
import Foundation
import Testing
@testable import CourierApp

/// The response pane shows the head the response carries: one value from the transport to the status line.
struct ResponsePaneHeadTests {
    @Test func thePaneHoldsTheResponsesHeadAndShowsItsStatusLine() throws {
        // Given a response whose head has a reason phrase and headers
        let head = ResponseHead(version: "HTTP/1.1", status: 418, reason: "I'm a teapot",
                                headers: [.init("Content-Type", "text/plain")])
        let response = HTTPResponse(head: head, body: .data(Data("short and stout".utf8)),
                                    url: try #require(URL(string: "http://127.0.0.1/teapot")))
        // When the pane is made from it and drawn
        let pane = try #require(ResponseFormatter.pane(response))
        var buffer = Buffer(size: Size(width: 80, height: 8))
        ResponsePaneView.draw(ShownResponse(pane), RenderContext(area: Rect(x: 0, y: 0, width: 80, height: 8)),
                              into: &buffer)
        // Then the pane holds that head and its status line reads it
        #expect(pane.info.head == head && pane.info.contentType == "text/plain")
        #expect(buffer.lines().contains { $0.contains("418 I'm a teapot") }, "\(buffer.lines())")
    }
}
