/// Headers are stored (history files, script input) as a JSON array of `{"name", "value"}` objects, in order:
/// the shape history files have always had, so entries written before there was one header type still load.
extension HTTPHeaders: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try [Field](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }
}
