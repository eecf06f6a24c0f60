import Foundation

extension FuzzyMatch {
    /// A filter query made ready once for ranking many requests (`rank(name:method:url:)`): the collection filter
    /// ranks every request of the tree on every key, and each rank used to lowercase, trim and split the query and
    /// the request's URL through Foundation again (a 20,000-request file answered each key in 100-170 ms).
    public struct RequestQuery: Sendable {
        let query: String
        /// The query lowercased and trimmed of whitespace, and without a leading "/".
        let needle: String
        let bare: String
        /// The same as bytes, when the query is plain ASCII; nil sends every rank the way that works on any text.
        let ascii: (score: [UInt8], needle: [UInt8], bare: [UInt8])?

        public init(_ query: String) {
            self.query = query
            needle = query.lowercased().trimmingCharacters(in: .whitespaces)
            bare = needle.hasPrefix("/") ? String(needle.dropFirst()) : needle
            if query.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
                let score = query.utf8.filter { $0 != 0x20 }.map(FuzzyMatch.lowered)
                ascii = (score, Array(needle.utf8), Array(bare.utf8))
            } else {
                ascii = nil
            }
        }

        /// As `FuzzyMatch.rank(_:name:method:url:)`.
        public func rank(name: String, method: String, url: String) -> (tier: Int, score: Int)? {
            if let ascii, FuzzyMatch.isPlainASCII(name), FuzzyMatch.isPlainASCII(method), FuzzyMatch.isPlainASCII(url) {
                return Self.asciiRank(ascii, name: name, method: method, url: url)
            }
            return FuzzyMatch.characterRank(query, needle: needle, bare: bare, name: name, method: method, url: url)
        }

        /// The rank over bytes: the score of "METHOD NAME URL" walked without joining them, then the tier from
        /// the name and the URL's path segments compared with ASCII letters folded, read in place.
        static func asciiRank(_ query: (score: [UInt8], needle: [UInt8], bare: [UInt8]),
                              name: String, method: String, url: String) -> (tier: Int, score: Int)? {
            guard let score = FuzzyMatch.asciiScore(query.score, in: [method.utf8, name.utf8, url.utf8]) else {
                return nil
            }
            var name = name, url = url
            let tier = name.withUTF8 { name in
                url.withUTF8 { url in tierOf(query.needle, query.bare, name: name, url: url) }
            }
            return (tier, score)
        }

        static func tierOf(_ needle: [UInt8], _ bare: [UInt8], name: UnsafeBufferPointer<UInt8>,
                           url: UnsafeBufferPointer<UInt8>) -> Int {
            // The path: the URL up to its query or fragment, in segments between slashes (empty ones skipped).
            let pathEnd = url.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? url.count
            var lastSegment = 0..<0
            var aSegmentStarts = false
            var start = 0
            while start < pathEnd {
                var end = start
                while end < pathEnd && url[end] != UInt8(ascii: "/") { end += 1 }
                if end > start {
                    lastSegment = start..<end
                    if !aSegmentStarts && starts(url, start, end, with: bare) { aSegmentStarts = true }
                }
                start = end + 1
            }
            let nameAll = 0..<name.count
            if equal(name, nameAll, needle) || equal(name, nameAll, bare)
                || (!bare.isEmpty && !lastSegment.isEmpty && equal(url, lastSegment, bare)) {
                return 3
            }
            if !bare.isEmpty && (starts(name, 0, name.count, with: bare) || aSegmentStarts) { return 2 }
            if contains(name, needle) || contains(url, needle) { return 1 }
            return 0
        }

        /// Whether `text[range]` equals `lowered` (already lowercase), ASCII letters in `text` folded.
        static func equal(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lowered: [UInt8]) -> Bool {
            range.count == lowered.count && starts(text, range.lowerBound, range.upperBound, with: lowered)
        }

        /// Whether `text[start..<end]` starts with `lowered`, ASCII letters in `text` folded.
        static func starts(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, with lowered: [UInt8]) -> Bool {
            guard end - start >= lowered.count else { return false }
            for offset in lowered.indices where FuzzyMatch.lowered(text[start + offset]) != lowered[offset] {
                return false
            }
            return true
        }

        /// Whether `text` holds `lowered`; never for an empty `lowered`, as `String.contains` says.
        static func contains(_ text: UnsafeBufferPointer<UInt8>, _ lowered: [UInt8]) -> Bool {
            guard !lowered.isEmpty, text.count >= lowered.count else { return false }
            for start in 0...(text.count - lowered.count) where starts(text, start, text.count, with: lowered) {
                return true
            }
            return false
        }
    }

    static func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Carriage returns aside, ASCII characters are single bytes, so a walk over bytes scores them as a walk
    /// over characters does.
    static func isPlainASCII(_ string: String) -> Bool { string.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } }

    /// The rank over characters, for any text (`needle` and `bare` as `RequestQuery` makes them): the way every
    /// request was ranked before the query was prepared once, which the bench measures against.
    public static func characterRank(_ query: String, needle: String, bare: String,
                              name: String, method: String, url: String) -> (tier: Int, score: Int)? {
        guard let score = score(query, in: "\(method) \(name) \(url)") else { return nil }
        let name = name.lowercased()
        let segments = url.lowercased().prefix { $0 != "?" && $0 != "#" }.split(separator: "/").map(String.init)
        if name == needle || name == bare || (!bare.isEmpty && segments.last == bare) { return (3, score) }
        if !bare.isEmpty && (name.hasPrefix(bare) || segments.contains { $0.hasPrefix(bare) }) { return (2, score) }
        if name.contains(needle) || url.lowercased().contains(needle) { return (1, score) }
        return (0, score)
    }
}
