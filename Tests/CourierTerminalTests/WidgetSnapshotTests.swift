import Testing
import CourierTerminal

@Suite struct WidgetSnapshotTests {
    @Test func blockDrawsBoxDrawingBordersWithLeftAndRightTitles() {
        var buffer = Buffer(size: Size(width: 30, height: 4))
        Block(title: "Request", rightTitle: "LIVE").render(into: &buffer, area: buffer.area)
        expectSnapshot(buffer, named: "block-titles")
    }

    @Test func aTitleTooLongForTheBlockIsCutAndTheRightTitleDropped() {
        var buffer = Buffer(size: Size(width: 14, height: 3))
        Block(title: "A very long title indeed", rightTitle: "R").render(into: &buffer, area: buffer.area)
        #expect(buffer.lines()[0] == "┌─ A very … ─┐")
    }

    @Test func listScrollsSoTheSelectionIsVisible() {
        // Given 20 items and the 15th selected in a 5-row view
        let items = (1...20).map { StyledLine("item \($0)") }
        let state = ListState(selected: 14, offset: 0)
        var buffer = Buffer(size: Size(width: 16, height: 5))
        // When the list is drawn
        ListView(items, marker: "▶ ").render(into: &buffer, area: buffer.area, state: state)
        // Then the selection sits on the last visible row
        expectSnapshot(buffer, named: "list-scrolled")
        #expect(state.visibleOffset(height: 5, count: 20) == 10)
    }

    @Test func listStateMovesAndClampsTheSelection() {
        var state = ListState()
        state.move(by: 1, count: 3)
        #expect(state.selected == 0)
        state.move(by: 10, count: 3)
        #expect(state.selected == 2)
        state.move(by: -1, count: 3)
        #expect(state.selected == 1)
        state.select(nil, count: 3)
        #expect(state.selected == nil)
        state.move(by: -1, count: 3)
        #expect(state.selected == 2)
        state.move(by: 1, count: 0)
        #expect(state.selected == nil)
    }

    @Test func textViewAsksOnlyForTheLinesItShows() {
        // Given a provider of a million lines that counts its calls
        final class Counter { var asked: [Int] = [] }
        let counter = Counter()
        let view = TextView(lineCount: 1_000_000, lineNumbers: true) { index in
            counter.asked.append(index)
            return StyledLine("line \(index + 1) of a very large body")
        }
        var buffer = Buffer(size: Size(width: 30, height: 4))
        // When it is drawn scrolled to line 500,000
        view.render(into: &buffer, area: buffer.area, state: TextViewState(top: 499_999))
        // Then only four lines were asked for
        #expect(counter.asked == [499_999, 500_000, 500_001, 500_002])
        expectSnapshot(buffer, named: "textview-virtualised")
    }

    @Test func textViewScrollsSidewaysAndWraps() {
        let lines: [StyledLine] = ["0123456789abcdefghij", "日本語のテキスト", "short"]
        var scrolled = Buffer(size: Size(width: 8, height: 3))
        TextView(lines: lines).render(into: &scrolled, area: scrolled.area, state: TextViewState(left: 3))
        #expect(scrolled.lines() == ["3456789a", " 語のテ", "rt"])
        var wrapped = Buffer(size: Size(width: 8, height: 6))
        TextView(lines: lines).render(into: &wrapped, area: wrapped.area, state: TextViewState(wrap: true))
        expectSnapshot(wrapped, named: "textview-wrapped")
    }

    @Test func tabsHighlightTheSelectedTitleAndMapClicks() {
        var buffer = Buffer(size: Size(width: 40, height: 1))
        let tabs = Tabs(["Query", "Headers", "Body"], selected: 1)
        tabs.render(into: &buffer, area: buffer.area)
        #expect(buffer.lines() == [" Query │ Headers │ Body"])
        #expect(buffer[9, 0].style.attributes.contains(.reverse))
        #expect(tabs.index(atColumn: 10, area: buffer.area) == 1)
        #expect(tabs.index(atColumn: 20, area: buffer.area) == 2)
    }

