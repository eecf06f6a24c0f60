import CourierBody
import CourierHTTP
import Foundation

/// The `.http` files made from a Postman collection, and what could not be converted.
public struct PostmanConversion: Sendable {
    /// One generated file.
    public struct File: Sendable, Hashable {
        /// A file name (no folders), unique within the conversion.
        public var name: String
        public var text: String
    }

    public var files: [File]
    /// Lines such as "Users / Create: test script not converted".
    public var report: [String]
}

/// Converts a Postman Collection v2.1 export. Top-level requests go to a file named after the
/// collection; each top-level folder becomes its own file; deeper folders become sections of that
/// file, their names prefixing the request names. Collection variables become file variables,
/// folder variables become request-local variables, and auth is inherited down the tree. Pre-request and
/// test scripts (the collection's, its folders' and the request's, in that order) become `< {% %}` and
/// `> {% %}` blocks that Courier runs with its `pm` object.
public enum PostmanImporter {
    /// Where a request sits: the names of the folders above it and what they pass down.
    struct Scope {
        /// Folder names that prefix request names (the top folder is the file, so it is not here).
        var path: [String] = []
        /// Every folder name, for the report.
        var trail: [String] = []
        var variables: [VariableDefinition] = []
        var auth: JSONValue?
        /// Script bodies inherited from the collection and folders, outermost first.
        var preRequest: [String] = []
        var tests: [String] = []
    }

    /// Converts the JSON of a Collection v2.1 export into `.http` files and a report of what was left out.
    public static func convert(_ data: Data) throws(CollectionError) -> PostmanConversion {
        guard let root = try? JSONValue.parse(data) else {
            throw .importFailed(source: "Postman collection", reason: "not valid JSON")
        }
        guard let info = root["info"], let items = root["item"]?.arrayValue else {
            throw .importFailed(source: "Postman collection", reason: "expected 'info' and 'item' (Collection v2.1)")
        }
        if let schema = info["schema"]?.stringValue, !schema.contains("v2.") {
            throw .importFailed(source: "Postman collection", reason: "unsupported schema \(schema); export as v2.1")
        }
        let collectionName = info["name"]?.stringValue ?? "collection"
        var report: [String] = []
        let fileVariables = variables(root["variable"], report: &report, at: collectionName)
        var rootScope = Scope(auth: root["auth"])
        addScripts(of: root, to: &rootScope, at: collectionName, report: &report)

        var files: [PostmanConversion.File] = []
        var usedNames: Set<String> = []
        func addFile(_ title: String, _ blocks: [String]) {
            guard !blocks.isEmpty else { return }
            var name = fileName(title)
            var counter = 2
            while usedNames.contains(name) { name = fileName(title) + "-\(counter)"; counter += 1 }
            usedNames.insert(name)
            var header = ["# Imported from the Postman collection '\(collectionName)'."]
            header += fileVariables.map { "@\($0.name) = \($0.value)" }
            files.append(.init(name: name + ".http", text: (header + [""]).joined(separator: "\n")
                                + blocks.joined(separator: "\n")))
        }

        var topLevel: [String] = []
        for item in items {
            if item["item"] != nil {
                var blocks: [String] = []
                let name = item["name"]?.stringValue ?? "folder"
                collect(item, scope: rootScope, into: &blocks, report: &report, isTop: true)
                addFile(name, blocks)
            } else {
                collect(item, scope: rootScope, into: &topLevel, report: &report, isTop: true)
            }
        }
        addFile(collectionName, topLevel)
        return PostmanConversion(files: files, report: report)
    }

