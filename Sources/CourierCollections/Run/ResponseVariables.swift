import CourierHTTP

/// httpyac's `@name = value` lines after a request line, set once its response is in: the value is
/// substituted then (with this response as `{{response.…}}` and under the request's name), for the requests
/// after it; `@name := value` keeps the text, substituted wherever the name is used.
extension RequestSender {
    func setResponseVariables(of template: RequestTemplate, response: HTTPResponse, request: HTTPRequest,
                              variables: inout VariableContext) throws(CollectionError) {
        guard !template.responseVariables.isEmpty else { return }
        var context = variables
        if let name = template.name { context.responses.record(name: name, response: response, request: request) }
        context.responses.recordLast(response: response, request: request)
        for definition in template.responseVariables {
            let name = Self.globalName(definition.name) ?? definition.name
            if definition.isLazy {
                variables.lazyGlobals[name] = definition.value
                variables.globals[name] = nil
            } else {
                var interpolator = Interpolator(requestName: template.displayName, local: template.variables,
                                                file: file.fileVariables, context: context, folder: baseFolder,
                                                elsewhere: file.definitionElsewhere(than: template))
                variables.globals[name] = try interpolator.expand(definition.value)
                variables.lazyGlobals[name] = nil
            }
            context.globals = variables.globals
            context.lazyGlobals = variables.lazyGlobals
        }
    }

    /// httpyac's `@global.name = value` lines before the request line (the file's and the request's own): set
    /// as `{{$global.name}}` once the request is resolved, for every request after it in the run, in any file.
    func setGlobalDefinitions(of template: RequestTemplate,
                              variables: inout VariableContext) throws(CollectionError) {
        let definitions = (file.fileVariables + template.variables).filter { Self.globalName($0.name) != nil }
        guard !definitions.isEmpty else { return }
        var interpolator = Interpolator(requestName: template.displayName, local: template.variables,
                                        file: file.fileVariables, context: variables, folder: baseFolder,
                                        elsewhere: file.definitionElsewhere(than: template))
        for definition in definitions {
            guard let name = Self.globalName(definition.name) else { continue }
            variables.globals[name] = try interpolator.expand("{{\(definition.name)}}")
        }
    }

    /// `name` for httpyac's `global.name`; nil for any other variable name.
    static func globalName(_ name: String) -> String? {
        let prefix = Interpolator.httpyacGlobalDefinition
        guard name.hasPrefix(prefix), name.count > prefix.count else { return nil }
        return String(name.dropFirst(prefix.count))
    }
}