    @Test func statusBarDropsHintsThatDoNotFitWhole() {
        var buffer = Buffer(size: Size(width: 40, height: 1))
        let bar = StatusBar(hints: [KeyHint("Enter", "send"), KeyHint("Tab", "next pane"), KeyHint("?", "help"),
                                    KeyHint("q", "quit")], message: "200 OK")
        bar.render(into: &buffer, area: buffer.area)
        expectSnapshot(buffer, named: "statusbar")
    }

    @Test func textInputScrollsToKeepTheCursorVisible() {
        var editor = LineEditor("https://example.com/a/very/long/path")
        editor.moveEnd()
        var buffer = Buffer(size: Size(width: 12, height: 1))
        let cursor = TextInput(editor).render(into: &buffer, area: buffer.area)
        #expect(buffer.lines() == ["y/long/path"])
        #expect(cursor == Position(x: 11, y: 0))
        editor.moveHome()
        let home = TextInput(editor).render(into: &buffer, area: buffer.area)
        #expect(buffer.lines() == ["https://exam"])
        #expect(home == Position(x: 0, y: 0))
    }

    @Test func textInputShowsPlaceholderAndMasks() {
        var buffer = Buffer(size: Size(width: 12, height: 1))
        TextInput(LineEditor(), placeholder: "URL").render(into: &buffer, area: buffer.area)
        #expect(buffer.lines() == ["URL"])
        TextInput(LineEditor("secret"), mask: "•").render(into: &buffer, area: buffer.area)
        #expect(buffer.lines() == ["••••••"])
    }

    @Test func aTextAreaScrollsOnlyTheCursorsLineSidewaysAndStylesWhatShows() {
        // Given two long lines, the cursor at the end of the second, and a styler that marks each line
        let lines = [Array("first line is long"), Array("second line is long")]
        var buffer = Buffer(size: Size(width: 10, height: 2))
        let area = TextArea(lines: lines, row: 1, column: 19) { StyledLine("|" + $0) }
        // When it is drawn
        let cursor = area.render(into: &buffer, area: buffer.area)
        // Then the first line starts at its start, the second shows its end with room for the cursor
        #expect(buffer.lines() == ["|first lin", "|e is long"])
        #expect(cursor == Position(x: 9, y: 1))
        // And without the cursor both start at their start
        TextArea(lines: lines, row: 1, column: 19, showsCursor: false).render(into: &buffer, area: buffer.area)
        #expect(buffer.lines() == ["first line", "second lin"])
    }

    @Test func modalIsCentredAndClearsWhatIsUnder() {
        var buffer = Buffer(size: Size(width: 30, height: 9), fill: Cell("."))
        let inner = Modal(title: "Quit?", size: Size(width: 20, height: 5))
            .render(into: &buffer, screen: buffer.area)
        buffer.writeCentered("unsaved edits", in: inner)
        expectSnapshot(buffer, named: "modal")
    }

    @Test func sparklineScalesToTheLargestValue() {
        #expect(Sparkline([1, 2, 4, 8]).text(width: 10) == "▁▂▄█")
        #expect(Sparkline([0, 0]).text(width: 10) == "▁▁")
        #expect(Sparkline([1, 2, 3, 8]).text(width: 2) == "▃█")
    }

    @Test func segmentBarPlacesPhasesOnACommonScaleAndKeepsTinyPhasesVisible() {
        let bar = SegmentBar([
            .init(start: 0, length: 0.001, style: .plain),
            .init(start: 0.001, length: 0.049, style: .plain),
            .init(start: 0.05, length: 0.05, style: .plain),
        ], scale: 0.2)
        #expect(bar.columns(width: 20) == [0..<1, 1..<5, 5..<10])
    }
}
