/// Edits that return the file's new text; only the lines of the affected request change.
extension HTTPFile {
    /// The file's text with `request` replaced by `edited`; every other byte stays as it was.
    public func replacing(request: RequestTemplate, with edited: RequestTemplate) throws(CollectionError) -> String {
        let index = try layoutIndex(of: request)
        let layout = layouts[index]
        let rendered = RequestWriter.render(layout.withoutLent(edited), original: layout.withoutLent(requests[index]),
                                            layout: layout, lines: lines, eol: lineEnding)
        return splice(layout.block, with: rendered)
    }

    /// The file's text with a new request added at the end.
    public func appending(_ request: RequestTemplate) -> String {
        SourceLines.join(linesBeforeAppending + RequestWriter.renderNew(request, eol: lineEnding))
    }

    /// The file's text with `block` (whole lines of `.http` text, such as an imported request from
    /// `ImportWriter.block`) added at the end, in the file's line ending.
    public func appending(block: String) -> String {
        let added = SourceLines.split(block).map { SourceLine(content: $0.content, terminator: lineEnding) }
        return SourceLines.join(linesBeforeAppending + added)
    }

    /// The file's lines ending in a line ending and a blank line, ready for a block after them.
    private var linesBeforeAppending: [SourceLine] {
        var before = lines
        if let last = before.last {
            if last.terminator.isEmpty { before[before.count - 1].terminator = lineEnding }
            if !last.isBlank { before.append(SourceLine(content: "", terminator: lineEnding)) }
        }
        return before
    }

    /// The file's text with a copy of `request`, called `name`, right after it.
    public func duplicating(_ request: RequestTemplate, as name: String?) throws(CollectionError) -> String {
        let index = try layoutIndex(of: request)
        let layout = layouts[index]
        var copy = layout.withoutLent(requests[index])
        copy.name = name
        var inserted = RequestWriter.renderNew(copy, eol: lineEnding)
        var before = Array(lines[..<layout.block.upperBound])
        if let last = before.last, last.terminator.isEmpty {
            before[before.count - 1].terminator = lineEnding
            inserted[inserted.count - 1].terminator = ""
        }
        if let last = before.last, !last.isBlank { before.append(SourceLine(content: "", terminator: lineEnding)) }
        // The block's trailing blank line now precedes the copy; the copy gets its own before the next `###`.
        let after = lines[layout.block.upperBound...]
        if !after.isEmpty, let last = inserted.last, !last.isBlank {
            inserted.append(SourceLine(content: "", terminator: lineEnding))
        }
        return SourceLines.join(before + inserted + after)
    }

    /// A name for a copy of `request` that no request of the file has: `name-copy`, then `name-copy-2`, …
    /// (one word, since a `# @name` value is one).
    public func copyName(for request: RequestTemplate) -> String {
        let base = (request.name ?? request.displayName).split(whereSeparator: \.isWhitespace).joined(separator: "-")
        let taken = Set(requests.compactMap(\.name))
        var candidate = base + "-copy"
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(base)-copy-\(number)"
            number += 1
        }
        return candidate
    }

    /// The file's text with `request` renamed (nil removes the name).
    public func renaming(_ request: RequestTemplate, to name: String?) throws(CollectionError) -> String {
        var edited = try requests[layoutIndex(of: request)]
        edited.name = name
        return try replacing(request: request, with: edited)
    }

    /// The file's text without `request`. In the first block, which has no `###` line, comments and file
    /// variables above the request stay.
    public func deleting(_ request: RequestTemplate) throws(CollectionError) -> String {
        let layout = layouts[try layoutIndex(of: request)]
        if layout.separator != nil { return splice(layout.block, with: []) }
        let dropped = Set([layout.nameLine].compactMap { $0 } + layout.tagLines)
            .union(layout.requestLine.lowerBound..<layout.block.upperBound)
        let kept = lines.indices.filter { !dropped.contains($0) }.map { lines[$0] }
        return SourceLines.join(kept)
    }

    private func splice(_ range: Range<Int>, with replacement: [SourceLine]) -> String {
        SourceLines.join(lines[..<range.lowerBound] + replacement + lines[range.upperBound...])
    }
}
