import Foundation

/// The hits of one search so far, in document order, as a value the viewer keeps: lookups of the next and
/// previous hit and of one line's hits are binary searches.
public struct SearchHits: Sendable, Hashable {
    public private(set) var all: [SearchHit]

    /// Hits already in document order.
    public init(_ hits: [SearchHit] = []) { all = hits }

    public var count: Int { all.count }
    public var isEmpty: Bool { all.isEmpty }

    /// Adds hits found after every hit so far (a search reports them in document order).
    public mutating func append(contentsOf more: [SearchHit]) { all += more }

    /// The first hit after `position` (wrapping to the first hit), or nil when there are none yet.
    public func next(after position: SearchHit) -> SearchHit? {
        guard !all.isEmpty else { return nil }
        let index = upperBound(position)
        return index < all.count ? all[index] : all[0]
    }

    /// The last hit before `position` (wrapping to the last hit).
    public func previous(before position: SearchHit) -> SearchHit? {
        guard !all.isEmpty else { return nil }
        var low = 0, high = all.count
        while low < high {
            let mid = (low + high) / 2
            if all[mid] < position { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? all[low - 1] : all[all.count - 1]
    }

    /// Hits on one line (for highlighting the visible lines).
    public func onLine(_ line: Int) -> [SearchHit] {
        var index = upperBound(SearchHit(line: line, columns: -1 ..< -1))
        var out: [SearchHit] = []
        while index < all.count, all[index].line == line { out.append(all[index]); index += 1 }
        return out
    }

    /// The position of `hit` among the hits (for "3/12 matches").
    public func position(of hit: SearchHit) -> Int? {
        let index = upperBound(hit) - 1
        return index >= 0 && all[index] == hit ? index : nil
    }

    private func upperBound(_ position: SearchHit) -> Int {
        var low = 0, high = all.count
        while low < high {
            let mid = (low + high) / 2
            if position < all[mid] { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
