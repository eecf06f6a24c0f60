/// The explorer's own response commands, next to the response viewer's keymap.
public enum ResponseCommand: KeyCommandName {
    case copyBody, copyCurl, compare
    /// Opens the palette on its "Copy as:" entries, one per language.
    case copyCode
}
