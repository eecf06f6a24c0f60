import CourierTerminal

/// Draws the modal on top of the stack: help, palette, confirmation, prompt or the cookie jar.
enum ModalView {
    /// Draws `modal` centred on the screen and returns where the cursor goes for a text field.
    static func render(_ modal: Modal, state: AppState, into buffer: inout Buffer, screen: Rect) -> Position? {
        let theme = state.theme
        switch modal {
        case .help(let scroll):
            let box = centred(screen, width: 72, height: screen.height - 2)
            let inner = frame(&buffer, box, title: "Help · j/k scroll · Esc closes", theme: theme)
            for (offset, line) in HelpCatalog.lines.dropFirst(scroll).prefix(inner.height).enumerated() {
                let style = line.hasPrefix(" ") ? theme.text : theme.titleFocused
                buffer.write(line, x: inner.x, y: inner.y + offset, style: style, maxWidth: inner.width)
            }
            return nil
        case .palette(let palette):
            let box = centred(screen, width: 64, height: min(screen.height - 2, 18))
            let inner = frame(&buffer, box, title: "Command palette · Enter runs · Esc closes", theme: theme)
            let used = Draw.runs(&buffer, [("> ", theme.keyHint), (palette.filter.text, theme.text)],
                                 x: inner.x, y: inner.y, maxWidth: inner.width)
            let matches = HelpCatalog.paletteMatches(state, filter: palette.filter.text)
            let height = inner.height - 1
            let first = max(0, palette.selection - height + 1)
            for (offset, entry) in matches.dropFirst(first).prefix(height).enumerated() {
                let y = inner.y + 1 + offset
                let keys = entry.keys
                let text = entry.help.padding(toLength: max(0, inner.width - keys.count - 1), withPad: " ", startingAt: 0)
                    + " " + keys
                if first + offset == palette.selection {
                    Draw.highlightedRow(&buffer, text, x: inner.x, y: y, width: inner.width, style: theme.selection)
                } else {
                    Draw.runs(&buffer, [(text, theme.text)], x: inner.x, y: y, maxWidth: inner.width)
                }
            }
            if matches.isEmpty { buffer.write("No command matches", x: inner.x, y: inner.y + 1, style: theme.muted) }
            return Position(x: inner.x + min(used, inner.width - 1), y: inner.y)
        case .confirm(let confirm):
            let lines = Draw.wrap(confirm.message, width: 50)
            let box = centred(screen, width: 56, height: lines.count + 4)
            let inner = frame(&buffer, box, title: "Confirm", theme: theme)
            for (offset, line) in lines.enumerated() {
                buffer.write(line, x: inner.x, y: inner.y + offset, style: theme.text, maxWidth: inner.width)
            }
            Draw.runs(&buffer, [("y", theme.keyHint), (" yes   ", theme.text), ("n", theme.keyHint), (" no", theme.text)],
                      x: inner.x, y: inner.maxY - 1, maxWidth: inner.width)
            return nil
        case .cookies(let listing, let scroll):
            let box = centred(screen, width: 96, height: min(screen.height - 2, max(listing.lines.count, 1) + 2))
            let inner = frame(&buffer, box, title: "Cookie jar · \(listing.environment) · j/k scroll · Esc closes",
                              theme: theme)
            if listing.lines.isEmpty {
                buffer.write("No cookies yet: they are kept from responses that set them.", x: inner.x, y: inner.y,
                             style: theme.muted, maxWidth: inner.width)
            }
            for (offset, line) in listing.lines.dropFirst(scroll).prefix(inner.height).enumerated() {
                buffer.write(Sanitizer.sanitize(line), x: inner.x, y: inner.y + offset, style: theme.text,
                             maxWidth: inner.width)
            }
            return nil
        case .prompt(let prompt):
            let box = centred(screen, width: 56, height: 5)
            let inner = frame(&buffer, box, title: prompt.title, theme: theme)
            let line = prompt.editor.characters
            let (start, text) = Draw.window(line, cursor: prompt.editor.cursor, width: inner.width)
            buffer.write(text, x: inner.x, y: inner.y + 1, style: theme.text, maxWidth: inner.width)
            buffer.write("Enter accepts · Esc cancels", x: inner.x, y: inner.y + 2, style: theme.muted, maxWidth: inner.width)
            return Position(x: inner.x + DisplayWidth.of(String(line[start..<prompt.editor.cursor])), y: inner.y + 1)
        }
    }

    static func centred(_ screen: Rect, width: Int, height: Int) -> Rect {
        let w = min(width, screen.width - 2), h = min(height, screen.height - 2)
        return Rect(x: screen.x + (screen.width - w) / 2, y: screen.y + (screen.height - h) / 2, width: w, height: h)
    }

    private static func frame(_ buffer: inout Buffer, _ box: Rect, title: String, theme: Theme) -> Rect {
        buffer.fill(box, with: Cell(" ", style: theme.text))
        return Draw.block(&buffer, box, title: title, focused: true, theme: theme)
    }
}
