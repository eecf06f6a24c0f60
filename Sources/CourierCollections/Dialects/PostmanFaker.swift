import Foundation

/// Postman's commonly used `{{$random…}}` sample-data variables, from small built-in word lists. The
/// values have the shape Postman gives (an email looks like an email); they are not Postman's exact words.
struct PostmanFaker {
    let random: DynamicValues
    let now: Date

    /// The names of the commonest, answered here; `catalogNames` lists the rest.
    static let names: [String] = [
        "$randomAlphaNumeric", "$randomBoolean", "$randomEmail", "$randomExampleEmail", "$randomUserName",
        "$randomPassword", "$randomFirstName", "$randomLastName", "$randomFullName", "$randomNamePrefix",
        "$randomJobTitle", "$randomCompanyName", "$randomWord", "$randomWords", "$randomLoremWord",
        "$randomLoremWords", "$randomLoremSentence", "$randomCity", "$randomCountry", "$randomCountryCode",
        "$randomStreetAddress", "$randomPhoneNumber", "$randomIP", "$randomIPV6", "$randomMACAddress",
        "$randomHexColor", "$randomColor", "$randomUrl", "$randomDomainName", "$randomPrice", "$randomSemver",
        "$randomLocale", "$randomDatePast", "$randomDateFuture", "$randomDateRecent", "$randomProtocol",
    ]

    static let firstNames = ["Ada", "Grace", "Alan", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Radia",
                             "Edsger", "Frances", "Donald", "Katherine", "Tim", "Hedy", "John"]
    static let lastNames = ["Lovelace", "Hopper", "Turing", "Torvalds", "Hamilton", "Ritchie", "Liskov",
                            "Thompson", "Perlman", "Dijkstra", "Allen", "Knuth", "Johnson", "Berners-Lee"]
    static let words = ["alpha", "bravo", "copper", "delta", "ember", "falcon", "granite", "harbor", "island",
                        "juniper", "kernel", "lantern", "meadow", "nectar", "orbit", "pepper", "quartz",
                        "river", "signal", "timber", "umber", "velvet", "willow", "yonder", "zephyr"]
    static let cities = ["Lisbon", "Oslo", "Kyoto", "Lagos", "Lima", "Toronto", "Perth", "Tallinn", "Nairobi"]
    static let countries = [("Portugal", "PT"), ("Norway", "NO"), ("Japan", "JP"), ("Nigeria", "NG"),
                            ("Peru", "PE"), ("Canada", "CA"), ("Australia", "AU"), ("Estonia", "EE")]
    static let jobs = ["Engineer", "Designer", "Analyst", "Manager", "Architect", "Consultant", "Planner"]
    static let colors = ["red", "green", "blue", "orange", "purple", "teal", "yellow", "gray"]
    static let domains = ["example.com", "example.net", "example.org"]
    static let prefixes = ["Mr.", "Ms.", "Mrs.", "Dr."]
    static let locales = ["en", "fr", "de", "ja", "pt", "es", "nb", "et"]

    private func pick<T>(_ list: [T]) -> T { list[random.randomInt(0..<list.count)] }
    private func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(random.randomInt(0..<10))) }) }
    private func hex(_ count: Int) -> String {
        let alphabet = Array("0123456789abcdef")
        return String((0..<count).map { _ in alphabet[random.randomInt(0..<16)] })
    }

    /// A plausible email address: `grace.hopper42@example.com`.
    func email() -> String {
        "\(pick(Self.firstNames).lowercased()).\(pick(Self.lastNames).lowercased())\(digits(2))@\(pick(Self.domains))"
    }

    /// The value of `name`, or nil when it is not one of `names`.
    func value(_ name: String) -> String? {
        switch name {
        case "$randomAlphaNumeric": return String(pick(Array("abcdefghijklmnopqrstuvwxyz0123456789")))
        case "$randomBoolean": return random.randomInt(0..<2) == 0 ? "false" : "true"
        case "$randomEmail", "$randomExampleEmail": return email()
        case "$randomUserName": return "\(pick(Self.firstNames)).\(pick(Self.lastNames))\(digits(2))"
        case "$randomPassword":
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
            return String((0..<15).map { _ in pick(alphabet) })
        case "$randomFirstName": return pick(Self.firstNames)
        case "$randomLastName": return pick(Self.lastNames)
        case "$randomFullName": return "\(pick(Self.firstNames)) \(pick(Self.lastNames))"
        case "$randomNamePrefix": return pick(Self.prefixes)
        case "$randomJobTitle": return "\(pick(["Senior", "Lead", "Junior", "Principal"])) \(pick(Self.jobs))"
        case "$randomCompanyName": return "\(pick(Self.lastNames)) \(pick(["Ltd", "Inc", "Group", "and Sons"]))"
        case "$randomWord", "$randomLoremWord": return pick(Self.words)
        case "$randomWords", "$randomLoremWords": return (0..<3).map { _ in pick(Self.words) }.joined(separator: " ")
        case "$randomLoremSentence":
            let sentence = (0..<6).map { _ in pick(Self.words) }.joined(separator: " ")
            return sentence.prefix(1).uppercased() + sentence.dropFirst() + "."
        case "$randomCity": return pick(Self.cities)
        case "$randomCountry": return pick(Self.countries).0
        case "$randomCountryCode": return pick(Self.countries).1
        case "$randomStreetAddress": return "\(random.randomInt(1..<999)) \(pick(Self.words).capitalized) Street"
        case "$randomPhoneNumber": return "\(digits(3))-\(digits(3))-\(digits(4))"
        case "$randomIP": return (0..<4).map { _ in String(random.randomInt(1..<255)) }.joined(separator: ".")
        case "$randomIPV6": return (0..<8).map { _ in hex(4) }.joined(separator: ":")
        case "$randomMACAddress": return (0..<6).map { _ in hex(2) }.joined(separator: ":")
        case "$randomHexColor": return "#" + hex(6)
        case "$randomColor": return pick(Self.colors)
        case "$randomUrl": return "https://\(pick(Self.words)).\(pick(Self.domains))"
        case "$randomDomainName": return "\(pick(Self.words)).\(pick(Self.domains))"
        case "$randomPrice": return "\(random.randomInt(1..<1000)).\(digits(2))"
        case "$randomSemver": return "\(random.randomInt(0..<10)).\(random.randomInt(0..<20)).\(random.randomInt(0..<50))"
        case "$randomLocale": return pick(Self.locales)
        case "$randomProtocol": return pick(["http", "https"])
        case "$randomDatePast": return date(days: -random.randomInt(1..<365))
        case "$randomDateFuture": return date(days: random.randomInt(1..<365))
        case "$randomDateRecent": return date(days: -random.randomInt(0..<2))
        default: return catalogValue(name)
        }
    }

    private func date(days: Int) -> String {
        DateText.rfc1123(now.addingTimeInterval(Double(days) * 86_400), zone: .utc)
    }
}
