import CourierHTTP

/// httpyac's request options as variables (`@request_timeout = 5000`, or its configuration's `request`
/// options, read into `$shared`): a request's own tags win.
extension Resolver {
    /// Applies `request_timeout` (milliseconds) and `request_noRedirect` where the request's tags say nothing.
    /// (`request_rejectUnauthorized` and `request_proxy` are not applied: verification is turned off only
    /// on the command line or by the request's own tag, and proxies come from the process environment.)
    func applyHttpyacRequestVariables(to request: inout HTTPRequest, template: RequestTemplate,
                                      interpolator: inout Interpolator) {
        if template.tags[RequestOptions.timeoutTag] == nil,
           let text = interpolator.definedValue("request_timeout"), let milliseconds = Double(text),
           milliseconds > 0, milliseconds < 1e12 {
            request.timeout = .milliseconds(Int64(milliseconds))
        }
        if template.tags[RequestOptions.noRedirectTag] == nil,
           let text = interpolator.definedValue("request_noRedirect"), text.lowercased() == "true" {
            request.followRedirects = false
        }
    }
}
