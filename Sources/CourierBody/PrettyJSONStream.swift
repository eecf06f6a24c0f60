import Foundation

/// Pretty JSON for bytes that arrive in pieces (a spilled or streamed body, an event's data, the start of
/// a WebSocket message): the layout of `PrettyJSONDocument`, from the same cursor, given out line by line
/// as soon as a line is whole. Only the line being read is held, so memory stays near one chunk plus the
/// longest line; a line longer than `maxPendingBytes` ends the layout there, and what follows passes
/// through as received, as it does after invalid input.
public struct PrettyJSONStream: Sendable {
    /// The longest line held while waiting for its end (a string of many megabytes on one line).
    public static let defaultMaxPendingBytes = 8 << 20

    private let maxPendingBytes: Int
    /// The bytes not yet laid out, from the start of the line being read.
    private var buffer: [UInt8] = []
    private var cursor = PrettyCursor()
    /// Bytes dropped from the front of `buffer` so far, for offsets into the whole input.
    private var dropped = 0
    /// After a line cut by the end of the bytes, how many to wait for before trying again, so a long
    /// string arriving in many chunks is rescanned a logarithmic number of times rather than per chunk.
    private var retryAt = 0
    /// Text output only: past invalid input or an over-long line, bytes go out as they came.
    private var passingThrough = false
    /// Text output only: whether a line went out (the next one is preceded by a newline).
    private var wroteLine = false
    /// Whether some line was deeper than `LineLimits.maxIndentLevels` (its indentation was capped).
    public private(set) var flattened = false

    /// A stream that holds at most `maxPendingBytes` of one line.
    public init(maxPendingBytes: Int = defaultMaxPendingBytes) {
        self.maxPendingBytes = maxPendingBytes
    }

    /// Why the input is not JSON, with the offset into everything fed so far.
    public var failure: JSONTokenizerFailure? {
        guard var failure = cursor.tokenizer.failure else { return nil }
        failure.offset += dropped
        return failure
    }

    /// Said once after output whose nesting went deeper than the indentation cap.
    public static let flattenedNote =
        "note: nesting deeper than \(LineLimits.maxIndentLevels) levels is shown without further indentation"

    // MARK: Text

    /// The pretty text the chunk completes: lines separated by newlines, without a newline after the
    /// last one (the caller ends the output).
    public mutating func feed(_ chunk: Data) -> Data {
        if passingThrough { return chunk }
        chunk.withUnsafeBytes { buffer.append(contentsOf: $0) }
        return text(isFinal: false)
    }

    /// The rest of the text once the input has ended.
    public mutating func finish() -> Data {
        if passingThrough { return Data() }
        return text(isFinal: true)
    }

    /// `data` laid out whole; nil when it is not JSON.
    public static func format(_ data: Data) -> (text: Data, flattened: Bool)? {
        formatBytes(data).map { (Data($0.bytes), $0.flattened) }
    }

    /// `format` as bytes, for a writer that copies them into its own buffer anyway (`courier run`'s text).
    public static func formatBytes(_ data: Data) -> (bytes: [UInt8], flattened: Bool)? {
        // One pass over the whole input, as `coloredLines` makes: `feed` then `finish` laid it out in two, each
        // with its own output, which for the small bodies a run prints by the thousand cost more than the layout.
        var stream = PrettyJSONStream(maxPendingBytes: .max)
        stream.buffer = Array(data)
        // Laid out, a small body takes about twice its bytes: room for that up front, rather than the output
        // growing several times for each of the thousands of small bodies a run prints.
        let bytes = stream.textBytes(isFinal: true, reserving: min(data.count, 32 << 10) * 2 + 64)
        return stream.failure == nil ? (bytes, stream.flattened) : nil
    }

    private mutating func text(isFinal: Bool) -> Data { Data(textBytes(isFinal: isFinal)) }

    private mutating func textBytes(isFinal: Bool, reserving capacity: Int = 0) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(capacity)
        var rawFrom: Int?
        let droppedBefore = dropped
        var wroteLine = self.wroteLine
        drain(isFinal: isFinal) { line, bytes in
            if let raw = line.raw {
                rawFrom = raw.lowerBound
                return false
            }
            if wroteLine { output.append(0x0A) }
            wroteLine = true
            PrettyJSONDocument.appendBytes(line, bytes, to: &output)
            return true
        }
        self.wroteLine = wroteLine
        // The offset was into the buffer before `drain` dropped the lines it laid out.
        rawFrom = rawFrom.map { $0 - (dropped - droppedBefore) }
        if rawFrom == nil, !isFinal, buffer.count > maxPendingBytes { rawFrom = 0 }
        if let from = rawFrom {
            if wroteLine { output.append(0x0A) }
            output.append(contentsOf: buffer[from...])
            buffer = []
            passingThrough = true
        }
        return output
    }

    // MARK: Lines

    /// The lines `data` lays out, with colour roles, at most `limit`. Bytes that are not `isFinal` (the
    /// start of a longer message) give only the lines they hold whole.
    public static func coloredLines(_ data: Data, isFinal: Bool = true, limit: Int = .max) -> [ColoredLine] {
        var stream = PrettyJSONStream(maxPendingBytes: .max)
        stream.buffer = Array(data)
        var lines: [ColoredLine] = []
        stream.drain(isFinal: isFinal) { line, bytes in
            guard lines.count < limit else { return false }
            lines.append(PrettyJSONDocument.render(line, bytes: bytes))
            return lines.count < limit
        }
        return lines
    }

    // MARK: Layout

    /// Lays out the whole lines in `buffer`, handing each to `body` until it returns false, then drops
    /// the bytes they used.
    private mutating func drain(isFinal: Bool, _ body: (PrettyCursor.Line, UnsafeRawBufferPointer) -> Bool) {
        guard isFinal || buffer.count >= retryAt else { return }
        var flattened = self.flattened
        // Taken out rather than copied, so the cursor's stack stays uniquely owned and is not copied.
        var cursor = self.cursor
        self.cursor = PrettyCursor()
        var consumed = 0
        var cut = false
        buffer.withUnsafeBytes { bytes in
            var line = PrettyCursor.Line()
            while true {
                let mark = cursor.mark
                let step = cursor.step(bytes, into: &line, collect: true, isFinal: isFinal)
                guard step == .line else {
                    cut = step == .needsMore
                    if cut { cursor.restore(mark) }
                    return
                }
                if line.depth > LineLimits.maxIndentLevels { flattened = true }
                guard body(line, bytes) else { return }
                consumed = cursor.rawFrom ?? cursor.tokenizer.offset
            }
        }
        self.flattened = flattened
        consumed = min(consumed, buffer.count)
        buffer.removeFirst(consumed)
        cursor.rebase(droppingFirst: consumed)
        dropped += consumed
        self.cursor = cursor
        retryAt = cut ? buffer.count * 2 : 0
    }
}