    /// Appends the blocks of an item (a request, or a folder and everything in it).
    private static func collect(_ item: JSONValue, scope: Scope, into blocks: inout [String],
                                report: inout [String], isTop: Bool) {
        let name = item["name"]?.stringValue ?? "request"
        if let children = item["item"]?.arrayValue {
            var inner = scope
            // The top folder is the file itself; deeper folders prefix request names.
            if !isTop { inner.path.append(name) }
            inner.trail.append(name)
            let location = inner.trail.joined(separator: " / ")
            inner.variables += variables(item["variable"], report: &report, at: location)
            if let auth = item["auth"] { inner.auth = auth }
            addScripts(of: item, to: &inner, at: location, report: &report)
            for child in children { collect(child, scope: inner, into: &blocks, report: &report, isTop: false) }
            return
        }
        let location = (scope.trail + [name]).joined(separator: " / ")
        var scope = scope
        addScripts(of: item, to: &scope, at: location, report: &report)
        guard let request = item["request"] else {
            report.append("\(location): no request, skipped")
            return
        }
        if let responses = item["response"]?.arrayValue, !responses.isEmpty {
            report.append("\(location): \(responses.count) saved example response(s) not converted")
        }
        var converter = PostmanRequestConverter(location: location, scope: scope)
        let template = converter.convert(request, name: (scope.path + [name]).joined(separator: " / "))
        report += converter.report
        var lines = converter.descriptionLines.map { "# " + $0 }
        lines += RequestWriter.renderNew(template, eol: "\n").map(\.content)
        // Disabled headers stay visible as comments among the headers.
        if !converter.disabledHeaders.isEmpty, let requestLine = lines.firstIndex(of: RequestWriter.requestLine(template)) {
            lines.insert(contentsOf: converter.disabledHeaders.map { "# disabled: \($0)" }, at: requestLine + 1)
        }
        if let requestLine = lines.firstIndex(of: RequestWriter.requestLine(template)) {
            let scripts = scope.preRequest.flatMap { ["< {%"] + indented($0) + ["%}"] }
            lines.insert(contentsOf: scripts, at: requestLine)
        }
        for script in scope.tests { lines += [""] + ["> {%"] + indented(script) + ["%}"] }
        blocks.append(lines.joined(separator: "\n") + "\n")
    }

    static func variables(_ value: JSONValue?, report: inout [String], at location: String) -> [VariableDefinition] {
        (value?.arrayValue ?? []).compactMap { variable in
            guard let key = variable["key"]?.stringValue ?? variable["id"]?.stringValue else { return nil }
            if variable["disabled"]?.boolValue == true { return nil }
            guard key.allSatisfy(HTTPFileParser.isVariableNameCharacter) else {
                report.append("\(location): variable '\(key)' has characters .http names cannot hold, skipped")
                return nil
            }
            return VariableDefinition(name: key, value: variable["value"].map { $0.text } ?? "")
        }
    }

    /// Adds an item's `event` scripts to the scope its requests inherit. A script that would end its
    /// `{% %}` block early or split the file (`%}`, a `###` line) is reported and left out.
    static func addScripts(of item: JSONValue, to scope: inout Scope, at location: String,
                           report: inout [String]) {
        for event in item["event"]?.arrayValue ?? [] {
            let exec = event["script"]?["exec"]
            let lines = exec?.arrayValue?.compactMap(\.stringValue)
                ?? exec?.stringValue.map { $0.components(separatedBy: "\n") } ?? []
            guard lines.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else { continue }
            let isPreRequest = event["listen"]?.stringValue == "prerequest"
            let kind = isPreRequest ? "pre-request script" : "test script"
            let breaksBlock = lines.contains {
                $0.contains("%}") || $0.trimmingCharacters(in: .whitespaces).hasPrefix("###")
            }
            guard !breaksBlock else {
                report.append("\(location): \(kind) contains '%}' or a '###' line, not converted")
                continue
            }
            if isPreRequest { scope.preRequest.append(lines.joined(separator: "\n")) } else {
                scope.tests.append(lines.joined(separator: "\n"))
            }
        }
    }

    /// Script lines indented by four spaces inside their `{% %}` block (blank lines stay blank).
    static func indented(_ script: String) -> [String] {
        script.components(separatedBy: "\n").map {
            $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : "    " + $0
        }
    }

    /// A file name from a folder or collection name: letters, digits, spaces, dots, dashes and underscores.
    static func fileName(_ title: String) -> String {
        let kept = title.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) || " ._-".unicodeScalars.contains(scalar) ? Character(scalar) : "-"
        }
        let name = String(kept).trimmingCharacters(in: CharacterSet(charactersIn: " .-"))
        return name.isEmpty ? "collection" : name
    }
}
