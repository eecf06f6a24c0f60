/// httpyac's named blocks that set variables and send nothing (`# @name setup` over `@token = …` lines):
/// a `# @ref setup` on a request applies their values to it, over the file's, as httpyac imports a
/// referenced region's variables. (Their values stay file variables too, as a file without the reference
/// reads them; their scripts are the file's.)
extension HTTPFileParser {
    /// Gives each request the variables of the blocks its `# @ref` lines name, below its own, and drops those
    /// references: nothing is sent for them.
    mutating func applyVariableRegions() {
        guard !variableRegions.isEmpty else { return }
        for index in requests.indices {
            let named = requests[index].references.filter { variableRegions[$0.name] != nil }
            guard !named.isEmpty else { continue }
            let lent = named.flatMap { variableRegions[$0.name] ?? [] }
            requests[index].variables = lent + requests[index].variables
            requests[index].references.removeAll { variableRegions[$0.name] != nil }
        }
    }
}
