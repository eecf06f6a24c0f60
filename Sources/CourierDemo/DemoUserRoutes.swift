import Foundation

/// `/users`, `/users/{id}` and `/search`: a small editable collection with pagination.
enum DemoUserRoutes {
    static let routes: [DemoRoute] = [
        DemoRoute(["GET"], "/users", "List users (?page=&per_page=)", list),
        DemoRoute(["POST"], "/users", "Create a user from {\"name\",\"email\",…}: 201 + Location", create),
        DemoRoute(["GET"], "/users/{id}", "One user; 404 when unknown", show),
        DemoRoute(["PUT"], "/users/{id}", "Replace a user", replace),
        DemoRoute(["PATCH"], "/users/{id}", "Change some fields of a user", patch),
        DemoRoute(["DELETE"], "/users/{id}", "Delete a user: 204", delete),
        DemoRoute(["GET"], "/search", "Users matching ?q=, answered after ~150 ms", search),
    ]

    /// How long `/search` thinks, to make debouncing and cancellation visible.
    static let searchDelayMilliseconds = 150
    /// Page size bounds for `/users`.
    static let defaultPageSize = 10
    static let maximumPageSize = 100

    private static func list(_ context: DemoContext) -> DemoResponse {
        let users = context.core.state.withLock { $0.users.users }
        let perPage = context.integer("per_page", default: defaultPageSize, in: 1...maximumPageSize)
        let pages = max(1, (users.count + perPage - 1) / perPage)
        let page = context.integer("page", default: 1, in: 1...Int(Int32.max))
        let slice = users.dropFirst((page - 1) * perPage).prefix(perPage)
        var links: [String] = []
        if page < pages { links.append("</users?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\"") }
        if page > 1 { links.append("</users?page=\(min(page - 1, pages))&per_page=\(perPage)>; rel=\"prev\"") }
        links.append("</users?page=\(pages)&per_page=\(perPage)>; rel=\"last\"")
        return .json(200, ["page": page, "per_page": perPage, "total": users.count, "total_pages": pages,
                           "data": slice.map(\.json)],
                     headers: [("Link", links.joined(separator: ", ")), ("X-Total-Count", String(users.count))])
    }

    private static func create(_ context: DemoContext) -> DemoResponse {
        guard let fields = DemoJSON.object(context.request.body) else {
            return .error(400, "the body must be a JSON object with at least \"name\" and \"email\"")
        }
        let result = context.core.state.withLock { state in
            Result { () throws(DemoUserStore.Invalid) in try state.users.create(fields) }
        }
        switch result {
        case .success(let user):
            return .json(201, user.json, headers: [("Location", "/users/\(user.id)")])
        case .failure(let invalid):
            return refusal(invalid)
        }
    }

    private static func show(_ context: DemoContext) -> DemoResponse {
        guard let id = Int(context.parameters["id"] ?? ""),
              let user = context.core.state.withLock({ $0.users.user(id) }) else { return notFound(context) }
        return .json(200, user.json)
    }

    private static func replace(_ context: DemoContext) -> DemoResponse { update(context, merge: false) }

    private static func patch(_ context: DemoContext) -> DemoResponse { update(context, merge: true) }

    private static func update(_ context: DemoContext, merge: Bool) -> DemoResponse {
        guard let id = Int(context.parameters["id"] ?? "") else { return notFound(context) }
        guard let fields = DemoJSON.object(context.request.body) else {
            return .error(400, "the body must be a JSON object")
        }
        let result = context.core.state.withLock { state in
            Result { () throws(DemoUserStore.Invalid) in try state.users.update(id, with: fields, merge: merge) }
        }
        switch result {
        case .success(let user?): return .json(200, user.json)
        case .success(nil): return notFound(context)
        case .failure(let invalid): return refusal(invalid)
        }
    }

    private static func delete(_ context: DemoContext) -> DemoResponse {
        guard let id = Int(context.parameters["id"] ?? ""),
              context.core.state.withLock({ $0.users.delete(id) }) else { return notFound(context) }
        return DemoResponse(status: 204)
    }

    private static func search(_ context: DemoContext) -> DemoResponse {
        let term = context.request.queryValue("q") ?? ""
        let users = context.core.state.withLock { $0.users.users }
        let found = term.isEmpty ? [] : users.filter { $0.matches(term) }
        var response = DemoResponse.json(200, ["query": term, "count": found.count, "results": found.map(\.json)])
        response.delayMilliseconds = searchDelayMilliseconds
        return response
    }

    private static func notFound(_ context: DemoContext) -> DemoResponse {
        .error(404, "no user with id \(context.parameters["id"] ?? "")")
    }

    private static func refusal(_ invalid: DemoUserStore.Invalid) -> DemoResponse {
        switch invalid {
        case .notAnObject: .error(400, "the body must be a JSON object")
        case .missing(let field): .error(422, "\"\(field)\" is required", extra: ["field": field])
        case .wrongType(let field, let expected):
            .error(422, "\"\(field)\" must be of type \(expected)", extra: ["field": field])
        }
    }
}
