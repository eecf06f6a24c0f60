import CourierHTTP
import Foundation

/// Feeds arbitrary bytes to the client core's parsers of server-controlled text: ISO 8601 dates,
/// Retry-After, error-body messages and the lossy array decoder. None may crash or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    _ = ISO8601.parse(text)
    _ = RetryAfter.delay(in: ["Retry-After": text], now: Date(timeIntervalSince1970: 0))
    _ = ServerMessage.extract(from: bytes)
    _ = try? JSONCoding.decode(LossyArray<Int>.self, from: bytes)
    return 0
}
