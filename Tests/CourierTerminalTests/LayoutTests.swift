import Testing
import CourierTerminal

@Suite struct LayoutTests {
    @Test func fixedLengthsAndOneFillShareTheHeightExactly() {
        // Given a 24-row screen with a title bar, a body and a status bar
        let screen = Rect(x: 0, y: 0, width: 80, height: 24)
        // When it is split vertically
        let parts = screen.split(.vertical, [.length(1), .fill(1), .length(1)])
        // Then the fill takes what the fixed parts leave, and the parts tile the screen
        #expect(parts.map(\.height) == [1, 22, 1])
        #expect(parts.map(\.y) == [0, 1, 23])
        #expect(parts.allSatisfy { $0.width == 80 })
    }

    @Test func percentagesAreOfTheWholeAndFillsSplitTheRestByWeight() {
        let sizes = Layout.sizes([.percentage(25), .fill(1), .fill(2)], extent: 100)
        #expect(sizes == [25, 25, 50])
    }

    @Test func minimumPartsGrowEvenlyWhenNoFillIsPresent() {
        let sizes = Layout.sizes([.min(10), .length(5), .min(10)], extent: 40)
        #expect(sizes == [18, 5, 17])
    }

    @Test func maximumPartsTakeUpToTheirLimit() {
        let sizes = Layout.sizes([.max(10), .length(5)], extent: 40)
        #expect(sizes == [10, 5])
        #expect(Layout.sizes([.max(50), .length(5)], extent: 40) == [35, 5])
    }

    @Test func whenSpaceRunsShortTheLastPartsShrinkFirstAndNothingOverflows() {
        // Given more fixed rows than a tiny terminal has
        let sizes = Layout.sizes([.length(3), .length(10), .length(10)], extent: 15)
        // Then the first part keeps its size and the total fits
        #expect(sizes == [3, 10, 2])
        #expect(Layout.sizes([.length(5)], extent: 0) == [0])
    }

    @Test func spacingIsLeftBetweenPartsHorizontally() {
        let parts = Rect(x: 2, y: 1, width: 21, height: 5).split(.horizontal, [.fill(1), .fill(1)], spacing: 1)
        #expect(parts == [Rect(x: 2, y: 1, width: 10, height: 5), Rect(x: 13, y: 1, width: 10, height: 5)])
    }

    @Test func centeredRectanglesAreClippedToTheOuterOne() {
        let outer = Rect(x: 0, y: 0, width: 20, height: 10)
        #expect(outer.centered(Size(width: 10, height: 4)) == Rect(x: 5, y: 3, width: 10, height: 4))
        #expect(outer.centered(Size(width: 30, height: 40)) == outer)
    }
}
