import CourierTerminal

/// Small drawing helpers the panes share: borders with titles, padded rows, styled runs.
enum Draw {
    /// Draws the one pane frame every pane uses, and returns the inside: round corners, heavy lines when
    /// focused, `╭─ 3 Response · body ─╮` with the pane's number, and an optional title on the right (a
    /// connection state). A title too long for the edge is cut with `…`, never run into the corner; the
    /// right title is dropped before the left one is cut short.
    @discardableResult
    static func block(_ buffer: inout Buffer, _ rect: Rect, title: String, focused: Bool, theme: Theme,
                      number: Int? = nil, rightTitle: (text: String, style: Style)? = nil) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        let style = focused ? theme.borderFocused : theme.border
        let (h, v) = focused ? ("━", "┃") : ("─", "│")
        let corners = focused ? ("┏", "┓", "┗", "┛") : ("╭", "╮", "╰", "╯")
        for x in rect.x + 1..<rect.maxX - 1 {
            buffer[x, rect.y] = Cell(h, style: style)
            buffer[x, rect.maxY - 1] = Cell(h, style: style)
        }
        for y in rect.y + 1..<rect.maxY - 1 {
            buffer[rect.x, y] = Cell(v, style: style)
            buffer[rect.maxX - 1, y] = Cell(v, style: style)
        }
        buffer[rect.x, rect.y] = Cell(corners.0, style: style)
        buffer[rect.maxX - 1, rect.y] = Cell(corners.1, style: style)
        buffer[rect.x, rect.maxY - 1] = Cell(corners.2, style: style)
        buffer[rect.maxX - 1, rect.maxY - 1] = Cell(corners.3, style: style)
        // The titles sit between `╭─` and `─╮`.
        let room = rect.width - 4
        guard room > 0 else { return rect.inset(1) }
        var label = number.map { " \($0) \(title) " } ?? " \(title) "
        let right = rightTitle.map { (" \($0.text) ", $0.style) }
        let rightWidth = right.map { DisplayWidth.of($0.0) } ?? 0
        let showRight = right != nil && rightWidth + 1 + min(DisplayWidth.of(label), 12) <= room
        let leftRoom = showRight ? room - rightWidth - 1 : room
        if DisplayWidth.of(label) > leftRoom {
            label = String(DisplayWidth.prefix(of: label, fitting: max(0, leftRoom - 2)).0) + "… "
        }
        buffer.write(label, x: rect.x + 2, y: rect.y, style: focused ? theme.titleFocused : theme.title, maxWidth: leftRoom)
        if showRight, let right {
            buffer.write(right.0, x: rect.maxX - 2 - rightWidth, y: rect.y, style: right.1, maxWidth: rightWidth)
        }
        return rect.inset(1)
    }

    /// `text` in at most `width` columns: whole when it fits, else cut with `…` so a cut never looks whole.
    static func fitted(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return text }
        return String(DisplayWidth.prefix(of: text, fitting: width - 1).0) + "…"
    }

    /// Writes styled runs one after another on a row, clipped to `maxWidth`; returns the columns used.
    @discardableResult
    static func runs(_ buffer: inout Buffer, _ runs: [(String, Style)], x: Int, y: Int, maxWidth: Int) -> Int {
        var used = 0
        for (text, style) in runs where used < maxWidth {
            used += buffer.write(text, x: x + used, y: y, style: style, maxWidth: maxWidth - used)
        }
        return used
    }

    /// Fills a row with a style and writes text on it (a selected list row).
    static func highlightedRow(_ buffer: inout Buffer, _ text: String, x: Int, y: Int, width: Int, style: Style) {
        buffer.fill(Rect(x: x, y: y, width: width, height: 1), with: Cell(" ", style: style))
        buffer.write(text, x: x, y: y, style: style, maxWidth: width)
    }

    /// A byte count as people read it: 512 B, 1.2 KB, 3.4 MB.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1024 / 1024)
    }

    /// The characters of `line` that fit in `width` columns with the cursor column visible: the slice's
    /// first character index, and its text.
    static func window(_ line: [Character], cursor: Int?, width: Int) -> (start: Int, text: String) {
        guard let cursor, width > 1 else { return (0, String(line)) }
        var start = 0
        while start < cursor && DisplayWidth.of(String(line[start..<cursor])) > width - 1 { start += 1 }
        return (start, String(line[start...]))
    }

    /// Wraps `text` into pieces of at most `width` columns.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var pieces: [String] = []
        var current = ""
        var columns = 0
        for character in text {
            let w = DisplayWidth.of(character)
            if columns + w > width && !current.isEmpty {
                pieces.append(current)
                current = ""
                columns = 0
            }
            current.append(character)
            columns += w
        }
        pieces.append(current)
        return pieces
    }

    /// `text` broken into lines of at most `width` columns at spaces, as prose is; a word longer than a
    /// line (a path) is broken where it must be.
    static func wrapWords(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let joined = current.isEmpty ? word : current + " " + word
            if DisplayWidth.of(joined) <= width {
                current = joined
                continue
            }
            if !current.isEmpty { lines.append(current) }
            let pieces = wrap(word, width: width)
            lines += pieces.dropLast()
            current = pieces.last ?? ""
        }
        lines.append(current)
        return lines
    }
}

import Foundation
