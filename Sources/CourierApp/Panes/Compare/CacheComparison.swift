import CourierBody
import CourierHTTP
import CourierMessage
import Foundation

/// What changed between a stored response and its revalidation, worked out once for the compare
/// pane: the status of each side, header changes, the body unchanged or a line diff, and the cost.
public struct CacheComparison: Sendable, Hashable {
    /// One side of the comparison.
    public struct Side: Sendable, Hashable {
        public var status: Int
        public var reason: String
        public var decision: CacheDecision
        public var age: Double?
        public var ttl: Double?
        public var bodyBytes: Int

        /// One side from a response and its cache report.
        public init(_ response: HTTPResponse) {
            status = response.status
            reason = response.reason
            decision = response.cache.decision
            age = response.cache.age
            ttl = response.cache.ttl
            bodyBytes = response.body.size
        }
    }

    /// The body compared line by line.
    public enum BodyChange: Sendable, Hashable {
        case unchanged(bytes: Int)
        case lines([LineDiff.Line])
        /// Too large (or binary) to diff line by line; sizes only.
        case differs(oldBytes: Int, newBytes: Int)
    }

    public var before: Side
    public var after: Side
    public var validationStatus: Int
    public var headerChanges: [HeaderDiff.Change]
    public var body: BodyChange
    public var bytesTransferred: Int
    public var fullFetchBytes: Int
    public var validationSeconds: Double
    public var fullFetchSeconds: Double
    /// Fields the cache did not store because they carry secrets (`Set-Cookie`).
    public var withheld: [String]

    /// Bodies above this many bytes are compared by content only, not diffed by line.
    public static let diffLimit = 256 * 1024

    /// Works out the comparison of one validation.
    public init(_ revalidation: CacheRevalidation) {
        before = Side(revalidation.before)
        after = Side(revalidation.after)
        validationStatus = revalidation.validationStatus
        // A field the cache withheld is not a change of the resource, and its value is a secret.
        let withheldNames = Set(revalidation.withheldFields.map { $0.lowercased() })
        var after = revalidation.after.headers
        for name in withheldNames { after.remove(name) }
        headerChanges = Self.headerChanges(revalidation.before.headers, after)
        let contentType = revalidation.after.headers["Content-Type"] ?? revalidation.before.headers["Content-Type"]
        body = Self.bodyChange(revalidation.before.body, revalidation.after.body, contentType: contentType)
        bytesTransferred = revalidation.bytesTransferred
        fullFetchBytes = revalidation.fullFetchBytes
        validationSeconds = revalidation.validationSeconds
        fullFetchSeconds = revalidation.fullFetchSeconds
        withheld = revalidation.withheldFields
    }

    /// Bytes the validation spared against fetching the full response again.
    public var bytesSaved: Int { validationStatus == 304 ? max(0, fullFetchBytes - bytesTransferred) : 0 }
    /// Seconds the validation spared against the stored full fetch (negative when slower).
    public var secondsSaved: Double { validationStatus == 304 ? fullFetchSeconds - validationSeconds : 0 }

    /// Fields compared by lower-cased name, all values of a name joined; order follows the newer response.
    /// Age is the cache's own bookkeeping, shown on each side instead.
    static func headerChanges(_ old: HTTPHeaders, _ new: HTTPHeaders) -> [HeaderDiff.Change] {
        func fields(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
            headers.filter { $0.name.lowercased() != "age" }.map { (name: $0.name, value: $0.value) }
        }
        return HeaderDiff(old: fields(old), new: fields(new)).changes
    }

    static func bodyChange(_ old: ResponseBody, _ new: ResponseBody, contentType: String? = nil) -> BodyChange {
        guard old.size <= diffLimit, new.size <= diffLimit,
              let oldData = try? old.readAll(), let newData = try? new.readAll() else {
            return .differs(oldBytes: old.size, newBytes: new.size)
        }
        if oldData == newData { return .unchanged(bytes: oldData.count) }
        guard let oldText = String(data: oldData, encoding: .utf8), let newText = String(data: newData, encoding: .utf8)
        else { return .differs(oldBytes: oldData.count, newBytes: newData.count) }
        // Minified JSON is one line: diffing it as text says only "line 1 changed". Both sides are laid out
        // by the viewer's pretty printer first, so the diff names the values that changed.
        if let oldLines = prettyLines(oldData, contentType: contentType),
           let newLines = prettyLines(newData, contentType: contentType) {
            return .lines(LineDiff.lines(old: oldLines, new: newLines))
        }
        func split(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        return .lines(LineDiff.lines(old: split(oldText), new: split(newText)))
    }

    /// The body as the Response pane's pretty JSON lines; nil when it is not valid JSON.
    static func prettyLines(_ data: Data, contentType: String?) -> [String]? {
        guard MediaKind.detect(contentType: contentType, prefix: data.prefix(4_096)).category == .json else { return nil }
        let document = PrettyJSONDocument(data: data)
        document.indexAll()
        guard document.failure == nil else { return nil }
        return (0..<document.lineCount).map { document.line($0) }
    }
}
