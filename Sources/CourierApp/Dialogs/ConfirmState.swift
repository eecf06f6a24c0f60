/// A yes/no question and what happens on yes.
public struct ConfirmState: Sendable, Hashable {
    public var message: String
    public var onYes: PendingAction
    public init(message: String, onYes: PendingAction) { self.message = message; self.onYes = onYes }
}
