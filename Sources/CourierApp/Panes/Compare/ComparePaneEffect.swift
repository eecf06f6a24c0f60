/// What the app must do for a command; the pane itself never touches the network.
public enum ComparePaneEffect: Sendable, Hashable {
    /// Send the conditional request now (`HTTPCacheMiddleware.revalidateNow`), then `load` the result.
    case revalidateNow
    /// Leave the compare view.
    case close
}
