import CourierApp
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// Every pane, focused in turn, at the sizes people use: a golden screen each, and a check that every
/// pane on screen has the one frame style and that no text runs into a border.
@Suite("screens: every pane at 80×24, 120×40 and 200×60")
struct PaneFrameSnapshotTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 60)]
    static let noon = Date(timeIntervalSince1970: 1_700_000_000)

    /// "List users" sent and answered through the response pane, with a retried attempt in the log.
    static func answered(size: Size) throws -> AppState {
        var state = Fixtures.editing(size: size)
        state.timeZone = TimeZone(identifier: "UTC")!
        state.clock = { noon }
        state.press(Key(.enter))
        let id = RequestID(41)
        let url = URL(string: "http://127.0.0.1:8088/users?page=1")!
        _ = update(&state, .clientEvent(.attemptStarted(id, attempt: 1, method: .get, url: url, headers: [:], at: noon)))
        _ = update(&state, .clientEvent(.attemptFinished(id, attempt: 1, outcome: .response(status: 503, headers: [:]),
                                                         timing: Timing(total: .milliseconds(12)))))
        _ = update(&state, .clientEvent(.retryScheduled(id, attempt: 1, reason: "503 Service Unavailable",
                                                        delay: .seconds(1))))
        _ = update(&state, .clientEvent(.attemptStarted(id, attempt: 2, method: .get, url: url, headers: [:], at: noon)))
        _ = update(&state, .clientEvent(.attemptFinished(id, attempt: 2, outcome: .response(status: 200, headers: [:]),
                                                         timing: Timing(total: .microseconds(8_730)))))
        let body = #"{"data":[{"id":1,"name":"Ada Lovelace","email":"ada@example.com","active":true,"tags":["math","engines"]}],"total":1}"#
        let response = HTTPResponse(status: 200, reason: "OK", headers: ["Content-Type": "application/json"],
                                    body: .data(Data(body.utf8)), url: url, timing: Timing(total: .microseconds(8_730)))
        _ = update(&state, .responsePaneReady(generation: state.generation, try #require(ResponseFormatter.pane(response))))
        state.inFlight = nil
        return state
    }

    /// Problems with the frame of the pane in `rect`: a border cell that is not a border character
    /// (text ran into it), or a title that reaches the corner.
    static func frameProblems(_ lines: [[String]], rect: Rect, focused: Bool) -> [String] {
        let (h, v) = focused ? ("━", "┃") : ("─", "│")
        let corners = focused ? ["┏", "┓", "┗", "┛"] : ["╭", "╮", "╰", "╯"]
        var problems: [String] = []
        func cell(_ x: Int, _ y: Int) -> String { lines[y][x] }
        let (left, right, top, bottom) = (rect.x, rect.maxX - 1, rect.y, rect.maxY - 1)
        for (x, y, expected) in [(left, top, corners[0]), (right, top, corners[1]), (left, bottom, corners[2]),
                                 (right, bottom, corners[3])] where cell(x, y) != expected {
            problems.append("corner at \(x),\(y) is '\(cell(x, y))', not '\(expected)'")
        }
        for y in (top + 1)..<bottom {
            if cell(left, y) != v { problems.append("left edge at row \(y) is '\(cell(left, y))'") }
            if cell(right, y) != v { problems.append("right edge at row \(y) is '\(cell(right, y))'") }
        }
        for x in (left + 1)..<right where cell(x, bottom) != h {
            problems.append("bottom edge at column \(x) is '\(cell(x, bottom))'")
        }
        // The title starts after `╭─` and always leaves `─╮` before the corner.
        if cell(left + 1, top) != h || cell(right - 1, top) != h {
            problems.append("the title runs into a corner: \(lines[top][left...right].joined())")
        }
        // A pane's number is in its title: `╭─ 3 Response`.
        if !lines[top][left...right].joined().contains(where: \.isNumber) {
            problems.append("no pane number in \(lines[top][left...right].joined())")
        }
        return problems
    }

    @Test("The cells drawn carry the theme's colours: the focused border and a 2xx status")
    func cellsCarryTheThemesColours() throws {
        let state = try Self.answered(size: Size(width: 120, height: 40))
        let (buffer, _) = Screen.render(state)
        let focused = try #require(state.layout.panes[state.focus])
        #expect(buffer[focused.x, focused.y].style == state.theme.borderFocused)
        #expect(buffer[focused.x, focused.y].grapheme == "┏")
        let response = try #require(state.layout.panes[.response])
        let row = response.y + 1
        let text = (response.x..<response.maxX).map { buffer[$0, row].grapheme }.joined()
        let column = try #require(text.range(of: "200").map { text.distance(from: text.startIndex, to: $0.lowerBound) })
        #expect(buffer[response.x + column, row].style.foreground == state.theme.status(200).foreground)
        #expect(state.theme.status(200).foreground != state.theme.text.foreground)
    }

    @Test("Each pane focused at each size: the golden screen, one frame style, nothing across a border",
          arguments: sizes)
    func everyPaneAtEverySize(size: Size) throws {
        var state = try Self.answered(size: size)
        for pane in PaneID.allCases {
            state.press(.char(Character(String(pane.rawValue))))
            let name = "pane-\(pane.title.lowercased())-\(size.width)x\(size.height)"
            Snapshot.assert(state, named: name)
            let backend = TestBackend(size: size)
            let (buffer, cursor) = Screen.render(state)
            backend.draw(buffer, cursor: cursor)
            let frame = backend.frame
            let cells = (0..<size.height).map { y in (0..<size.width).map { x in frame[x, y].isContinuation ? "" : frame[x, y].grapheme } }
            for (shown, rect) in state.layout.panes {
                let problems = Self.frameProblems(cells, rect: rect, focused: shown == state.focus)
                #expect(problems.isEmpty, "\(name), \(shown): \(problems.prefix(3))\n\(backend.lines.joined(separator: "\n"))")
            }
        }
    }
}
