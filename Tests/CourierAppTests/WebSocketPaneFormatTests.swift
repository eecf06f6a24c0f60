@testable import CourierApp
import CourierTerminal
import Foundation
import Testing

/// The WebSocket pane lays JSON out with the Response pane's engine and colours it with the theme's roles.
@Suite struct WebSocketPaneFormatTests {
    let theme = Theme.dark

    @Test func aMessageIsLaidOutAsTheResponsePaneLaysItOutAndColouredByRole() {
        // Given a JSON message
        let message = #"{"id":7,"tags":["a"],"ok":true,"empty":{}}"#
        // When it is laid out in lines
        let lines = WebSocketPaneFormat.prettyJSON(message, theme: theme, limit: 10)
        // Then the lines are the engine's, with keys, numbers and literals in their theme styles
        #expect(lines.map(\.plainText) == ["{", #"  "id": 7,"#, #"  "tags": ["#, #"    "a""#, "  ],",
                                           #"  "ok": true,"#, #"  "empty": {}"#, "}"])
        #expect(lines[1].spans.first { $0.text == #""id""# }?.style == theme.jsonKey)
        #expect(lines[1].spans.first { $0.text == "7" }?.style == theme.jsonNumber)
        #expect(lines[5].spans.first { $0.text == "true" }?.style == theme.jsonLiteral)
        #expect(WebSocketPaneFormat.prettyJSON(message, theme: theme, limit: 3).count == 3)
    }

    @Test func oneLineKeepsTheTokensWithCommaAndColonSpacing() {
        let line = WebSocketPaneFormat.prettyJSON(#"{"a":[1,2],"b":"x"}"#, theme: theme, limit: 1, oneLine: true)
        #expect(line.map(\.plainText) == [#"{"a": [1, 2], "b": "x"}"#])
    }

    @Test func theEndOfALongMessageCutForTheRowIsPlainTextNotAnError() throws {
        // Given a message whose one string runs past what a row can show
        let message = #"{"data":""# + String(repeating: "x", count: 2_000) + #""}"#
        // When it is laid out on one line
        let line = try #require(WebSocketPaneFormat.prettyJSON(message, theme: theme, limit: 1, oneLine: true).first)
        // Then the key is coloured and the cut string is shown in the text style
        #expect(line.plainText.hasPrefix(#"{"data": "xxxx"#))
        #expect(line.spans.first { $0.text == #""data""# }?.style == theme.jsonKey)
        #expect(line.spans.last?.style == theme.text)
    }
}
