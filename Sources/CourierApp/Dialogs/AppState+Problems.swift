import CourierTerminal

/// The Problems list and the save-conflict choice: both modals over the panes.
extension AppState {
    /// Opens the Problems list on `index`, or says there is nothing wrong.
    mutating func showProblems(selecting index: Int) {
        guard !collection.problems.isEmpty else {
            status = StatusMessage("No problems in the collection", kind: .success)
            return
        }
        modals.append(.problems(selection: min(max(index, 0), collection.problems.count - 1)))
    }

    /// Keys in the Problems list: move, Enter jumps to the problem's place in the tree, Esc closes.
    mutating func handleProblemsKey(_ key: Key, selection: Int) -> [Effect] {
        let last = collection.problems.count - 1
        switch key {
        case .char("j"), Key(.down): modals.append(.problems(selection: min(selection + 1, last)))
        case .char("k"), Key(.up): modals.append(.problems(selection: max(selection - 1, 0)))
        case Key(.enter): jumpToProblem(selection)
        case Key(.escape), .char("q"), .char("!"): break
        case .ctrl("r"), Key(.function(5)): return runGlobal(.reload)
        default: modals.append(.problems(selection: selection))
        }
        return []
    }

    /// Selects the problem's greyed row in the tree (its file's row for a problem of no request) and
    /// focuses the collection, with the whole message in the status bar.
    mutating func jumpToProblem(_ index: Int) {
        guard collection.problems.indices.contains(index) else { return }
        let problem = collection.problems[index]
        tree.filter = LineEditor()
        tree.filtering = false
        let rows = tree.rows(collection)
        if let row = rows.firstIndex(where: { $0.kind == .problem(index) }) {
            tree.selection = row
        } else if let file = problem.file, let path = collection.files.first(where: { $0.path == file })?.displayPath,
                  let row = rows.firstIndex(where: { $0.kind == .group(key: path.joined(separator: "/"), isFile: true) }) {
            tree.selection = row
        }
        tree.scrollToSelection(height: layout.contentHeight(.collection))
        focus = .collection
        if zoomed != nil { zoomed = .collection }
        status = StatusMessage(problem.description, kind: .error)
    }

    /// Keys in the save-conflict dialog: `r` reloads, `o` overwrites, `d` shows the diff, Esc keeps editing.
    mutating func handleSaveConflictKey(_ key: Key, conflict: SaveConflict) -> [Effect] {
        var conflict = conflict
        switch key {
        case .char("r"):
            status = StatusMessage("Reloading \(conflict.ref.file); your edits stay in the editor until you open another request")
            return [.loadCollection(path: collectionPath)]
        case .char("o"):
            return [.overwrite(conflict.ref, conflict.draft)]
        case .char("d"):
            conflict.diff = ["Comparing…"]
            modals.append(.saveConflict(conflict))
            return [.conflictDiff(conflict.ref, conflict.draft)]
        case .char("j"), Key(.down): conflict.scroll = min(conflict.scroll + 1, max(0, (conflict.diff?.count ?? 1) - 1))
        case .char("k"), Key(.up): conflict.scroll = max(conflict.scroll - 1, 0)
        case Key(.escape), .char("n"), .ctrl("c"):
            status = StatusMessage("Not saved: \(conflict.message)", kind: .error)
            return []
        default: break
        }
        modals.append(.saveConflict(conflict))
        return []
    }

    /// Puts the diff into the open save-conflict dialog.
    mutating func showConflictDiff(_ lines: [String]) {
        guard let index = modals.lastIndex(where: { if case .saveConflict = $0 { true } else { false } }),
              case .saveConflict(var conflict) = modals[index] else { return }
        conflict.diff = lines
        conflict.scroll = 0
        modals[index] = .saveConflict(conflict)
    }
}
