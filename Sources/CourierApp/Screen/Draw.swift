import CourierTerminal

/// Small text helpers the panes share: cut and wrapped text, styled runs, byte counts. Frames, lists, the
/// status bar and dialogs are `CourierTerminal` widgets.
enum Draw {
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

    /// A byte count as people read it: 512 B, 1.2 KB, 3.4 MB.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1024 / 1024)
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
