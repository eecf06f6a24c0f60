import CourierBody
import CourierTerminal

/// What the response pane's keys do.
public enum ResponsePaneCommand: KeyCommandName {
    case lineDown, lineUp, pageDown, pageUp, top, end
    case scrollLeft, scrollRight
    case toggleHeaders, togglePretty, toggleWrap, toggleHex
    case toggleFold
    case beginSearch, nextHit, previousHit
    case beginFilter, beginGoToLine
    /// Leaves the filter, the diff or the search, innermost first.
    case clear
    case copyPath
    case toggleDiff
    case saveBody
    /// Typing into the open prompt (search, filter, go to line).
    case input(Character)
    /// A readline key in the open prompt (↑/↓ walk its history).
    case edit(EditCommand)
    case submit
}
