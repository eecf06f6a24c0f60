/// What the compare pane's keys do.
public enum ComparePaneCommand: KeyCommandName {
    case revalidateNow
    case scrollDown
    case scrollUp
    case pageDown
    case pageUp
    case top
    case close
}
