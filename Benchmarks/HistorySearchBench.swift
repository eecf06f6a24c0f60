import CourierHistory
import Foundation

/// `courier history search` (and the explorer's history search) over a full history: 100 kept bodies of 2 MB
/// (the store's per-body limit; 200 MB in all, its total), a needle in one of them. Against `grep -ril` over the
/// same folder, and against the way the store searched before (each body decoded and lowercased as a `String`),
/// in the same run: medians of 3.
enum HistorySearchBench {
    static let entries = 100
    static let bodyBytes = 2_000_000
    static let rounds = 3

    static func run() {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-history-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = HistoryStore(directory: folder, limits: .init(maxEntries: entries, maxTotalBytes: 250 << 20,
                                                                 maxBodyBytes: bodyBytes))
        guard fill(store) else {
            print("history: could not fill a history folder")
            return
        }
        let needles = ["NEEDLEword", "needleWÖRD"]
        print("== history search: \(entries) kept bodies of \(bodyBytes / 1_000_000) MB, one holds the needle "
              + "(ms, medians of \(rounds))")
        for needle in needles {
            var ours: [Double] = [], decoded: [Double] = [], grep: [Double] = []
            var found = 0
            for _ in 0..<rounds {
                ours.append(milliseconds { found = ((try? store.search(needle)) ?? []).count })
                decoded.append(milliseconds { _ = decodedSearch(store, needle) })
                if let child = NginxBench.timeChild("/usr/bin/grep", ["-ril", "--", needle, folder.path]) {
                    grep.append(child.wall * 1000)
                }
            }
            let median = NginxBench.median
            let grepText = grep.isEmpty ? "grep -ril n/a"
                : String(format: "grep -ril %.0f (courier at %.2f× its time)", median(grep), median(ours) / median(grep))
            print(String(format: "   %@: courier %.0f (%d found), decoded-text search %.0f (%.1f× slower); %@",
                         needle, median(ours), found, median(decoded), median(decoded) / median(ours), grepText))
        }
    }

    /// Records the entries, the needle in the middle one's body; false when a write failed.
    static func fill(_ store: HistoryStore) -> Bool {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 {}\":,\n".utf8)
        let chunk = (0..<65_536).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        var body = Data(capacity: bodyBytes)
        while body.count < bodyBytes { body.append(contentsOf: chunk.prefix(bodyBytes - body.count)) }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<entries {
            var kept = body
            if index == entries / 2 {
                let needles = Data("needleword needlewörd ".utf8)
                kept.replaceSubrange(1_000_000..<1_000_000 + needles.count, with: needles)
            }
            let entry = HistoryEntry(date: start + Double(index),
                                     request: .init(method: "GET", url: "http://example.com/item/\(index)"),
                                     response: .init(status: 200, reason: "OK"), timing: .init(total: 0.001))
            guard (try? store.record(entry, body: kept)) != nil else { return false }
        }
        return true
    }

    /// The former search: each body decoded and lowercased, then `contains`.
    static func decodedSearch(_ store: HistoryStore, _ text: String) -> Int {
        let needle = text.lowercased()
        return ((try? store.list()) ?? []).filter { entry in
            guard let body = try? store.body(id: entry.id) else { return false }
            return String(decoding: body, as: UTF8.self).lowercased().contains(needle)
        }.count
    }

    static func milliseconds(_ work: () -> Void) -> Double {
        let start = ContinuousClock.now
        work()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
