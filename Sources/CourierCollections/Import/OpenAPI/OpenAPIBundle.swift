import Foundation

/// A description split across files and URLs made into one document: every `$ref` to another document
/// (`./paths/users.yaml`, `schemas.json#/components/schemas/User`, `https://…/common.yaml#/Error`) is read
/// relative to the document that holds it, and what it points at is copied under `x-courier-bundled` in the
/// root and referred to there (`#/x-courier-bundled/r3`), with its own references made local the same way.
/// Each target is copied once, so a cycle across files is a cycle of local references, which the importer
/// already cuts. What cannot be read is noted and its reference left as it was.
struct OpenAPIBundle {
    /// Reads one document: a file or an http(s) URL, as the caller's policy allows. Throws the reason it may not.
    typealias Load = (URL) throws(CollectionError) -> Data

    /// The member of the root that holds the copied targets.
    static let member = "x-courier-bundled"
    /// How many references may lead into one another before the rest are left out.
    static let maximumDepth = 64
    /// How many targets (and documents) a description may pull in.
    static let maximumTargets = 2_000
    static let maximumDocuments = 200

    private let load: Load
    private var documents: [URL: Any] = [:]
    private var failedDocuments: Set<URL> = []
    private var keys: [String: String] = [:]
    private var bundled: [String: Any] = [:]
    private(set) var notes: [String] = []

    /// The root document, read from `location`, with every external reference made local.
    static func bundle(_ root: Any, location: URL, load: @escaping Load) -> (root: Any, notes: [String]) {
        var bundle = OpenAPIBundle(load: load)
        bundle.documents[location.absoluteURL] = root
        let rewritten = bundle.rewrite(root, base: location.absoluteURL, depth: 0)
        guard !bundle.bundled.isEmpty, var object = rewritten as? [String: Any] else {
            return (rewritten, bundle.notes)
        }
        object[member] = bundle.bundled
        return (object, bundle.notes)
    }

    private init(load: @escaping Load) { self.load = load }

    /// `value` with every reference to another document replaced by one to its copy.
    private mutating func rewrite(_ value: Any, base: URL, depth: Int) -> Any {
        if var object = value as? [String: Any] {
            if let ref = object["$ref"] as? String {
                if let local = localReference(ref, base: base, depth: depth) { object["$ref"] = local }
                return object
            }
            for (key, member) in object { object[key] = rewrite(member, base: base, depth: depth) }
            return object
        }
        if let array = value as? [Any] { return array.map { rewrite($0, base: base, depth: depth) } }
        return value
    }

    /// The local reference for `ref` written in the document at `base`; nil to leave it as it is (a reference
    /// inside the root document, or one that could not be followed).
    private mutating func localReference(_ ref: String, base: URL, depth: Int) -> String? {
        let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let address = String(parts[0])
        let pointer = parts.count > 1 ? String(parts[1]) : ""
        let isRoot = depth == 0 && address.isEmpty
        if isRoot { return nil }
        guard let document = address.isEmpty ? base : URL(string: address, relativeTo: base)?.absoluteURL else {
            note("$ref \(ref) is not a file name or URL")
            return nil
        }
        let id = document.absoluteString + "#" + pointer
        if let key = keys[id] { return "#/\(Self.member)/\(key)" }
        guard depth < Self.maximumDepth else {
            note("$ref \(ref): references lead into one another more than \(Self.maximumDepth) deep; not followed")
            return nil
        }
        guard keys.count < Self.maximumTargets else {
            note("more than \(Self.maximumTargets) $ref targets in other documents; the rest were not followed")
            return nil
        }
        guard let root = self.document(document, ref: ref) else { return nil }
        guard let target = Self.value(at: pointer, in: root) else {
            note("$ref \(ref) points at nothing in \(Self.display(document))")
            return nil
        }
        let key = "r\(keys.count + 1)"
        keys[id] = key
        bundled[key] = rewrite(target, base: document, depth: depth + 1)
        return "#/\(Self.member)/\(key)"
    }

    /// The parsed document at `url`, read once; nil (and noted once) when it cannot be read.
    private mutating func document(_ url: URL, ref: String) -> Any? {
        let key = url.absoluteURL
        if let known = documents[key] { return known }
        if failedDocuments.contains(key) { return nil }
        guard documents.count < Self.maximumDocuments else {
            note("more than \(Self.maximumDocuments) documents; $ref \(ref) was not followed")
            return nil
        }
        do throws(CollectionError) {
            let parsed = try OpenAPIDocument.parse(try load(url), source: Self.display(url))
            documents[key] = parsed
            return parsed
        } catch {
            failedDocuments.insert(key)
            note("$ref \(ref) was not followed: \(error)")
            return nil
        }
    }

    private mutating func note(_ text: String) { if !notes.contains(text) { notes.append(text) } }

    /// The value at a JSON pointer (`/components/schemas/User`, or "" for the whole document).
    static func value(at pointer: String, in root: Any) -> Any? {
        var current = root
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: true) {
            let token = (String(raw).removingPercentEncoding ?? String(raw))
                .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = current as? [String: Any], let next = object[token] {
                current = next
            } else if let array = current as? [Any], let index = Int(token), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// A file's path, or a URL as written.
    static func display(_ url: URL) -> String { url.isFileURL ? url.path : url.absoluteString }
}
