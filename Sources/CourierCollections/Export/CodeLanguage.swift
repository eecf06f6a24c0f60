import Foundation

/// The languages a saved request can be exported to, by the word `courier export` takes.
public enum CodeLanguage: String, CaseIterable, Sendable, Hashable {
    case curl, httpie, python, js, go, kotlin, swift

    /// What the code uses, as menus and help name it.
    public var title: String {
        switch self {
        case .curl: "curl"
        case .httpie: "HTTPie"
        case .python: "Python (requests)"
        case .js: "JavaScript (fetch)"
        case .go: "Go (net/http)"
        case .kotlin: "Kotlin (OkHttp)"
        case .swift: "Swift (URLSession)"
        }
    }

    /// The code for a resolved request.
    ///
    /// - Parameters:
    ///   - main: a complete program that sends the request and prints the body (for Swift with `models`,
    ///     the decoded value).
    ///   - models: Swift only: `Codable` models of a response, which the function then decodes.
    public func code(for resolved: ResolvedRequest, context: VariableContext, baseFolder: URL, fileName: String?,
                     showSecrets: Bool, main: Bool = false, models: SwiftModels? = nil) -> String {
        let request = CodeRequest(resolved, context: context, baseFolder: baseFolder, fileName: fileName,
                                  showSecrets: showSecrets)
        switch self {
        case .curl: return CurlExporter.command(for: resolved, showSecrets: showSecrets) + "\n"
        case .httpie: return HTTPieExporter.code(request, main: main)
        case .python: return PythonExporter.code(request, main: main)
        case .js: return JavaScriptExporter.code(request, main: main)
        case .go: return GoExporter.code(request, main: main)
        case .kotlin: return KotlinExporter.code(request, main: main)
        case .swift: return SwiftExporter.code(request, main: main, models: models)
        }
    }
}
