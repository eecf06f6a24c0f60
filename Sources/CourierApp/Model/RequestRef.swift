/// Where a saved request lives: its file and its position among that file's requests.
public struct RequestRef: Sendable, Hashable, CustomStringConvertible {
    /// The path of the `.http` file.
    public var file: String
    /// The request's index in the file, from 0.
    public var index: Int

    public init(file: String, index: Int) {
        self.file = file
        self.index = index
    }

    public var description: String { "\(file)#\(index)" }
}
