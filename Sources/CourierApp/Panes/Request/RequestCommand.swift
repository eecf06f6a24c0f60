/// Commands of the request editor when not typing.
public enum RequestCommand: Sendable, Hashable {
    case edit, fieldUp, fieldDown, nextTab, previousTab
    case nextMethod, previousMethod
    case toggleResolved, toggleLive, undo
    case nextOption, previousOption
}
