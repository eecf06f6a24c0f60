/// Something wrong with the loaded collection: a malformed line (`file:line: message`, its request
/// skipped) or a file-wide problem such as an unreadable environment file.
public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// The `.http` file, as `CollectionFile.path` names it; nil for a problem of no one file.
    public var file: String?
    /// 1-based.
    public var line: Int?
    public var message: String

    public init(file: String? = nil, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, the shape editors jump to.
    public var description: String {
        guard let file else { return message }
        return line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}
