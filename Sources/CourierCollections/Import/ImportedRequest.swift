import CourierHTTP
import CourierMessage

/// One request as an importer hands it to `ImportWriter`: every field is data (or a variable the source
/// means), never `.http` text, so the writer alone decides how each field is spelled in the file.
public struct ImportedRequest: Sendable, Hashable {
    /// A header or a variable: a name and its value.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: ImportedText
        public init(_ name: String, _ value: ImportedText) { self.name = name; self.value = value }
    }

    /// `# @name`: how `run #name` and response references reach the request.
    public var name: String?
    /// The text after `###` (an OpenAPI summary); shown where the request has no name.
    public var title: String?
    /// Notes and descriptions, written as comment lines under the name.
    public var comments: [String] = []
    public var method: String
    public var url: ImportedText
    public var headers: [Field] = []
    /// Headers the source has but does not send (Postman's disabled ones), kept as comments.
    public var disabledHeaders: [String] = []
    public var body: ImportedBody = .none
    /// Request-local `@name = value` lines.
    public var variables: [Field] = []
    /// `# @key value` tags Courier acts on (`insecure`, `timeout`).
    public var tags: [String: String] = [:]
    /// Script code for `< {% %}` blocks before the request line and `> {% %}` blocks after the body.
    public var preRequestScripts: [String] = []
    public var responseScripts: [String] = []

    public init(name: String? = nil, title: String? = nil, method: String, url: ImportedText) {
        self.name = name
        self.title = title
        self.method = method
        self.url = url
    }

    /// Sets the header `name` as `HTTPHeaders.set` does: one field, where the first of that name was.
    public mutating func setHeader(_ name: String, _ value: ImportedText) {
        let field = Field(name, value)
        guard let first = headers.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
            headers.append(field)
            return
        }
        headers[first] = field
        headers = headers.enumerated().filter { $0.offset == first || !$0.element.name.caseInsensitiveEquals(name) }
            .map(\.element)
    }

    /// How notes name the request: its name, else its method and URL.
    var label: String {
        [name, title].compactMap { $0 }.first { !DataSpelling.oneLine($0).isEmpty } ?? "\(method) \(url)"
    }
}

/// What an imported request sends.
public enum ImportedBody: Sendable, Hashable {
    case none
    case text(ImportedText)
    /// A file the source names (`curl -d @file`, a Postman file body), sent as it is.
    case file(path: ImportedText)
    /// `multipart/form-data` parts; the importer sets the Content-Type header with the same boundary.
    case multipart(boundary: String, parts: [ImportedPart])
}

/// One part of a multipart body: a text field, or a file embedded by path.
public struct ImportedPart: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case text(ImportedText)
        case file(path: ImportedText)
    }

    public var name: String
    /// The `filename` parameter; nil for a text field.
    public var fileName: String?
    public var contentType: String?
    public var value: Value

    public init(name: String, fileName: String? = nil, contentType: String? = nil, value: Value) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.value = value
    }
}

/// One `.http` file an importer writes: comments and file variables at the top, then the requests.
public struct ImportedFile: Sendable, Hashable {
    /// The file's name, `NAME.http`, unique within the import.
    public var name: String
    public var comments: [String] = []
    public var variables: [ImportedRequest.Field] = []
    public var requests: [ImportedRequest] = []

    public init(name: String, comments: [String] = [], variables: [ImportedRequest.Field] = [],
                requests: [ImportedRequest] = []) {
        self.name = name
        self.comments = comments
        self.variables = variables
        self.requests = requests
    }
}
