/// Commands of the request editor when not typing.
public enum RequestCommand: KeyCommandName {
    case edit, fieldUp, fieldDown, nextTab, previousTab
    case nextMethod, previousMethod
    case toggleResolved, toggleLive, undo
    case nextOption, previousOption
}
