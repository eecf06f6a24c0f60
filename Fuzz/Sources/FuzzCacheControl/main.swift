import CourierHTTP
import CourierMessage
import Foundation

/// Feeds arbitrary bytes to the cache's header parsers: Cache-Control, HTTP dates, Vary, Age and the
/// freshness arithmetic built on them. Besides not crashing, a parsed date must survive a round trip
/// through IMF-fixdate, and a lifetime must never be negative.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)

    let control = CacheControl(parsing: text)
    _ = (control.maxAge, control.minFresh, control.maxStale, control.noCache, control.staleIfError)
    _ = CacheControl(parsing: control.description)

    let now = Date(timeIntervalSince1970: 1_780_000_000)
    if let date = HTTPDate.parse(text, now: now) {
        let formatted = HTTPDate.format(date)
        if HTTPDate.parse(formatted, now: now) != date { fatalError("date round trip failed for \(text)") }
    }

    let headers = HTTPHeaders([("Cache-Control", text), ("Expires", text), ("Date", text), ("Age", text),
                               ("Last-Modified", text), ("Vary", text)])
    _ = Vary(headers: headers).selectedValues(of: headers)
    let freshness = CacheFreshness(status: 200, headers: headers, requestTime: now, responseTime: now, now: now)
    if freshness.lifetime < 0 || freshness.age < 0 { fatalError("negative freshness for \(text)") }
    return 0
}
