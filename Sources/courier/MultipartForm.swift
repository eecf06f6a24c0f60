import CourierHTTP
import CourierMessage
import Foundation

/// A multipart/form-data body (RFC 7578) of `courier send --form` items: text fields as parts of their own,
/// files streamed from disk when the request is sent (`photo@./a.png`, `photo@./a.png;type=image/webp`).
enum MultipartForm {
    /// The body, with `Content-Type: multipart/form-data; boundary=…` set unless one was given.
    static func body(_ fields: [RequestItem], headers: inout HTTPHeaders) throws(UsageError) -> RequestBody {
        // Random, so that no file's bytes can hold it by chance.
        let boundary = "CourierForm" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        if !headers.contains("Content-Type") { headers["Content-Type"] = "multipart/form-data; boundary=\(boundary)" }
        var parts: [RequestBodyPart] = []
        var text = ""
        for field in fields {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(field.name))\""
            if field.kind == .file {
                let (path, type) = pathAndType(field.value)
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw UsageError("cannot read the file '\(path)' of '\(field.name)@\(field.value)'", command: "send")
                }
                let url = URL(fileURLWithPath: path)
                text += "; filename=\"\(quoted(url.lastPathComponent))\"\r\n"
                text += "Content-Type: \(type ?? mediaType(of: url))\r\n\r\n"
                parts.append(.data(Data(text.utf8)))
                parts.append(.file(url))
                text = "\r\n"
            } else {
                let value = field.kind == .fieldFromFile ? try SendRequestItems.text(of: field) : field.value
                text += "\r\n\r\n\(value)\r\n"
            }
        }
        text += "--\(boundary)--\r\n"
        parts.append(.data(Data(text.utf8)))
        return .parts(parts)
    }

    /// `./a.png;type=image/webp` as the path and the type given for it.
    private static func pathAndType(_ value: String) -> (String, String?) {
        guard let marker = value.range(of: ";type=", options: .backwards) else { return (value, nil) }
        return (String(value[..<marker.lowerBound]), String(value[marker.upperBound...]))
    }

    /// A name or file name inside the quotes of Content-Disposition: `"` and line breaks percent-encoded, as
    /// browsers send them.
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// The media type a file's extension names; `application/octet-stream` when it is not one of these.
    static func mediaType(of file: URL) -> String {
        mediaTypes[file.pathExtension.lowercased()] ?? "application/octet-stream"
    }

    static let mediaTypes: [String: String] = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "pdf": "application/pdf", "json": "application/json", "xml": "application/xml",
        "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html", "zip": "application/zip",
        "gz": "application/gzip",
    ]
}
