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
            let name = definition.name
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
}
