import CourierBody
import CourierHistory
import CourierMessage
import Foundation

/// A HAR entry's response as a history entry of the request imported from it: what `F2` shows for that
/// request and what `courier export swift --models --from-history` reads.
enum HARExchange {
    /// The entry, or nil when the HAR kept no response (status 0: blocked, cancelled, or still in flight).
    static func make(_ entry: JSONValue, request: ImportedRequest, name: String, file: String,
                     secrets: [String]) -> ImportedExchange? {
        guard let response = entry["response"], let status = response["status"]?.doubleValue.map(Int.init),
              status > 0, let har = entry["request"] else { return nil }
        let content = response["content"]
        let text = content?["text"]?.stringValue ?? ""
        let isBase64 = content?["encoding"]?.stringValue == "base64"
        let body = isBase64 ? Data(base64Encoded: text) ?? Data() : Data(text.utf8)
        let side = HistoryEntry.Request(
            method: har["method"]?.stringValue ?? request.method, url: har["url"]?.stringValue ?? "",
            name: name, collectionPath: file, headers: headers(har["headers"]),
            template: HistoryEntry.Template(url: request.url.description,
                                            headers: HTTPHeaders(request.headers.map {
                                                HTTPHeaders.Field($0.name, $0.value.description)
                                            }),
                                            body: bodyText(request.body)))
        let reason = response["statusText"]?.stringValue
        let answer = HistoryEntry.Response(status: status, reason: reason?.isEmpty == false ? reason : nil,
                                           headers: headers(response["headers"]), bodyBytes: body.count)
        let date = entry["startedDateTime"]?.stringValue.flatMap(Self.date) ?? Date()
        let recorded = HistoryEntry(date: date, request: side, response: answer, timing: timing(entry))
        return ImportedExchange(entry: recorded, body: body, secrets: secrets)
    }

    static func headers(_ list: JSONValue?) -> HTTPHeaders {
        HTTPHeaders((list?.arrayValue ?? []).compactMap { header in
            guard let name = header["name"]?.stringValue, !name.hasPrefix(":") else { return nil }
            return HTTPHeaders.Field(name, header["value"]?.stringValue ?? "")
        })
    }

    static func bodyText(_ body: ImportedBody) -> String {
        switch body {
        case .none: ""
        case .text(let text): text.description
        case .file(let path): "< " + path.description
        case .multipart(let boundary, _): "multipart/form-data; boundary=\(boundary)"
        }
    }

    /// HAR timings are milliseconds, -1 where they do not apply; history keeps seconds.
    static func timing(_ entry: JSONValue) -> HistoryEntry.Timing {
        func phase(_ name: String) -> Double? {
            entry["timings"]?[name]?.doubleValue.flatMap { $0 >= 0 ? $0 / 1000 : nil }
        }
        let beforeFirstByte = ["blocked", "dns", "connect", "send", "wait"].compactMap(phase)
        return HistoryEntry.Timing(total: entry["time"]?.doubleValue.map { $0 / 1000 }, dns: phase("dns"),
                                   connect: phase("connect"), tls: phase("ssl"),
                                   firstByte: beforeFirstByte.isEmpty ? nil : beforeFirstByte.reduce(0, +))
    }

    /// `2026-05-01T10:00:00.123Z` and the same with an offset, with or without fractions.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
