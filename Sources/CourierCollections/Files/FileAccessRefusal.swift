import Foundation

/// Why a request may not read or write a file its collection names (`CollectionFileAccess`), and, when
/// the user can allow it, which file to allow.
public struct FileAccessRefusal: Error, Sendable, Hashable {
    /// What the request tried.
    public enum Access: String, Sendable, Hashable {
        /// `< file` (a body, a multipart part) or a `< ./handler.js` script.
        case read
        /// `>> file` or `>>! file` somewhere a collection never writes.
        case write
        /// `>>! file` over a file Courier did not write.
        case overwrite
    }

    public var access: Access
    /// The path as the request wrote it (variables substituted).
    public var path: String
    /// The file to allow (absolute, links resolved) when the user may allow it; nil when nothing can.
    public var file: String?
    public var reason: String
    /// The request's name, or its method and URL.
    public var request: String
    /// The line of the `>>` directive, or of the script; nil to find the line that names `path`.
    public var line: Int?

    public init(access: Access, path: String, file: String? = nil, reason: String, request: String,
                line: Int? = nil) {
        self.access = access
        self.path = path
        self.file = file
        self.reason = reason
        self.request = request
        self.line = line
    }

    /// Whether the user can allow it (`--allow-read`, `--allow-overwrite`, a yes in the explorer).
    public var canBeAllowed: Bool { file != nil }

    /// One sentence naming the request, the file and why.
    public var message: String {
        let what = switch access {
        case .read: "cannot read \(path)"
        case .write: "did not save the response to \(path)"
        case .overwrite: "did not replace \(path)"
        }
        return "request '\(request)': \(what): \(reason)"
    }

    /// What to pass to `courier run` to allow it, starting with "; ", or "" when nothing allows it.
    public var commandLineHint: String {
        guard let file else { return "" }
        return switch access {
        case .read: "; pass --allow-read \(file) to send it"
        case .overwrite: "; pass --allow-overwrite to replace it"
        case .write: ""
        }
    }

    /// The explorer's yes/no question about it.
    public var question: String {
        switch access {
        case .read: "'\(request)' reads a file outside the collection's folder: \(file ?? path) Send it?"
        case .overwrite:
            "'\(request)' saves its response over a file Courier did not write: \(file ?? path) Replace it?"
        case .write: message
        }
    }
}

extension CollectionFileAccess.Decision {
    /// The file allowed; else the refusal this decision stands for, as an error of `request`.
    public func file(_ access: FileAccessRefusal.Access, path: String, request: String,
                     line: Int?) throws(CollectionError) -> URL {
        switch self {
        case .allowed(let file):
            return file
        case .needsConfirmation(let file, let reason):
            throw .fileAccess(FileAccessRefusal(access: access, path: path, file: file.path, reason: reason,
                                                request: request, line: line))
        case .refused(let reason):
            throw .fileAccess(FileAccessRefusal(access: access, path: path, reason: reason, request: request,
                                                line: line))
        }
    }
}
