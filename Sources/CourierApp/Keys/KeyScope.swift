/// Where a key means something: everywhere, or in one pane or view. config.json groups rebindings by scope,
/// and one key may mean one command per scope.
public enum KeyScope: String, Sendable, Hashable, CaseIterable {
    case global, collection, request, response, compare, history, log, webSocket
}
