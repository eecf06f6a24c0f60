/// The explorer's own response commands, next to the response viewer's keymap.
public enum ResponseCommand: KeyCommandName {
    case copyBody, copyCurl, compare
}
