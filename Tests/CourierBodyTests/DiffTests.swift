import Testing
@testable import CourierBody

@Suite struct DiffTests {
    @Test func aChangedValueIsOneHunkWithContextAndTheChangedWordMarked() {
        let old = ["{", #"  "id": 1,"#, #"  "name": "Ada","#, #"  "age": 36"#, "}"]
        let new = ["{", #"  "id": 1,"#, #"  "name": "Ada","#, #"  "age": 37"#, "}"]
        let hunks = LineDiff.hunks(old: old, new: new, context: 1)
        #expect(LineDiff.unified(hunks) == ["@@ -3,3 +3,3 @@", #"   "name": "Ada","#, #"-  "age": 36"#, #"+  "age": 37"#, " }"])
        let removed = hunks[0].lines[1], added = hunks[0].lines[2]
        #expect(removed.changes == [9..<11])
        #expect(added.changes == [9..<11])
    }

    @Test func identicalTextsHaveNoHunks() {
        #expect(LineDiff.hunks(old: ["a", "b"], new: ["a", "b"]).isEmpty)
    }

    @Test func insertionsAndDeletionsAreFoundWithMinimalEdits() {
        let old = ["a", "b", "c", "d", "e", "f"]
        let new = ["a", "c", "d", "x", "e", "f", "g"]
        let unified = LineDiff.unified(LineDiff.hunks(old: old, new: new, context: 0))
        #expect(unified == ["@@ -2,1 +2,0 @@", "-b", "@@ -5,0 +4,1 @@", "+x", "@@ -7,0 +7,1 @@", "+g"])
    }

    @Test func aWhollyDifferentTextIsAllRemovedThenAllAdded() {
        let unified = LineDiff.unified(LineDiff.hunks(old: ["a", "b"], new: ["c"]))
        #expect(unified == ["@@ -1,2 +1,1 @@", "-a", "-b", "+c"])
    }

    @Test func wholeTextLinesKeepCommonLinesAndOrderRemovalsFirst() {
        // Given two texts with one changed line and one appended
        // When every line is listed
        let lines = LineDiff.lines(old: ["a", "b", "c"], new: ["a", "x", "c", "d"])
        // Then common lines are kept and a removal comes before its replacement
        #expect(lines.map { "\($0.kind) \($0.text)" } == ["context a", "removed b", "added x", "context c", "added d"])
        #expect(LineDiff.lines(old: ["same"], new: ["same"]).allSatisfy { $0.kind == .context })
    }

    @Test func sideBySideRowsPairRemovedWithAddedLines() {
        let hunk = LineDiff.hunks(old: ["same", "old one", "old two"], new: ["same", "new one"])[0]
        let rows = LineDiff.sideBySide(hunk)
        #expect(rows.map { [$0.left?.text ?? "", $0.right?.text ?? ""] } == [["same", "same"], ["old one", "new one"], ["old two", ""]])
    }

    @Test func largeTextsWithOneChangeDiffThroughPrefixAndSuffixTrimming() {
        let old = (0..<200_000).map { "line \($0)" }
        var new = old
        new[100_000] = "changed"
        let hunks = LineDiff.hunks(old: old, new: new)
        #expect(hunks.count == 1)
        #expect(hunks[0].oldStart == 99_997)
    }

    @Test func headerListsDiffByNameIgnoringCase() {
        let diff = HeaderDiff(old: [("Content-Type", "application/json"), ("ETag", "\"1\""), ("X-Old", "y")],
                              new: [("content-type", "application/json"), ("ETag", "\"2\""), ("X-New", "z")])
        #expect(diff.lines == [#"~ ETag: "1" → "2""#, "+ X-New: z", "- X-Old: y"])
        #expect(diff.unchanged == ["content-type"])
    }
}
