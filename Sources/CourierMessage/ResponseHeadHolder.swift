/// A value built around a response's head (the client's response, a script's view of it, the response pane's
/// facts): its status, reason and headers are the head's, read and written through it.
public protocol ResponseHeadHolder {
    var head: ResponseHead { get set }
}

extension ResponseHeadHolder {
    public var status: Int {
        get { head.status }
        set { head.status = newValue }
    }

    /// The reason phrase; empty when the server sent none (HTTP/2 and HTTP/3 have none).
    public var reason: String {
        get { head.reason }
        set { head.reason = newValue }
    }

    /// Name and value pairs in the order the server sent them.
    public var headers: HTTPHeaders {
        get { head.headers }
        set { head.headers = newValue }
    }
}
