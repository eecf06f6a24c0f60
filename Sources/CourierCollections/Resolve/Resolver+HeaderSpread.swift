import CourierBody
import CourierMessage
import Foundation

/// httpyac's `...defaultHeaders` lines: the object an expression gives, sent as headers.
extension Resolver {
    /// Adds the entries of each spread's object, replacing headers of the same name as httpyac's
    /// `Object.assign` does; an array value is one header per element, `null` leaves the header out. A value
    /// that is not an object is an error naming the line's expression.
    func addHeaderSpreads(of template: RequestTemplate, to headers: inout HTTPHeaders,
                          interpolator: inout Interpolator) throws(CollectionError) {
        for spread in template.headerSpreads {
            let text = try interpolator.expand("{{" + spread + "}}")
            guard let members = (try? JSONValue.parse(Data(text.utf8)))?.objectValue else {
                // `courier check` runs no JavaScript: a scripted object is taken as given.
                if context.scriptExpressions == .assumed { continue }
                throw .badDynamicVariable(expression: "..." + spread, request: template.displayName,
                                          reason: "it should give an object of headers, not '\(text.prefix(60))'")
            }
            for (name, value) in members {
                headers.remove(name)
                let values: [JSONValue] = if case .array(let items) = value { items } else { [value] }
                for element in values where element != .null { headers.add(name, element.text) }
            }
        }
    }
}
