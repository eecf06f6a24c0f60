import Foundation

/// A private environment file that cannot be read (encrypted with git-crypt until `git-crypt unlock`, or not
/// JSON) is a warning naming it, not the end of the run: requests that need none of its values still go.
extension EnvironmentSet {
    /// The first bytes git-crypt writes into a file it encrypted.
    static let gitCryptMagic: [UInt8] = Array("\0GITCRYPT\0".utf8)

    /// An empty private layer standing for `url`, with a warning saying why it was not read; nil when `error` is
    /// one a readable file would give too (a structure error in valid JSON stays an error).
    static func unreadablePrivateLayer(_ url: URL, error: CollectionError) -> Layer? {
        let data = (try? Data(contentsOf: url)) ?? Data()
        let reason: String
        if data.starts(with: gitCryptMagic) {
            reason = "it is encrypted with git-crypt (run 'git-crypt unlock')"
        } else if case .badEnvironmentFile(_, let why) = error,
                  why.hasPrefix("not valid JSON") || why.hasPrefix("cannot read") {
            reason = why.hasPrefix("cannot read") ? why : "it is not JSON"
        } else {
            return nil
        }
        var layer = Layer(path: url.path, isPrivate: true, environments: [:])
        layer.unreadReason = reason
        layer.notes = [Diagnostic(file: url.path, line: 1, message: "not read: \(reason); requests that need its "
                                  + "values fail as unknown variables", severity: .warning)]
        return layer
    }
}
