import CourierBody
import CourierHTTP
import CourierSecurity
import Foundation

/// The `.http` files made from a Postman collection, and what could not be converted.
public struct PostmanConversion: Sendable {
    /// The `.http` files (one per top-level folder), and side files holding bodies that cannot stand in them.
    public var files: [ImportOutput.File]
    /// Lines such as "Users / Create: test script not converted".
    public var report: [String]
    /// What was changed to be written as data (a name's line breaks, a header that is not a token).
    public var notes: [String]
    /// Variables that go to `$shared` rather than the files: collection variables an imported environment also
    /// defines, so the environment's value wins as in Postman (a file variable would beat every environment),
    /// and secrets (collection variables Postman marks secret or whose names say so, credentials the auth
    /// spells out), kept in the private file so no `.http` file holds one.
    public var sharedVariables: [PostmanVariableExport.Value] = []
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
        var variables: [ImportedRequest.Field] = []
        var auth: JSONValue?
        /// Script bodies inherited from the collection and folders, outermost first.
        var preRequest: [String] = []
        var tests: [String] = []
        /// `protocolProfileBehavior` settings from the collection and folders, the innermost winning.
        var behavior: [String: JSONValue] = [:]
    }

    /// Converts the JSON of a Collection v2.1 export into `.http` files and a report of what was left out.
    /// Collection variables named in `environmentNames` (defined by environments imported with it) are
    /// handed back as `sharedVariables` instead of becoming file variables.
    public static func convert(_ data: Data, environmentNames: Set<String> = []) throws(CollectionError)
        -> PostmanConversion {
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
        let allVariables = variables(root["variable"], report: &report, at: collectionName)
        // A variable Postman marks secret, or whose name says it is one, goes to the private file, not the .http.
        let secretTyped = Set((root["variable"]?.arrayValue ?? []).filter { $0["type"]?.stringValue == "secret" }
            .compactMap { $0["key"]?.stringValue })
        func isSecret(_ name: String) -> Bool { secretTyped.contains(name) || SecretPolicy.isSecretParameter(name) }
        let fileVariables = allVariables.filter { !environmentNames.contains($0.name) && !isSecret($0.name) }
        var shared = allVariables.filter { environmentNames.contains($0.name) || isSecret($0.name) }.map { variable in
            PostmanVariableExport.Value(key: variable.name, value: variable.value, isSecret: isSecret(variable.name))
        }
        var secrets = PrivateVariables()
        var rootScope = Scope(auth: root["auth"])
        PostmanBehavior.merge(root["protocolProfileBehavior"], into: &rootScope.behavior)
        addScripts(of: root, to: &rootScope, at: collectionName, report: &report)

        // One file per top-level folder and one for the requests outside folders, in the collection's order (the
        // loose requests where the first of them stands), so that a run of the folder follows Postman's runner.
        var groups: [(title: String, requests: [ImportedRequest])] = []
        var looseGroup: Int?
        for item in items {
            if item["item"] != nil {
                var requests: [ImportedRequest] = []
                collect(item, scope: rootScope, into: &requests, report: &report, secrets: &secrets, isTop: true)
                if !requests.isEmpty { groups.append((item["name"]?.stringValue ?? "folder", requests)) }
            } else {
                let group = looseGroup ?? groups.count
                if looseGroup == nil { groups.append((collectionName, [])); looseGroup = group }
                collect(item, scope: rootScope, into: &groups[group].requests, report: &report, secrets: &secrets,
                        isTop: true)
            }
        }
        groups.removeAll { $0.requests.isEmpty }
        let files = fileNames(groups.map(\.title)).enumerated().map { index, name in
            ImportedFile(name: name, comments: ["Imported from the Postman collection '\(DataSpelling.oneLine(collectionName))'."],
                         variables: fileVariables, requests: groups[index].requests)
        }
        let output = ImportWriter.write(files)
        shared += secrets.values.map { PostmanVariableExport.Value(key: $0.name, value: .data($0.value), isSecret: true) }
        return PostmanConversion(files: output.files, report: report, notes: output.notes, sharedVariables: shared)
    }

    /// Appends the requests of an item (a request, or a folder and everything in it).
    private static func collect(_ item: JSONValue, scope: Scope, into requests: inout [ImportedRequest],
                                report: inout [String], secrets: inout PrivateVariables, isTop: Bool) {
        let name = item["name"]?.stringValue ?? "request"
        if let children = item["item"]?.arrayValue {
            var inner = scope
            // The top folder is the file itself; deeper folders prefix request names.
            if !isTop { inner.path.append(name) }
            inner.trail.append(name)
            let location = inner.trail.joined(separator: " / ")
            inner.variables += variables(item["variable"], report: &report, at: location)
            if let auth = PostmanAuth.own(item["auth"]) { inner.auth = auth }
            PostmanBehavior.merge(item["protocolProfileBehavior"], into: &inner.behavior)
            addScripts(of: item, to: &inner, at: location, report: &report)
            for child in children {
                collect(child, scope: inner, into: &requests, report: &report, secrets: &secrets, isTop: false)
            }
            return
        }
        let location = (scope.trail + [name]).joined(separator: " / ")
        var scope = scope
        addScripts(of: item, to: &scope, at: location, report: &report)
        PostmanBehavior.merge(item["protocolProfileBehavior"], into: &scope.behavior)
        guard let request = item["request"] else {
            report.append("\(location): no request, skipped")
            return
        }
        if let responses = item["response"]?.arrayValue, !responses.isEmpty {
            report.append("\(location): \(responses.count) saved example response(s) not converted")
        }
        var converter = PostmanRequestConverter(location: location, scope: scope, secrets: secrets)
        var imported = converter.convert(request, name: (scope.path + [name]).joined(separator: " / "))
        secrets = converter.secrets
        PostmanBehavior.apply(scope.behavior, to: &imported, at: location, report: &converter.report)
        report += converter.report
        imported.preRequestScripts = scope.preRequest
        imported.responseScripts = scope.tests
        requests.append(imported)
    }

    static func variables(_ value: JSONValue?, report: inout [String], at location: String) -> [ImportedRequest.Field] {
        (value?.arrayValue ?? []).compactMap { variable in
            guard let key = variable["key"]?.stringValue ?? variable["id"]?.stringValue else { return nil }
            if variable["disabled"]?.boolValue == true { return nil }
            guard DataSpelling.isVariableName(key) else {
                report.append("\(location): variable '\(key)' has characters .http names cannot hold, skipped")
                return nil
            }
            return ImportedRequest.Field(key, ImportedText(template: variable["value"].map { $0.text } ?? ""))
        }
    }

    /// Adds an item's `event` scripts to the scope its requests inherit. A script that would end its
    /// `{% %}` block early or split the file (`%}`, a `###` line) is reported and left out.
    static func addScripts(of item: JSONValue, to scope: inout Scope, at location: String,
                           report: inout [String]) {
        // A disabled script is one Postman does not run.
        for event in item["event"]?.arrayValue ?? [] where event["disabled"]?.boolValue != true {
            let exec = event["script"]?["exec"]
            // Split at each "\n" scalar (a CRLF is one Character), and a script saved on Windows ends its lines
            // with CRLF: the CR is part of the line ending, not code.
            let lines = (exec?.arrayValue?.compactMap(\.stringValue)
                ?? exec?.stringValue.map { $0.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { String(String.UnicodeScalarView($0)) } } ?? [])
                .map { line in
                    line.unicodeScalars.last == "\r" ? String(String.UnicodeScalarView(line.unicodeScalars.dropLast())) : line
                }
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

    /// The `.http` file names of groups in order: unique, and numbered (`01 Auth.http`) when there are several,
    /// since `courier run` and the explorer take a folder's files in name order.
    static func fileNames(_ titles: [String]) -> [String] {
        var used: Set<String> = []
        let width = max(2, String(titles.count).count)
        return titles.enumerated().map { index, title in
            var name = fileName(title)
            var counter = 2
            while used.contains(name) { name = fileName(title) + "-\(counter)"; counter += 1 }
            used.insert(name)
            guard titles.count > 1 else { return name + ".http" }
            let number = String(index + 1)
            return String(repeating: "0", count: width - number.count) + number + " " + name + ".http"
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
