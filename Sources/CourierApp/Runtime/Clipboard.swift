import Foundation

/// Writing the system clipboard through the terminal.
public enum Clipboard {
    /// The most bytes Courier puts on the clipboard through OSC 52. Terminals cap the sequence (several near
    /// 100 KB) and drop a longer one silently, so a larger text is refused with a way to save it instead.
    public static let maxBytes = 100 * 1024

    /// Sends OSC 52 with the text to the controlling terminal (tmux and most terminals honour it).
    public static let osc52: @Sendable (String) -> Void = { text in
        let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        guard let tty = FileHandle(forWritingAtPath: "/dev/tty") else { return }
        tty.write(Data(sequence.utf8))
        try? tty.close()
    }
}
