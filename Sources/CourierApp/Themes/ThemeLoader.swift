import CourierBody
import CourierTerminal
import Foundation

/// Reads `Themes/NAME.json`: roles mapped to colours. Roles a file leaves out keep the built-in dark
/// style; a file that cannot be read or has a bad value is an error naming the file and the key.
public enum ThemeLoader {
    /// Themes that exist without a file: the shipped ones are compiled in (`BuiltInThemeFiles`).
    public static let builtInNames = Array(Set(["dark", "monochrome"]).union(BuiltInThemeFiles.all.keys)).sorted()

    /// Reads the theme `name` from the first folder that has it, else the built-in copy; falls back to
    /// `dark` with a warning.
    /// `trueColor` false maps RGB colours to the nearest of the 256 indexed ones.
    public static func load(name: String, folders: [URL], trueColor: Bool, noColor: Bool)
        -> (theme: Theme, warning: String?) {
        var theme = Theme.dark
        var warning: String?
        if let file = folders.map({ $0.appendingPathComponent("\(name).json") })
            .first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            do {
                theme = try parse(Data(contentsOf: file), file: file.path, trueColor: trueColor)
                theme.name = name
            } catch let error as ThemeError {
                warning = "\(error); using the dark theme"
            } catch {
                warning = "\(ThemeError.unreadable(file: file.path, reason: "\(error)")); using the dark theme"
            }
        } else if let embedded = BuiltInThemeFiles.all[name] {
            do {
                theme = try parse(Data(embedded.utf8), file: "Themes/\(name).json (built in)", trueColor: trueColor)
                theme.name = name
            } catch {
                warning = "\(error); using the dark theme"
            }
        } else if name == "monochrome" {
            theme = Theme.dark.withoutColor(name: "monochrome")
        } else if name != "dark" {
            warning = "No theme named '\(name)' in \(folders.map(\.path).joined(separator: ", ")); using the dark theme"
        }
        return (noColor ? theme.withoutColor(name: theme.name) : theme, warning)
    }

    /// Theme names found in `folders`, with the built-in ones, sorted.
    public static func names(in folders: [URL]) -> [String] {
        var names = Set(builtInNames)
        for folder in folders {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for file in files where file.hasSuffix(".json") { names.insert(String(file.dropLast(5))) }
        }
        return names.sorted()
    }

    /// Parses a theme file. `{"palette": {"name": "#rrggbb"}, "roles": {"role": {"fg": …, "bg": …,
    /// "attrs": ["bold"]}}}`; a role may also be just a colour, taken as its foreground. Read with CourierBody's
    /// JSON tokenizer into typed values: the file is read before the first frame, and untyped
    /// `JSONSerialization` objects cost a dynamic cast per value.
    public static func parse(_ data: Data, file: String, trueColor: Bool = true) throws(ThemeError) -> Theme {
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch {
            throw .unreadable(file: file, reason: "not valid JSON")
        }
        guard case .object = root else { throw .badValue(file: file, key: "(root)", reason: "not an object") }
        var palette: [String: Color] = [:]
        if let named = root["palette"] {
            guard case .object(let members) = named else {
                throw .badValue(file: file, key: "palette", reason: "not an object")
            }
            for (name, value) in members {
                palette[name] = try color(value, palette: [:], file: file, key: "palette.\(name)", trueColor: trueColor)
            }
        }
        var theme = Theme.dark
        guard case .object(let roles)? = root["roles"] else {
            throw .badValue(file: file, key: "roles", reason: "missing or not an object")
        }
        for (key, value) in roles.sorted(by: { $0.key < $1.key }) {
            let style = try self.style(value, palette: palette, file: file, key: "roles.\(key)", trueColor: trueColor)
            guard theme.set(role: key, to: style) else {
                throw .badValue(file: file, key: "roles.\(key)", reason: "unknown role")
            }
        }
        return theme
    }

    private static func style(_ value: JSONValue, palette: [String: Color], file: String, key: String,
                              trueColor: Bool) throws(ThemeError) -> Style {
        switch value {
        case .string, .number:
            return Style(foreground: try color(value, palette: palette, file: file, key: key, trueColor: trueColor))
        case .object:
            break
        default:
            throw .badValue(file: file, key: key, reason: "not a colour or object")
        }
        var style = Style()
        if let fg = value["fg"] { style.foreground = try color(fg, palette: palette, file: file, key: key + ".fg", trueColor: trueColor) }
        if let bg = value["bg"] { style.background = try color(bg, palette: palette, file: file, key: key + ".bg", trueColor: trueColor) }
        if let attrs = value["attrs"] {
            guard case .array(let items) = attrs else { throw .badValue(file: file, key: key + ".attrs", reason: "not a list") }
            for item in items {
                guard case .string(let name) = item else {
                    throw .badValue(file: file, key: key + ".attrs", reason: "not a list")
                }
                guard let attribute = attributeNames[name] else {
                    throw .badValue(file: file, key: key + ".attrs", reason: "unknown attribute '\(name)'")
                }
                style.attributes.insert(attribute)
            }
        }
        return style
    }

    /// Attribute names a theme may use.
    static let attributeNames: [String: Attributes] = [
        "bold": .bold, "dim": .dim, "italic": .italic, "underline": .underline, "reverse": .reverse,
    ]

    private static func color(_ value: JSONValue, palette: [String: Color], file: String, key: String,
                              trueColor: Bool) throws(ThemeError) -> Color {
        if case .number(let number) = value {
            guard let index = Double(number).flatMap({ UInt8(exactly: $0.rounded(.towardZero)) }) else {
                throw .badValue(file: file, key: key, reason: "colour index \(number) is not 0–255")
            }
            return .indexed(index)
        }
        guard case .string(let text) = value else { throw .badValue(file: file, key: key, reason: "not a colour") }
        if text == "default" { return .default }
        if let named = palette[text] { return named }
        guard text.hasPrefix("#"), text.count == 7, let rgb = UInt32(text.dropFirst(), radix: 16) else {
            throw .badValue(file: file, key: key, reason: "'\(text)' is not #rrggbb, an index, 'default' or a palette name")
        }
        let r = UInt8(rgb >> 16 & 0xFF), g = UInt8(rgb >> 8 & 0xFF), b = UInt8(rgb & 0xFF)
        return trueColor ? .rgb(r, g, b) : .indexed(ColorMapping.nearest256(r, g, b))
    }
}
