import CourierBody
import CourierTerminal
import Foundation
import Testing
@testable import CourierApp

/// HTTP/2 responses carry no reason phrase: the response pane shows the bare status, never a
/// status followed by a dangling space.
@Suite struct ResponsePaneHTTP2Tests {
    private func pane(status: Int, reason: String, body: String = #"{"ok":true}"#) -> ResponsePaneState {
        let info = ResponsePaneInfo(status: status, reason: reason, duration: 0.042, cacheDecision: "miss",
                                    headers: [.init("content-type", "application/json")])
        var pane = ResponsePaneState(info: info, body: BodyDocument(data: Data(body.utf8)))
        pane.pageSize = 6
        return pane
    }

    @Test("A status without a reason phrase is shown as the bare number before the timing")
    func statusLineWithoutReason() {
        // Given an HTTP/2 response (no reason phrase)
        let state = pane(status: 200, reason: "")

        // When the pane is drawn
        var buffer = Buffer(size: Size(width: 44, height: 11))
        ResponsePaneView.draw(ShownResponse(state), RenderContext(area: Rect(x: 0, y: 0, width: 44, height: 11)),
                              into: &buffer)

        // Then the status row reads "200 · 42 ms", with one space before the separator
        #expect(buffer.lines()[1].hasPrefix("│200 · 42 ms · 11 B · miss"))
    }

    @Test("The diff between HTTP/2 responses names the statuses without dangling spaces")
    func diffWithoutReasons() {
        // Given two HTTP/2 responses with different statuses, and two with the same one
        let previous = pane(status: 200, reason: "", body: #"{"id":1}"#)
        var changed = pane(status: 201, reason: "", body: #"{"id":1}"#)
        var same = pane(status: 200, reason: "", body: #"{"id":1}"#)

        // When each is compared with the previous one
        _ = changed.handle(.toggleDiff)
        changed.compare(with: previous)
        _ = same.handle(.toggleDiff)
        same.compare(with: previous)

        // Then the status lines read "200 → 201" and "200 (unchanged)"
        #expect(ResponsePaneInfo(status: 201, reason: "").statusText == "201")
        #expect(ResponsePaneInfo(status: 201, reason: "Created").statusText == "201 Created")
        #expect(rows(changed).first == "status: 200 → 201")
        #expect(rows(same).first == "status: 200 (unchanged)")
    }

    /// The body rows of the pane drawn 50 columns wide, without the border and trailing blanks.
    private func rows(_ state: ResponsePaneState) -> [String] {
        var buffer = Buffer(size: Size(width: 50, height: 14))
        ResponsePaneView.draw(ShownResponse(state), RenderContext(area: Rect(x: 0, y: 0, width: 50, height: 14)),
                              into: &buffer)
        return buffer.lines().dropFirst(3).dropLast(2).map { row in
            var text = String(row.dropFirst())
            if text.hasSuffix("│") { text.removeLast() }
            while text.last == " " { text.removeLast() }
            return text
        }
    }
}
