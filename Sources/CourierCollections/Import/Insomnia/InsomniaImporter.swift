import CourierBody
import Foundation

/// What `courier import insomnia` and `courier import bruno` write: `.http` files, the public and private
/// environment files, and notes on what was left out.
public struct CollectionConversion: Sendable {
    public var output: ImportOutput
    /// `http-client.env.json`, when the source has environments.
    public var environment: String?
    /// `http-client.private.env.json`, when it has private values (or secrets to fill in).
    public var privateEnvironment: String?
    public var notes: [String]

    /// Every file to write, environment files included.
    public var files: [ImportOutput.File] {
        output.files + [environment.map { .init(name: EnvironmentSet.publicFileName, text: $0) },
                        privateEnvironment.map { .init(name: EnvironmentSet.privateFileName, text: $0) }]
            .compactMap { $0 }
    }
}

/// Converts an Insomnia v4 export (`__export_format: 4`). Each workspace's top-level requests go to a file
/// named after it and each top-level request group to a file of its own; deeper groups prefix request names
/// (`Users / Admin / List`) and pass their environment down as request variables. The base environment
/// becomes `$shared`, its sub-environments named environments (private ones in the private file).
public enum InsomniaImporter {
    /// One resource of the export, with where it is (`resources[3]`) for notes.
    struct Resource {
        var json: JSONValue
        var path: String
        var id: String { json["_id"]?.stringValue ?? "" }
        var parent: String? { json["parentId"]?.stringValue }
        var type: String { json["_type"]?.stringValue ?? "" }
        var name: String { json["name"]?.stringValue ?? "" }
    }

    public static func convert(_ data: Data, source: String = "Insomnia export") throws(CollectionError)
        -> CollectionConversion {
        let root = try ImportJSON.parse(data, source: source)
        guard let list = root["resources"]?.arrayValue else {
            throw .importFailed(source: source,
                                reason: "expected an Insomnia export with 'resources' (Export Data, v4)")
        }
        if let format = root["__export_format"]?.doubleValue, format != 4 {
            throw .importFailed(source: source, reason: "export format \(Int(format)); export as Insomnia v4 (JSON)")
        }
        var notes: [String] = []
        var resources: [Resource] = []
        for (index, json) in list.enumerated() {
            let resource = Resource(json: json, path: "resources[\(index)]")
            guard !resource.id.isEmpty, !resource.type.isEmpty else {
                notes.append("\(resource.path): no _id or _type; left out")
                continue
            }
            resources.append(resource)
        }
        let children = Dictionary(grouping: resources.filter { $0.parent != nil }, by: { $0.parent ?? "" })
        let workspaces = resources.filter { $0.type == "workspace" }
        let known = Set(resources.map(\.id))
        for resource in resources where resource.type == "request" && !known.contains(resource.parent ?? "") {
            notes.append("\(resource.path): its parent \(resource.parent ?? "(none)") is not in the export; left out")
        }
        var files: [ImportedFile] = []
        var environments = InsomniaEnvironments()
        for workspace in workspaces {
            let folder = workspaces.count > 1 ? ImportWriter.sideFileStem(workspace.name) + "/" : ""
            var walker = InsomniaWalker(children: children, folder: folder, workspace: workspace.name)
            walker.walk(workspace)
            files += walker.files
            notes += walker.notes
            for base in (children[workspace.id] ?? []) where base.type == "environment" {
                environments.add(base: base, subEnvironments: children[base.id] ?? [], notes: &notes)
            }
        }
        if workspaces.count > 1 { notes.append("several workspaces: each went to a folder of its own; their "
                                               + "environments were merged into one pair of environment files") }
        let output = ImportWriter.write(files)
        return CollectionConversion(output: output, environment: environments.publicFile,
                                    privateEnvironment: environments.privateFile, notes: notes + output.notes)
    }
}
