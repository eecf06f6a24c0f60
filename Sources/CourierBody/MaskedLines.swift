import CourierSecurity

/// Any line source with known secret values masked line by line, as the viewer draws and searches it.
/// Nothing is copied up front: a line is masked when it is asked for, and a line holding no secret is
/// passed through as it is, so a 50 MB body costs only what is on screen (and a search one byte scan more).
public final class MaskedLines: LineSource, Sendable {
    public let base: any LineSource
    public let masker: SecretMasker

    /// `base` as shown with `masker`'s secrets masked.
    public init(_ base: any LineSource, masker: SecretMasker) {
        self.base = base
        self.masker = masker
    }

    public var lineCount: Int { base.lineCount }
    public var isComplete: Bool { base.isComplete }
    /// See `LineSource`.
    public func indexMore() -> Bool { base.indexMore() }
    /// See `LineSource`.
    public func line(_ index: Int) -> String { masker.mask(base.line(index)) }
    /// See `LineSource`.
    public func coloredLine(_ index: Int) -> ColoredLine { base.coloredLine(index).masked(by: masker) }

    /// See `LineSource`: the bytes searched are the masked line's, so a search finds what the user sees.
    public func forEachLineBytes(from start: Int, limit: Int, _ body: (Int, UnsafeRawBufferPointer) -> Void) -> Int {
        base.forEachLineBytes(from: start, limit: limit) { index, bytes in
            guard masker.occurs(in: bytes) else { return body(index, bytes) }
            masker.masked(bytes).withUnsafeBytes { body(index, $0) }
        }
    }
}

extension ColoredLine {
    /// The line with every known secret replaced by the mask; the mask takes the colour of the text it
    /// replaces, and the spans after it move with the shorter or longer text.
    public func masked(by masker: SecretMasker) -> ColoredLine {
        let found = masker.ranges(in: text)
        guard !found.isEmpty else { return self }
        // Character offsets of each hit, then one pass that copies text and re-bases the spans.
        var hits: [(range: Range<Int>, role: TextRole)] = []
        var offset = 0
        var index = text.startIndex
        for hit in found {
            offset += text.distance(from: index, to: hit.lowerBound)
            let length = text.distance(from: hit.lowerBound, to: hit.upperBound)
            hits.append((offset..<offset + length, role(at: offset)))
            offset += length
            index = hit.upperBound
        }
        let maskLength = SecretPolicy.mask.count
        /// Where old character offset `position` lands in the masked text (inside a hit: its start or end).
        func moved(_ position: Int, isEnd: Bool) -> Int {
            var shift = 0
            for hit in hits {
                if position >= hit.range.upperBound { shift += maskLength - hit.range.count; continue }
                if position > hit.range.lowerBound { return hit.range.lowerBound + shift + (isEnd ? maskLength : 0) }
                break
            }
            return position + shift
        }
        var result = ""
        var cursor = text.startIndex
        for hit in found {
            result += text[cursor..<hit.lowerBound]
            result += SecretPolicy.mask
            cursor = hit.upperBound
        }
        result += text[cursor...]
        var newSpans: [Span] = []
        for span in spans {
            let range = moved(span.range.lowerBound, isEnd: false)..<moved(span.range.upperBound, isEnd: true)
            if let last = newSpans.last, last.range.upperBound > range.lowerBound {
                // A hit that began in the previous span already covers the start of this one.
                guard range.upperBound > last.range.upperBound else { continue }
                newSpans.append(Span(last.range.upperBound..<range.upperBound, span.role))
            } else if !range.isEmpty {
                newSpans.append(Span(range, span.role))
            }
        }
        return ColoredLine(text: result, spans: newSpans)
    }
}
