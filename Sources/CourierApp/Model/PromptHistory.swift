import Foundation

/// What each kind of prompt was given this session, oldest first, for ↑/↓ in the next prompt of that kind.
/// Secrets are never kept: a passphrase prompt and `# @prompt` answers are not recorded.
public struct PromptHistory: Sendable, Hashable {
    /// The kinds of prompt that keep a history of their own.
    public enum Kind: String, Sendable, Hashable {
        case search, filter, goToLine, requestName, fileName
    }

    private var entries: [Kind: [String]] = [:]

    /// Entries kept per kind; older ones fall out.
    public static let limit = 100

    public init() {}

    /// The entries of `kind`, oldest first.
    public subscript(kind: Kind) -> [String] { entries[kind] ?? [] }

    /// Keeps `text` as the newest entry of `kind` (once: an earlier copy moves to the end); blank text is not kept.
    public mutating func record(_ text: String, in kind: Kind) {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        var list = entries[kind] ?? []
        list.removeAll { $0 == text }
        list.append(text)
        entries[kind] = Array(list.suffix(Self.limit))
    }
}
