import CourierSecurity
import CourierTerminal

/// Draws the modal on top of the stack: help, palette, confirmation, prompt or the cookie jar.
enum ModalView {
    /// Draws `modal` centred on the screen and returns where the cursor goes for a text field.
    static func render(_ modal: Modal, state: AppState, into buffer: inout Buffer, screen: Rect) -> Position? {
        let theme = state.theme
        switch modal {
        case .help(let scroll):
            // Keys, what they do and the command name config.json rebinds it by, as wide as the screen allows.
            let inner = frame(&buffer, screen, width: state.helpWidth, height: screen.height - 2, title: "Help · j/k scroll · Esc closes",
                              theme: theme)
            for (offset, line) in state.helpLines.dropFirst(scroll).prefix(inner.height).enumerated() {
                let style = line.hasPrefix(" ") ? theme.text : theme.titleFocused
                buffer.write(line, x: inner.x, y: inner.y + offset, style: style, maxWidth: inner.width)
            }
            return nil
        case .palette(let palette):
            let inner = frame(&buffer, screen, width: 64, height: min(screen.height - 2, 18),
                              title: "Command palette · Enter runs · Esc closes", theme: theme)
            let used = Draw.runs(&buffer, [("> ", theme.keyHint), (palette.filter.text, theme.text)],
                                 x: inner.x, y: inner.y, maxWidth: inner.width)
            let matches = HelpCatalog.paletteMatches(state, filter: palette.filter.text)
            let list = ListView(count: matches.count, selectionStyle: theme.selection) { index in
                let (help, keys) = (matches[index].help, matches[index].keys)
                let text = help.padding(toLength: max(0, inner.width - keys.count - 1), withPad: " ", startingAt: 0)
                return StyledLine(text + " " + keys, style: theme.text)
            }
            list.render(into: &buffer, area: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1),
                        state: ListState(selected: palette.selection))
            if matches.isEmpty { buffer.write("No command matches", x: inner.x, y: inner.y + 1, style: theme.muted) }
            return Position(x: inner.x + min(used, inner.width - 1), y: inner.y)
        case .confirm(let confirm):
            // Wrapped at the dialog's inside as drawn, which a narrow screen makes narrower: never cut mid-word.
            let width = min(56, screen.width - 4)
            let lines = Draw.wrapWords(confirm.message, width: width - 2)
            let inner = frame(&buffer, screen, width: width, height: lines.count + 4, title: "Confirm", theme: theme)
            for (offset, line) in lines.enumerated() {
                buffer.write(line, x: inner.x, y: inner.y + offset, style: theme.text, maxWidth: inner.width)
            }
            Draw.runs(&buffer, [("y", theme.keyHint), (" yes   ", theme.text), ("n", theme.keyHint), (" no", theme.text)],
                      x: inner.x, y: inner.maxY - 1, maxWidth: inner.width)
            return nil
        case .cookies(let listing, let scroll):
            let inner = frame(&buffer, screen, width: 96, height: min(screen.height - 2, max(listing.lines.count, 1) + 2),
                              title: "Cookie jar · \(listing.environment) · j/k scroll · Esc closes", theme: theme)
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
            let inner = frame(&buffer, screen, width: 56, height: 5, title: prompt.title, theme: theme)
            let input = TextInput(prompt.editor, style: theme.text, mask: prompt.isSecret ? "•" : nil)
            let cursor = input.render(into: &buffer, area: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: 1))
            buffer.write("Enter accepts · Esc cancels", x: inner.x, y: inner.y + 2, style: theme.muted, maxWidth: inner.width)
            return cursor
        case .problems(let selection):
            renderProblems(state.collection.problems, selection: selection, theme: theme, into: &buffer, screen: screen)
            return nil
        case .saveConflict(let conflict):
            renderSaveConflict(conflict, theme: theme, into: &buffer, screen: screen)
            return nil
        }
    }

    /// Every problem, one per line (long ones wrapped), the selected one highlighted.
    static func renderProblems(_ problems: [Problem], selection: Int, theme: Theme, into buffer: inout Buffer,
                               screen: Rect) {
        let inner = frame(&buffer, screen, width: max(40, screen.width - 8),
                          height: min(screen.height - 2, problems.count * 2 + 3),
                          title: "\(problems.count) problem\(problems.count == 1 ? "" : "s") · Enter jumps there · "
                              + "Ctrl-R reloads · Esc closes", theme: theme)
        var y = inner.y
        for (index, problem) in problems.enumerated().dropFirst(max(0, selection - inner.height / 2)) where y < inner.maxY {
            for line in Draw.wrap(problem.description, width: inner.width) where y < inner.maxY {
                if index == selection {
                    // The selected problem is one bar, over all its lines.
                    buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1),
                                with: Cell(" ", style: theme.selection))
                    buffer.write(line, x: inner.x, y: y, style: theme.selection, maxWidth: inner.width)
                } else {
                    buffer.write(line, x: inner.x, y: y, style: theme.error, maxWidth: inner.width)
                }
                y += 1
            }
        }
    }

    /// The conflict, the three ways out, and the diff once asked for.
    static func renderSaveConflict(_ conflict: SaveConflict, theme: Theme, into buffer: inout Buffer, screen: Rect) {
        let height = conflict.diff == nil ? 6 : screen.height - 2
        let inner = frame(&buffer, screen, width: max(56, screen.width - 8), height: height, title: "Save conflict",
                          theme: theme)
        buffer.write(conflict.message + ".", x: inner.x, y: inner.y, style: theme.text, maxWidth: inner.width)
        Draw.runs(&buffer, [("r", theme.keyHint), (" reload it   ", theme.text), ("o", theme.keyHint),
                            (" overwrite with your edit   ", theme.text), ("d", theme.keyHint), (" show the diff   ", theme.text),
                            ("Esc", theme.keyHint), (" keep editing", theme.text)],
                  x: inner.x, y: inner.y + 1, maxWidth: inner.width)
        guard let diff = conflict.diff else { return }
        for (offset, line) in diff.dropFirst(conflict.scroll).prefix(max(0, inner.height - 3)).enumerated() {
            let style = line.hasPrefix("+") ? theme.diffAdded : line.hasPrefix("-") ? theme.diffRemoved : theme.muted
            buffer.write(line, x: inner.x, y: inner.y + 3 + offset, style: style, maxWidth: inner.width)
        }
    }

    /// Draws a dialog's box of `width` × `height` centred on the screen, in the focused pane's frame, and
    /// returns its inside.
    private static func frame(_ buffer: inout Buffer, _ screen: Rect, width: Int, height: Int, title: String,
                              theme: Theme) -> Rect {
        let frame = PaneFrame(title)
        return CourierTerminal.Modal(title: frame.block(theme: theme, focused: true).title,
                                     size: Size(width: width, height: height),
                     borders: .thick, borderStyle: theme.borderFocused, fillStyle: theme.text)
            .render(into: &buffer, screen: screen)
    }
}
