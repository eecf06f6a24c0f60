/// How many colours the terminal shows, from richest to none.
public enum ColorDepth: Sendable, Hashable {
    /// 24-bit colour numbers (a terminfo entry with the `RGB` flag, e.g. TERM=xterm-direct).
    case trueColor
    case indexed256
    case indexed16
    case indexed8
    /// NO_COLOR, or a terminal without colours: attributes only.
    case none

    /// The depth to use for a terminal with `colors` colours (its terminfo `colors`) given the environment.
    /// `NO_COLOR` (set and not empty, as no-color.org says) turns colour off. 24-bit colour needs a
    /// direct-colour terminal description (`colors` of 2^24 and the `RGB` flag, e.g. TERM=xterm-direct):
    /// curses can only write what the description can express, so `COLORTERM` alone gives the 256 palette
    /// (`CursesBackend.terminalName` picks the direct-colour description when `COLORTERM` asks and one exists).
    public static func detect(colors: Int, hasRGBFlag: Bool, environment: [String: String]) -> ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        if colors >= 0x100_0000 && hasRGBFlag { return .trueColor }
        if colors >= 256 { return .indexed256 }
        if colors >= 16 { return .indexed16 }
        if colors >= 8 { return .indexed8 }
        return .none
    }
}

/// Maps theme colours to the colour numbers a terminal of a given depth understands.
/// Pure arithmetic, so it is tested without a terminal.
public enum ColorMapping {
    /// The colour number for `color` at `depth`; -1 is the terminal's default colour.
    public static func number(for color: Color, depth: ColorDepth) -> Int32 {
        switch (color, depth) {
        case (.default, _), (_, .none): return -1
        case (.indexed(let n), .trueColor):
            let (r, g, b) = rgb(ofIndexed: n)
            return direct(r, g, b)
        case (.indexed(let n), .indexed256): return Int32(n)
        case (.indexed(let n), .indexed16): return Int32(n < 16 ? n : nearest16(rgb(ofIndexed: n)))
        case (.indexed(let n), .indexed8): return Int32(n < 8 ? n : n < 16 ? n - 8 : nearest16(rgb(ofIndexed: n)) % 8)
        case (.rgb(let r, let g, let b), .trueColor): return direct(r, g, b)
        case (.rgb(let r, let g, let b), .indexed256): return Int32(nearest256(r, g, b))
        case (.rgb(let r, let g, let b), .indexed16): return Int32(nearest16((r, g, b)))
        case (.rgb(let r, let g, let b), .indexed8): return Int32(nearest16((r, g, b)) % 8)
        }
    }

    /// A direct colour number. Direct-colour terminal descriptions send numbers below 8 as the basic
    /// colours, so the few near-blacks that encode that low are moved to the next blue step (invisible).
    static func direct(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int32 {
        max(8, Int32(r) << 16 | Int32(g) << 8 | Int32(b))
    }

    /// The xterm palette value of indexed colour `n`.
    public static func rgb(ofIndexed n: UInt8) -> (UInt8, UInt8, UInt8) {
        switch n {
        case 0..<16: return basic[Int(n)]
        case 16..<232:
            let i = Int(n) - 16
            return (cubeLevels[i / 36], cubeLevels[(i / 6) % 6], cubeLevels[i % 6])
        default:
            let v = UInt8(8 + (Int(n) - 232) * 10)
            return (v, v, v)
        }
    }

    /// The nearest of the 6×6×6 cube and the grey ramp (16–255) to an RGB colour.
    public static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        func level(_ v: UInt8) -> Int { cubeLevels.indices.min { abs(Int(cubeLevels[$0]) - Int(v)) < abs(Int(cubeLevels[$1]) - Int(v)) }! }
        let cube = UInt8(16 + 36 * level(r) + 6 * level(g) + level(b))
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyIndex = UInt8(min(23, max(0, (average - 3) / 10)))
        let grey = 232 + greyIndex
        return distance(rgb(ofIndexed: cube), (r, g, b)) <= distance(rgb(ofIndexed: grey), (r, g, b)) ? cube : grey
    }

    /// The nearest of the 16 basic colours.
    public static func nearest16(_ color: (UInt8, UInt8, UInt8)) -> UInt8 {
        UInt8(basic.indices.min { distance(basic[$0], color) < distance(basic[$1], color) }!)
    }

    private static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let dr = Int(a.0) - Int(b.0), dg = Int(a.1) - Int(b.1), db = Int(a.2) - Int(b.2)
        return dr * dr + dg * dg + db * db
    }

    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// xterm's default values for colours 0–15.
    static let basic: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
        (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
}
