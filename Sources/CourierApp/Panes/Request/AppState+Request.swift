import CourierCollections
import CourierHTTP
import CourierTerminal

extension AppState {
    mutating func runRequest(_ command: RequestCommand) -> [Effect] {
        guard !editor.isEmpty else {
            status = StatusMessage("Open a request first: \(keys.spelling(of: .collection(.open))) on one in the "
                                   + "collection (\(keys.spelling(of: .global(.focus(.collection)))))")
            return []
        }
        switch command {
        case .edit:
            if editor.field == .tab && editor.tab == .options && editor.option == .cacheMode {
                let modes = CacheMode.allCases
                let index = modes.firstIndex(of: editor.cacheMode) ?? 0
                editor.cacheMode = modes[(index + 1) % modes.count]
            } else {
                editor.editing = true
            }
        case .fieldUp: editor.field = .url
        case .fieldDown: editor.field = .tab
        case .nextTab, .previousTab:
            let tabs = RequestEditorState.Tab.allCases
            let step = command == .nextTab ? 1 : tabs.count - 1
            editor.tab = tabs[(editor.tab.rawValue + step) % tabs.count]
            editor.field = .tab
        case .nextMethod, .previousMethod:
            // The selector's stops: each HTTP method, then a WebSocket request (whose upgrade is a GET).
            let methods = RequestDraft.selectableMethods
            let stops = methods.map { (RequestTemplate.Kind.http, $0) } + [(.websocket, "GET")]
            let index = editor.kind == .websocket ? stops.count - 1
                : editor.kind == .http ? methods.firstIndex(of: editor.method) ?? -1 : -1
            let step = command == .nextMethod ? 1 : stops.count - 1
            (editor.kind, editor.method) = index < 0 ? stops[0] : stops[(index + step) % stops.count]
            if live && !HTTPMethod(editor.method).isIdempotent {
                live = false
                status = StatusMessage("Live mode off: \(editor.method) is not idempotent", kind: .error)
            }
        case .toggleResolved:
            editor.showResolved.toggle()
        case .toggleLive:
            if live {
                live = false
                status = StatusMessage("Live mode off")
            } else if editor.kind == .websocket {
                status = StatusMessage("Live mode is for HTTP requests", kind: .error)
            } else if !HTTPMethod(editor.method).isIdempotent {
                modals.append(.confirm(ConfirmState(
                    message: "\(editor.method) is not idempotent: live mode may send it many times. Turn on?",
                    onYes: .enableLive)))
            } else {
                live = true
                status = StatusMessage("Live mode on: edits send after \(Int(liveDebounce.milliseconds)) ms")
            }
        case .undo:
            editor.editSelected(.action(.undo))
        case .nextOption, .previousOption:
            let options = RequestEditorState.Option.allCases
            let step = command == .nextOption ? 1 : options.count - 1
            editor.tab = .options
            editor.field = .tab
            editor.option = options[(editor.option.rawValue + step) % options.count]
        }
        return []
    }

    mutating func handleEditKey(_ key: Key) -> [Effect] {
        guard let command = Keymaps.editing.command(for: key) else {
            if let character = key.typedCharacter { editor.editSelected(.action(.insert(character))) }
            return []
        }
        let area = editor.selectedTextArea
        switch command {
        case .stopEditing:
            editor.editing = false
        case .accept:
            if editor.field == .url {
                return send()
            } else if area != nil {
                editor.editSelected(.action(.newline))
            } else {
                editor.editing = false
            }
        case .up where editor.field == .tab && (area?.row ?? 0) == 0:
            editor.field = .url
        case .down where editor.field == .url:
            editor.field = .tab
        default:
            if let action = command.editorAction { editor.editSelected(.action(action)) }
        }
        return []
    }
}
