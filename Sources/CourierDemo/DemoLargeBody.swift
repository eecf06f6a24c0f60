import Foundation

/// The bodies of `/large`: a JSON array of user-like records or pseudo-random bytes, of an exact size,
/// generated while they are written so that a 50 MB body needs no 50 MB buffer.
enum DemoLargeBody {
    /// Bytes handed to the socket per write.
    static let writeBlock = 64 * 1024
    /// Smallest JSON body: room for the array brackets and one padding record.
    static let minimumJSONBytes = 128
    private static let cities = ["Lisbon", "Osaka", "Nairobi", "Toronto", "Helsinki", "Recife", "Wellington", "Pune"]

    /// Pseudo-random bytes (xorshift), the same for every request of the same size.
    static func writeBinary(_ total: Int, to writer: DemoStreamWriter) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var block = [UInt8](repeating: 0, count: writeBlock)
        for index in block.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            block[index] = UInt8(truncatingIfNeeded: state)
        }
        var left = total
        while left > 0 {
            let count = min(left, block.count)
            try writer.write(count == block.count ? block : Array(block[0..<count]))
            left -= count
        }
    }

    /// A JSON array of records, exactly `total` bytes (at least `minimumJSONBytes`): the last record
    /// carries a padding string sized to fit.
    static func writeJSON(_ total: Int, to writer: DemoStreamWriter) throws {
        let closing = "\n]\n"
        // Room kept for the padding record (`,\n{"id":N,"padding":""}`) so the size always comes out exact.
        let reserve = 64
        let limit = total - closing.utf8.count - reserve
        // Built as a String: in debug builds the optimised standard library's string appends are several
        // times faster than generic byte-array appends, and this loop runs a million times for a large body.
        var pending = "[\n"
        pending.reserveCapacity(writeBlock + 1024)
        var written = 0
        var id = 1
        while true {
            let piece = (id > 1 ? ",\n" : "") + record(id)
            if written + pending.utf8.count + piece.utf8.count > limit { break }
            pending += piece
            id += 1
            if pending.utf8.count >= writeBlock {
                try writer.write(pending)
                written += pending.utf8.count
                pending.removeAll(keepingCapacity: true)
            }
        }
        let head = (id == 1 ? "" : ",\n") + "{\"id\":\(id),\"padding\":\""
        let padding = total - closing.utf8.count - written - pending.utf8.count - head.utf8.count - 2
        pending += head + String(repeating: "x", count: max(padding, 0)) + "\"}" + closing
        try writer.write(pending)
    }

    /// One record, e.g. `{"id":7,"name":"User 7","email":"user7@example.com","active":true,"score":54.33,
    /// "tags":["t0","group-7"],"address":{"city":"Pune","zip":"10007"}}`.
    static func record(_ id: Int) -> String {
        let score = (id &* 7919) % 10_000
        let fraction = score % 100 < 10 ? "0\(score % 100)" : "\(score % 100)"
        return "{\"id\":\(id),\"name\":\"User \(id)\",\"email\":\"user\(id)@example.com\",\"active\":\(id % 3 != 0),"
            + "\"score\":\(score / 100).\(fraction),\"tags\":[\"t\(id % 7)\",\"group-\(id % 13)\"],"
            + "\"address\":{\"city\":\"\(cities[id % cities.count])\",\"zip\":\"\(10_000 + id % 90_000)\"}}"
    }
}
