import CourierTerminal

extension KeyTables {
    /// The tables with the user's rebindings applied, and a line per default key a rebinding took over.
    ///
    /// A rebound command's keys replace its defaults. A key the user gives to two commands of one scope is an
    /// error naming both; a key the user gives to a command while another command of the scope has it by
    /// default moves: the user's command wins and the other command loses that key (its other keys, and the
    /// palette, still reach it), which the returned notices say. A scope's key overrides a global key in that
    /// pane, as the defaults do (Enter opens in the collection and sends elsewhere); a notice names the panes
    /// where a key the user gave a global command means something else.
    public func rebound(by settings: KeySettings) throws(SettingsError) -> (tables: KeyTables, notices: [String]) {
        if let problem = settings.problem { throw problem }
        var tables = self
        var notices: [String] = []
        func fail(_ rebinding: KeySettings.Rebinding, _ reason: String) -> SettingsError {
            SettingsError(file: settings.file, line: rebinding.line, reason: reason)
        }
        var byScope: [KeyScope: [KeySettings.Rebinding]] = [:]
        // The keys the user gave global commands, to name the panes that keep them for themselves.
        var globalOwners: [Key: String] = [:]
        for rebinding in settings.rebindings {
            let scope = KeyScope(rebinding.scope)
            guard scopes.contains(scope) else {
                let known = scopes.map(\.rawValue).joined(separator: ", ")
                throw fail(rebinding, "unknown key scope '\(rebinding.scope)' (known: \(known))")
            }
            byScope[scope, default: []].append(rebinding)
        }
        for scope in scopes {
            guard let rebindings = byScope[scope] else { continue }
            var rows = tables.rows(scope)
            // Which command of this scope the user gave each key to.
            var owners: [Key: String] = [:]
            var rebound = Set<Int>()
            for rebinding in rebindings {
                guard let index = rows.firstIndex(where: { $0.name == rebinding.command }) else {
                    let known = rows.map(\.name).joined(separator: ", ")
                    throw fail(rebinding, "unknown command '\(rebinding.command)' in '\(scope.rawValue)' "
                        + "(known: \(known))")
                }
                var keys: [Key] = []
                for spelling in rebinding.keys {
                    let key: Key
                    do { key = try Key(spelling: spelling) } catch {
                        throw fail(rebinding, "'\(scope.rawValue)' '\(rebinding.command)': \(error)")
                    }
                    if let owner = owners[key], owner != rebinding.command {
                        throw fail(rebinding, "\(key) is bound to both '\(owner)' and '\(rebinding.command)' "
                            + "in '\(scope.rawValue)'")
                    }
                    owners[key] = rebinding.command
                    if !keys.contains(key) { keys.append(key) }
                }
                rows[index].keys = keys
                rebound.insert(index)
            }
            for index in rows.indices where !rebound.contains(index) {
                for key in rows[index].keys {
                    guard let owner = owners[key] else { continue }
                    notices.append("\(key) in \(scope.rawValue) now runs \(owner), not \(rows[index].name)")
                }
                rows[index].keys.removeAll { owners[$0] != nil }
            }
            tables.setKeys(rows.map(\.keys), in: scope)
            if scope == .global { globalOwners = owners }
        }
        // Only a key the user gave a global command can be kept by a pane for itself. Without one there is nothing
        // to say, and naming every command of every pane (`String(describing:)` on each enum case, the first
        // time a type is met a lookup through every protocol conformance in the binary) was a tenth of the
        // work before the explorer's first frame.
        guard !globalOwners.isEmpty else { return (tables, notices) }
        for scope in scopes where scope != .global {
            for row in tables.rows(scope) {
                for key in row.keys {
                    guard let owner = globalOwners[key] else { continue }
                    notices.append("\(key) in \(scope.rawValue) runs \(row.name) there, not \(owner)")
                }
            }
        }
        return (tables, notices)
    }
}
