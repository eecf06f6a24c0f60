import CourierApp
import Foundation

/// The collection filter on every key: each request of a 20,000-request file ranked against the query as typed
/// ("r", "r1", "r12", "r123"), with the query prepared once (`FuzzyMatch.RequestQuery`), against the former rank
/// in the same run (the query lowercased and trimmed, the name and URL lowercased and the path split into strings
/// for every request), medians of 5 rounds.
enum TreeFilterBench {
    static let requests = 20_000
    static let rounds = 5

    static func run() {
        let entries = (0..<requests).map { ("r\($0)", "GET", "http://127.0.0.1:8080/items/\($0)?page=\($0 % 7)") }
        print("== treefilter: the collection filter ranks \(requests) requests on each key (ms a key, medians of \(rounds))")
        for query in ["r", "r1", "r12", "r123"] {
            var prepared: [Double] = [], former: [Double] = []
            var matched = 0, formerMatched = 0
            for _ in 0..<rounds {
                prepared.append(HistorySearchBench.milliseconds {
                    let ready = FuzzyMatch.RequestQuery(query)
                    matched = entries.filter { ready.rank(name: $0.0, method: $0.1, url: $0.2) != nil }.count
                })
                former.append(HistorySearchBench.milliseconds {
                    formerMatched = entries.filter { formerRank(query, name: $0.0, method: $0.1, url: $0.2) != nil }.count
                })
            }
            let median = NginxBench.median
            let same = matched == formerMatched ? "" : " (counts differ!)"
            let label = query.padding(toLength: 5, withPad: " ", startingAt: 0)
            print(String(format: "   %@ %6d matches: %6.1f ms, former %6.1f ms (%.1f× faster)%@", label, matched,
                         median(prepared), median(former), median(former) / max(median(prepared), 0.001), same))
        }
    }

    /// The rank as each request was ranked before the query was prepared once: the query lowercased and trimmed
    /// for every request, then the walk over characters.
    static func formerRank(_ query: String, name: String, method: String, url: String) -> (tier: Int, score: Int)? {
        let needle = query.lowercased().trimmingCharacters(in: .whitespaces)
        let bare = needle.hasPrefix("/") ? String(needle.dropFirst()) : needle
        return FuzzyMatch.characterRank(query, needle: needle, bare: bare, name: name, method: method, url: url)
    }
}
