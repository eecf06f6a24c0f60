import CourierBody
import CourierHTTP
import CourierHistory
import CourierMessage
import Foundation

/// Turns a response into the Response pane's one model, `ResponsePaneState`. Runs off the main thread;
/// the body is read through its line index, so no size is laid out up front.
public enum ResponseFormatter {
    /// The response viewer's state over the whole body (a file-backed body is read through its index).
    public static func pane(_ response: HTTPResponse) -> ResponsePaneState? {
        let document: BodyDocument
        switch response.body {
        case .data(let data): document = BodyDocument(data: data)
        case .file(let url, _):
            guard let file = try? BodyDocument(contentsOf: url) else { return nil }
            document = file
        }
        var info = ResponsePaneInfo(head: response.head, duration: response.timing.total.milliseconds / 1000,
                                    cacheDecision: response.cache.decision.rawValue,
                                    wireBytes: response.timing.bytesOnWire)
        info.encodingNote = response.contentEncodingNote
        return ResponsePaneState(info: info, body: document)
    }
}
