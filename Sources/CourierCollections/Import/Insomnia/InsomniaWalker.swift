import CourierBody
import Foundation

/// Walks one Insomnia workspace: its top-level requests into a file named after it, each top-level
/// request group into a file of its own, deeper groups as name prefixes.
struct InsomniaWalker {
    let children: [String: [InsomniaImporter.Resource]]
    /// The folder of this workspace's files (`""`, or `Name/` when the export has several workspaces).
    let folder: String
    let workspace: String
    private(set) var files: [ImportedFile] = []
    private(set) var notes: [String] = []
    private var usedNames: Set<String> = []

    init(children: [String: [InsomniaImporter.Resource]], folder: String, workspace: String) {
        self.children = children
        self.folder = folder
        self.workspace = workspace
    }

    /// Insomnia's own order: `metaSortKey`, then the export's.
    func sorted(_ id: String) -> [InsomniaImporter.Resource] {
        (children[id] ?? []).enumerated().sorted { a, b in
            let first = a.element.json["metaSortKey"]?.doubleValue ?? 0
            let second = b.element.json["metaSortKey"]?.doubleValue ?? 0
            return first == second ? a.offset < b.offset : first < second
        }.map(\.element)
    }

    mutating func walk(_ workspace: InsomniaImporter.Resource) {
        var topLevel: [ImportedRequest] = []
        for child in sorted(workspace.id) {
            switch child.type {
            case "request":
                topLevel.append(request(child, prefix: [], variables: []))
            case "request_group":
                var requests: [ImportedRequest] = []
                collect(child, prefix: [], variables: [], into: &requests)
                addFile(child.name.isEmpty ? "folder" : child.name, requests)
            case "environment", "cookie_jar", "api_spec", "unit_test_suite", "proto_file":
                continue
            default:
                notes.append("\(child.path): \(child.type) '\(DataSpelling.oneLine(child.name))' not converted")
            }
        }
        addFile(self.workspace.isEmpty ? "insomnia" : self.workspace, topLevel)
    }

    private mutating func collect(_ group: InsomniaImporter.Resource, prefix: [String],
                                  variables: [ImportedRequest.Field], into requests: inout [ImportedRequest]) {
        var variables = variables
        for (key, value) in group.json["environment"]?.objectValue ?? [] {
            var unconverted: [String] = []
            let text = InsomniaTemplate.text(value.text, unconverted: &unconverted)
            variables.removeAll { $0.name == key }
            variables.append(.init(key, text))
        }
        for child in sorted(group.id) {
            switch child.type {
            case "request": requests.append(request(child, prefix: prefix, variables: variables))
            case "request_group": collect(child, prefix: prefix + [child.name], variables: variables, into: &requests)
            default: notes.append("\(child.path): \(child.type) '\(DataSpelling.oneLine(child.name))' not converted")
            }
        }
    }

    private mutating func request(_ resource: InsomniaImporter.Resource, prefix: [String],
                                  variables: [ImportedRequest.Field]) -> ImportedRequest {
        var converter = InsomniaRequestConverter(path: resource.path)
        var imported = converter.convert(resource.json, name: (prefix + [resource.name]).joined(separator: " / "))
        imported.variables = variables + imported.variables
        notes += converter.notes
        return imported
    }

    private mutating func addFile(_ title: String, _ requests: [ImportedRequest]) {
        guard !requests.isEmpty else { return }
        let stem = ImportWriter.sideFileStem(title)
        var name = stem
        var counter = 2
        while usedNames.contains(name) { name = "\(stem)-\(counter)"; counter += 1 }
        usedNames.insert(name)
        let comment = "Imported from the Insomnia workspace '\(DataSpelling.oneLine(workspace))'."
        files.append(ImportedFile(name: folder + name + ".http", comments: [comment], requests: requests))
    }
}
