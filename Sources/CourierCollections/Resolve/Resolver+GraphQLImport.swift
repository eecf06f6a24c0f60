import Foundation

/// httpyac's GraphQL import: a body whose first line is `gql [NAME] < ./query.gql` sends that file's document
/// (its variables substituted) as the query, NAME as the operation name, and the JSON after it as variables.
extension Resolver {
    /// The GraphQL body of a `gql … < file` request; nil when the body does not start with such a line.
    func graphQLImport(_ text: String, template: RequestTemplate,
                       interpolator: inout Interpolator) throws(CollectionError) -> Data? {
        guard let (name, path) = Self.gqlImportLine(text) else { return nil }
        let document = try fileBody(.file(path: path, substituteVariables: true), request: template,
                                    interpolator: &interpolator)
        let rest = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.drop { $0 != "\n" }
        let variables = try interpolator.expand(String(rest)).trimmingCharacters(in: .whitespacesAndNewlines)
        return try Self.graphQLBody(String(decoding: document, as: UTF8.self) + "\n\n" + variables,
                                    request: template.displayName, fragments: file.graphQLFragments,
                                    operationName: name)
    }

    /// NAME (when written) and the path of a first line `gql [NAME] < PATH`; nil for any other text.
    static func gqlImportLine(_ text: String) -> (name: String?, path: String)? {
        let first = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.prefix { $0 != "\n" }
        let words = first.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard words.first == "gql", let arrow = words.firstIndex(of: "<"), arrow <= 2, arrow + 1 < words.count
        else { return nil }
        return (arrow == 2 ? words[1] : nil, words[(arrow + 1)...].joined(separator: " "))
    }
}
