/// Why a theme file was not used.
public enum ThemeError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case badValue(file: String, key: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason): "Theme \(file): \(reason)"
        case .badValue(let file, let key, let reason): "Theme \(file): key '\(key)': \(reason)"
        }
    }
}
