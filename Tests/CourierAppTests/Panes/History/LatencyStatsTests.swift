import CourierApp
import CourierBody
import CourierHTTP
import CourierHistory
import CourierTerminal
import Foundation
import Testing

@Suite struct LatencyStatsTests {
    @Test func nearestRankPercentilesAreAlwaysMeasuredValues() {
        // Given ten times 10…100 ms, out of order
        let stats = LatencyStats(durations: [0.05, 0.01, 0.1, 0.03, 0.02, 0.09, 0.04, 0.08, 0.06, 0.07])
        // Then p50 is rank ⌈5⌉ = 50 ms and p95 is rank ⌈9.5⌉ = 10 → 100 ms
        #expect(stats.p50 == 0.05)
        #expect(stats.p95 == 0.1)
        #expect(stats.percentile(0) == 0.01)
        #expect(stats.percentile(100) == 0.1)
    }

    @Test func oneValueIsEveryPercentileAndNoValueIsNone() {
        #expect(LatencyStats(durations: [0.2]).p50 == 0.2)
        #expect(LatencyStats(durations: [0.2]).p95 == 0.2)
        #expect(LatencyStats(durations: []).p50 == nil)
        #expect(LatencyStats(durations: []).line() == "")
    }

    @Test func onlyTheLastNTimesCountAndBadValuesAreDropped() {
        // Given an old slow time, then four fast ones, with a NaN and a negative among them
        let stats = LatencyStats(durations: [5, 0.001, .nan, 0.002, -1, 0.003, 0.004], count: 4)
        // Then only the last four valid times are kept, oldest first
        #expect(stats.durations == [0.001, 0.002, 0.003, 0.004])
        #expect(stats.p95 == 0.004)
    }

    @Test func theStatusLineShowsASparklineAndBothPercentiles() {
        let stats = LatencyStats(durations: [0.012, 0.012, 0.024, 0.048])
        #expect(stats.line() == "▂▂▄█ p50 12 ms · p95 48 ms")
        var buffer = Buffer(size: Size(width: 40, height: 1))
        let used = stats.render(into: &buffer, x: 0, y: 0, maxWidth: 40, theme: .dark)
        #expect(buffer.lines()[0] == "▂▂▄█ p50 12 ms · p95 48 ms")
        #expect(used == 26)
    }

    @Test func durationsReadInTheirUnit() {
        #expect(LatencyStats.format(0.00085) == "850 µs")
        #expect(LatencyStats.format(0.0124) == "12 ms")
        #expect(LatencyStats.format(1.25) == "1.25 s")
        // One format everywhere, and no `1000 µs` or `1000 ms` at the unit boundaries
        #expect(DurationText.format(.microseconds(873)) == "873 µs")
        #expect(DurationText.format(.microseconds(999_800)) == "1.00 s")
        #expect(DurationText.format(seconds: 0.0009998) == "1.0 ms")
        #expect(DurationText.format(.microseconds(4_230)) == "4.2 ms")
        #expect(DurationText.format(.microseconds(9_990)) == "10 ms")
        #expect(DurationText.format(.milliseconds(1337)) == "1.34 s")
        #expect(DurationText.format(.seconds(125)) == "2 min 05 s")
    }

    @Test func statsComeFromThePersistedHistoryOfOneRequestOldestFirst() throws {
        // Given a history folder with three timed responses of one request and one of another
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-latency-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = HistoryStore(directory: folder)
        let t0 = Date(timeIntervalSince1970: 1_767_225_600)
        for (offset, total) in [0.030, 0.010, 0.020].enumerated() {
            try store.record(HistoryEntry(date: t0.addingTimeInterval(Double(offset)),
                                          request: .init(method: "GET", url: "http://127.0.0.1/users", name: "users"),
                                          response: .init(status: 200), timing: .init(total: total)))
        }
        try store.record(HistoryEntry(date: t0, request: .init(method: "GET", url: "http://127.0.0.1/other"),
                                      response: .init(status: 200), timing: .init(total: 9)))
        // When the stats of `users` are read
        let stats = try LatencyStats(store: store, requestKey: "users")
        // Then they hold that request's times in the order they were measured
        #expect(stats.durations == [0.030, 0.010, 0.020])
        #expect(stats.p50 == 0.020)
        #expect(stats.line() == "█▃▆ p50 20 ms · p95 30 ms")
    }
}
