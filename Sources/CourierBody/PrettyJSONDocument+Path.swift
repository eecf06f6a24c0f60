import Foundation

extension PrettyJSONDocument {
    /// The JSONPath of the value shown on pretty line `index` (`$.users[0].name`), for "copy path".
    /// Walks the tokens from the start, keeping only the stack of keys and indices: O(bytes before the line).
    public func path(atLine index: Int) -> String? {
        guard index >= 0, index < max(lineCount, index + 1), byteOffset(ofLine: index) != nil else { return nil }
        return bytes.withUnsafeBytes { bytes -> String? in
            var cursor = PrettyCursor()
            var line = PrettyCursor.Line()
            var frames: [PathFrame] = []
            for _ in 0..<index {
                guard cursor.next(bytes, into: &line, collect: true) else { return nil }
                for token in line.tokens { Self.apply(token, to: &frames) }
            }
            guard cursor.next(bytes, into: &line, collect: true), line.raw == nil, let first = line.tokens.first else { return nil }
            switch first.kind {
            case .endObject, .endArray:
                return Self.render(frames.dropLast(), bytes)
            case .key:
                Self.apply(first, to: &frames)
            case .beginObject, .beginArray, .string, .number, .literal:
                if let top = frames.last, !top.isObject { frames[frames.count - 1].index += 1 }
            case .colon, .comma, .invalid:
                break
            }
            return Self.render(frames[...], bytes)
        }
    }

    /// One open container on the way to a value.
    struct PathFrame {
        var isObject: Bool
        var key: Range<Int>?
        var index = -1
    }

    private static func apply(_ token: JSONToken, to frames: inout [PathFrame]) {
        switch token.kind {
        case .key:
            if !frames.isEmpty { frames[frames.count - 1].key = token.range }
        case .beginObject, .beginArray, .string, .number, .literal:
            if let top = frames.last, !top.isObject { frames[frames.count - 1].index += 1 }
            if token.kind.isOpening { frames.append(PathFrame(isObject: token.kind == .beginObject)) }
        case .endObject, .endArray:
            _ = frames.popLast()
        case .colon, .comma, .invalid:
            break
        }
    }

    private static func render(_ frames: ArraySlice<PathFrame>, _ bytes: UnsafeRawBufferPointer) -> String {
        var path = "$"
        for frame in frames {
            if frame.isObject, let key = frame.key {
                path += JSONPath.component(JSONValue.unescape(UnsafeRawBufferPointer(rebasing: bytes[key])))
            } else if !frame.isObject, frame.index >= 0 {
                path += "[\(frame.index)]"
            }
        }
        return path
    }
}
