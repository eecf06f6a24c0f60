/// Dropping unsaved edits (of the open request, or of every request), and what a reload says it kept.
extension AppState {
    /// The names of the requests with unsaved edits, the open one first.
    var unsavedNames: [String] { (editor.isDirty ? [editor.name] : []) + drafts.values.map(\.name).sorted() }

    /// Puts the open request back as its file has it. Each field is set back as one edit, so `u` (or
    /// Ctrl-_ while typing) in a field brings that field's edit back.
    mutating func discardDraft() {
        guard editor.isDirty else {
            status = StatusMessage(editor.isEmpty ? "No request open" : "'\(editor.name)' has no unsaved edits")
            return
        }
        editor.editing = false
        editor.setFields(from: RequestEditorState(draft: editor.saved, origin: editor.origin))
        editor.name = editor.saved.name
        if let origin = editor.origin { drafts[origin] = nil }
        status = StatusMessage("Discarded the edits to '\(editor.name)' (\(keys.spelling(of: .request(.undo))) in a field "
                               + "brings its edit back)")
    }

    /// Asks before dropping every request's unsaved edits: those of requests not open have no undo.
    mutating func askToDiscardAllDrafts() {
        let names = unsavedNames
        guard !names.isEmpty else {
            status = StatusMessage("No unsaved edits")
            return
        }
        let list = names.count == 1 ? "'\(names[0])'" : "\(names.count) requests (\(names.joined(separator: ", ")))"
        modals.append(.confirm(ConfirmState(message: "Discard the unsaved edits to \(list)?", onYes: .discardAllDrafts)))
    }

    /// Drops every request's unsaved edits.
    mutating func discardAllDrafts() {
        let count = unsavedNames.count
        drafts = [:]
        if editor.isDirty { discardDraft() }
        status = StatusMessage("Discarded the unsaved edits to \(count) request\(count == 1 ? "" : "s")")
    }

    /// Says a reload (Ctrl-R) is done, and that unsaved edits were kept and how to drop them.
    mutating func finishReload() {
        reloading = false
        // An error found while showing the collection (an environment gone) stays on screen.
        if status?.kind == .error { return }
        let count = collection.files.reduce(0) { $0 + $1.requests.count }
        var text = "Reloaded \(collectionPath): \(count) request\(count == 1 ? "" : "s")"
        let kept = unsavedNames.count
        if kept > 0 {
            text += "; unsaved edits kept in \(kept) (\(keys.spelling(of: .global(.discardAllDrafts))) discards them)"
        }
        status = StatusMessage(text, kind: .success)
    }
}
