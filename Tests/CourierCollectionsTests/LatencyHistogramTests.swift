import Testing
@testable import CourierCollections

/// `LatencyHistogram`: its percentiles against the exact ones of a sorted list.
struct LatencyHistogramTests {
    /// The nearest-rank percentile of a sorted list: what the histogram approximates.
    private func exact(_ sorted: [UInt64], _ percent: Double) -> UInt64 {
        let rank = max(1, Int((percent / 100 * Double(sorted.count)).rounded(.up)))
        return sorted[rank - 1]
    }

    @Test func percentilesAreWithinOnePercentOfTheSortedList() {
        // Given latencies from 50 µs to a few seconds, spread unevenly (a long tail)
        var generator = SplitMix(seed: 30)
        var values: [UInt64] = []
        for _ in 0..<20_000 {
            let base = UInt64.random(in: 50_000...5_000_000, using: &generator)
            values.append(Bool.random(using: &generator) ? base : base * UInt64.random(in: 1...600, using: &generator))
        }
        var histogram = LatencyHistogram()
        for value in values { histogram.record(value) }
        let sorted = values.sorted()
        // Then every percentile is within 1% of the exact one, and min and max are exact
        for percent in [1.0, 10, 50, 90, 99, 99.9, 100] {
            let got = Double(histogram.percentile(percent) ?? 0)
            let want = Double(exact(sorted, percent))
            #expect(abs(got - want) <= want * 0.01, "p\(percent): \(got) vs \(want)")
        }
        #expect(histogram.max == sorted.last)
        #expect(histogram.min == sorted.first)
        #expect(histogram.count == 20_000)
    }

    @Test func smallValuesAreExactAndMergingAddsCounts() {
        var first = LatencyHistogram()
        var second = LatencyHistogram()
        for value in UInt64(0)..<100 { first.record(value) }
        for value in UInt64(100)..<200 { second.record(value) }
        first.merge(second)
        #expect(first.count == 200)
        #expect(first.percentile(50) == 99)
        #expect(first.percentile(100) == 199)
        #expect(LatencyHistogram().percentile(50) == nil)
    }

    @Test func everyBucketHoldsValuesWithinOnePercentOfItsMiddle() {
        for value in stride(from: UInt64(256), to: 1 << 40, by: 7_919_111) + [1 << 62, UInt64.max / 2] {
            let middle = LatencyHistogram.middle(of: LatencyHistogram.index(of: value))
            #expect(abs(Double(middle) - Double(value)) <= Double(value) * 0.01)
        }
    }
}

/// A seeded generator, so the test's numbers are the same each run.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
