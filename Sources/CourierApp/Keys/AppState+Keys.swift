extension AppState {
    /// Puts the user's rebindings into the key tables. A bad `"keys"` object or a key given to two commands
    /// of one scope leaves every default key in place and says why in the status bar (file and line); keys
    /// taken over from another command are listed there too. Returns the error, if any.
    @discardableResult
    public mutating func useKeys(_ settings: KeySettings) -> SettingsError? {
        do {
            let (tables, notices) = try KeyTables(panes: panes).rebound(by: settings)
            keys = tables
            webSocketPane.connectKey = keys.spelling(of: .webSocket(.connect))
            if !notices.isEmpty {
                // The file's name only: the notices are what must fit the status bar.
                let name = settings.file.split(separator: "/").last.map(String.init) ?? settings.file
                status = StatusMessage("Keys from \(name): " + notices.joined(separator: "; "))
            }
            return nil
        } catch {
            keys = KeyTables(panes: panes)
            webSocketPane.connectKey = keys.spelling(of: .webSocket(.connect))
            // Said first: the rest of the line may not fit the status bar.
            status = StatusMessage("Default keys in use: \(error)", kind: .error)
            return error
        }
    }
}
