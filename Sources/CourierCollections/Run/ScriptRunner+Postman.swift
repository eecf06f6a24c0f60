import CourierScript
import Foundation

extension ScriptRunner {
    /// Fills in what Postman's scripts read beside the environment: the file's variables, substituted as the
    /// request would see them (its collection variables; a name that does not resolve is left out), and the
    /// environment's name.
    func describeCollection(of template: RequestTemplate, context: VariableContext, into input: inout ScriptInput) {
        input.environmentName = context.environment.name ?? ""
        guard !file.fileVariables.isEmpty else { return }
        var plain = context
        plain.scriptExpressions = .notEvaluated
        var interpolator = Interpolator(requestName: template.displayName, local: [], file: file.fileVariables,
                                        context: plain, folder: baseFolder,
                                        elsewhere: file.definitionElsewhere(than: template))
        for definition in file.fileVariables where input.fileVariables[definition.name] == nil {
            if let value = try? interpolator.expand("{{\(definition.name)}}") {
                input.fileVariables[definition.name] = value
            }
        }
    }
}
