/// The xterm 256-colour palette, for terminals without true colour.
public enum PaletteMapping {
    /// The levels of the 6×6×6 colour cube.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The index of the nearest colour among the cube (16–231) and the grey ramp (232–255).
    public static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        func nearestLevel(_ v: UInt8) -> Int {
            cubeLevels.indices.min { abs(cubeLevels[$0] - Int(v)) < abs(cubeLevels[$1] - Int(v)) } ?? 0
        }
        let (ri, gi, bi) = (nearestLevel(r), nearestLevel(g), nearestLevel(b))
        let cube = (cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        let cubeIndex = 16 + 36 * ri + 6 * gi + bi
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyStep = min(23, max(0, (average - 8 + 5) / 10))
        let grey = 8 + 10 * greyStep
        func distance(_ c: (Int, Int, Int)) -> Int {
            let dr = c.0 - Int(r), dg = c.1 - Int(g), db = c.2 - Int(b)
            return dr * dr + dg * dg + db * db
        }
        return UInt8(distance((grey, grey, grey)) < distance(cube) ? 232 + greyStep : cubeIndex)
    }
}
