import Glibc

/// Which terminal description curses is started with. A terminal that says it shows 24-bit colour
/// (`COLORTERM=truecolor`) but whose `TERM` names a 256-colour description gets that description's
/// direct-colour sibling (`xterm-256color` → `xterm-direct`) when the system has one: curses can only
/// write 24-bit colours through a description that expresses them.
public enum TerminfoDatabase {
    /// The description to start curses with for `term` in `environment`.
    public static func preferredName(term: String, environment: [String: String]) -> String {
        let wantsTrueColor = ["truecolor", "24bit"].contains(environment["COLORTERM"]?.lowercased() ?? "")
        guard wantsTrueColor, term.hasSuffix("-256color") else { return term }
        let direct = String(term.dropLast("-256color".count)) + "-direct"
        return exists(direct, environment: environment) ? direct : term
    }

    /// Whether a compiled description named `name` is in one of the folders curses searches.
    public static func exists(_ name: String, environment: [String: String]) -> Bool {
        guard let first = name.unicodeScalars.first, !name.contains("/") else { return false }
        let letter = String(first), hex = String(first.value, radix: 16)
        return folders(environment).contains { folder in
            access("\(folder)/\(letter)/\(name)", R_OK) == 0 || access("\(folder)/\(hex)/\(name)", R_OK) == 0
        }
    }

    /// curses' search order: `$TERMINFO`, `~/.terminfo`, `$TERMINFO_DIRS`, then the system folders.
    static func folders(_ environment: [String: String]) -> [String] {
        var folders: [String] = []
        if let custom = environment["TERMINFO"], !custom.isEmpty { folders.append(custom) }
        if let home = environment["HOME"], !home.isEmpty { folders.append(home + "/.terminfo") }
        if let list = environment["TERMINFO_DIRS"] {
            folders += list.split(separator: ":").map(String.init)
        }
        return folders + ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
    }
}
