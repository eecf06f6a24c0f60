import Foundation

/// The rest of Postman's `{{$random…}}` list (its dynamic-variables reference: grammar, lorem text, commerce,
/// finance, places, files, images, databases, dates), from small built-in word lists in the shape Postman
/// gives: a currency code is three capitals, an image URL is a URL, a latitude is a number in range.
extension PostmanFaker {
    /// The names `catalogValue` answers.
    static let catalogNames: [String] = [
        "$randomNoun", "$randomVerb", "$randomIngverb", "$randomAdjective", "$randomAbbreviation", "$randomPhrase",
        "$randomCatchPhrase", "$randomCatchPhraseAdjective", "$randomCatchPhraseDescriptor", "$randomCatchPhraseNoun",
        "$randomBs", "$randomBsAdjective", "$randomBsBuzz", "$randomBsNoun",
        "$randomLoremSentences", "$randomLoremParagraph", "$randomLoremParagraphs", "$randomLoremText",
        "$randomLoremSlug", "$randomLoremLines",
        "$randomProduct", "$randomProductName", "$randomProductAdjective", "$randomProductMaterial",
        "$randomDepartment",
        "$randomBankAccount", "$randomBankAccountName", "$randomCreditCardMask", "$randomBankAccountBic",
        "$randomBankAccountIban", "$randomTransactionType", "$randomCurrencyCode", "$randomCurrencyName",
        "$randomCurrencySymbol", "$randomBitcoin",
        "$randomStreetName", "$randomLatitude", "$randomLongitude", "$randomPhoneNumberExt",
        "$randomNameSuffix", "$randomJobArea", "$randomJobDescriptor", "$randomJobType",
        "$randomUserAgent", "$randomDomainSuffix", "$randomDomainWord",
        "$randomWeekday", "$randomMonth",
        "$randomFileName", "$randomFileType", "$randomFileExt", "$randomCommonFileName", "$randomCommonFileType",
        "$randomCommonFileExt", "$randomFilePath", "$randomDirectoryPath", "$randomMimeType",
        "$randomDatabaseColumn", "$randomDatabaseType", "$randomDatabaseCollation", "$randomDatabaseEngine",
        "$randomAvatarImage", "$randomImageUrl", "$randomImageDataUri",
    ] + imageTopics.map { "$random\($0)Image" }

    static let imageTopics = ["Abstract", "Animals", "Business", "Cats", "City", "Food", "Nightlife", "Fashion",
                              "People", "Nature", "Sports", "Transport"]
    static let nouns = ["system", "matrix", "protocol", "bandwidth", "interface", "circuit", "array", "pixel",
                        "sensor", "driver", "card", "feed", "monitor", "firewall", "program"]
    static let verbs = ["parse", "compress", "index", "navigate", "override", "program", "quantify", "reboot",
                        "synthesize", "transmit", "connect", "bypass", "calculate", "generate", "copy"]
    static let adjectives = ["bright", "virtual", "optical", "wireless", "digital", "primary", "haptic",
                             "redundant", "solid", "mobile", "open-source", "neural", "cross-platform"]
    static let abbreviations = ["HTTP", "JSON", "XML", "SQL", "TCP", "UDP", "SMTP", "RAM", "CSS", "SSL", "AI", "PCI"]
    static let materials = ["Steel", "Wooden", "Concrete", "Plastic", "Cotton", "Granite", "Rubber", "Metal",
                            "Soft", "Fresh", "Frozen"]
    static let products = ["Chair", "Car", "Computer", "Keyboard", "Mouse", "Bike", "Ball", "Gloves", "Pants",
                           "Shirt", "Table", "Shoes", "Hat", "Towels", "Soap", "Tuna", "Chicken", "Fish"]
    static let departments = ["Books", "Movies", "Music", "Games", "Electronics", "Computers", "Home", "Garden",
                              "Tools", "Grocery", "Health", "Beauty", "Toys", "Kids", "Sports", "Outdoors"]
    static let currencies = [("USD", "US Dollar", "$"), ("EUR", "Euro", "€"), ("GBP", "Pound Sterling", "£"),
                             ("JPY", "Yen", "¥"), ("NOK", "Norwegian Krone", "kr"), ("INR", "Indian Rupee", "₹")]
    static let fileTypes = [("application/pdf", "pdf"), ("application/json", "json"), ("image/png", "png"),
                            ("image/jpeg", "jpeg"), ("text/plain", "txt"), ("text/html", "html"),
                            ("audio/mpeg", "mp3"), ("video/mp4", "mp4"), ("application/zip", "zip")]
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    private func choose<T>(_ list: [T]) -> T { list[random.randomInt(0..<list.count)] }
    private func number(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(random.randomInt(0..<10))) })
    }
    private func letters(_ count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return String((0..<count).map { _ in alphabet[random.randomInt(0..<26)] })
    }
    private func sentence() -> String {
        let text = (0..<random.randomInt(5..<10)).map { _ in choose(Self.words) }.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }
    private func sentences(_ count: Int) -> String { (0..<count).map { _ in sentence() }.joined(separator: " ") }
    private func coordinate(_ limit: Int) -> String {
        String(format: "%.4f", Double(random.randomInt(-limit * 10_000..<limit * 10_000)) / 10_000)
    }
    private func file() -> (name: String, type: String, ext: String) {
        let type = choose(Self.fileTypes)
        return ("\(choose(Self.words))_\(choose(Self.words)).\(type.1)", type.0, type.1)
    }

    /// The value of `name`, or nil when it is not one of `catalogNames`.
    func catalogValue(_ name: String) -> String? {
        if name.hasSuffix("Image"), name != "$randomAvatarImage" {
            let topic = name.dropFirst("$random".count).dropLast("Image".count).lowercased()
            guard Self.imageTopics.contains(where: { $0.lowercased() == topic }) else {
                return nil
            }
            return "https://images.example.com/640/480/\(topic)?\(number(4))"
        }
        switch name {
        case "$randomNoun", "$randomCatchPhraseNoun", "$randomBsNoun": return choose(Self.nouns)
        case "$randomVerb": return choose(Self.verbs)
        case "$randomIngverb": return choose(["parsing", "indexing", "navigating", "compressing", "transmitting"])
        case "$randomAdjective", "$randomCatchPhraseAdjective", "$randomBsAdjective": return choose(Self.adjectives)
        case "$randomAbbreviation": return choose(Self.abbreviations)
        case "$randomPhrase":
            return "Try to \(choose(Self.verbs)) the \(choose(Self.adjectives)) \(choose(Self.abbreviations)) "
                + "\(choose(Self.nouns)), maybe it will \(choose(Self.verbs)) the \(choose(Self.nouns))!"
        case "$randomCatchPhrase":
            return "\(choose(Self.adjectives).capitalized) \(choose(Self.adjectives)) \(choose(Self.nouns))"
        case "$randomCatchPhraseDescriptor": return choose(["bottom-line", "dynamic", "global", "modular", "stable"])
        case "$randomBs": return "\(choose(Self.verbs)) \(choose(Self.adjectives)) \(choose(Self.nouns))s"
        case "$randomBsBuzz": return choose(Self.verbs)
        case "$randomLoremSentences": return sentences(3)
        case "$randomLoremParagraph": return sentences(4)
        case "$randomLoremParagraphs": return (0..<3).map { _ in sentences(4) }.joined(separator: "\n \r")
        case "$randomLoremText": return sentences(2)
        case "$randomLoremSlug": return (0..<3).map { _ in choose(Self.words) }.joined(separator: "-")
        case "$randomLoremLines": return (0..<3).map { _ in sentence() }.joined(separator: "\n")
        case "$randomProduct": return choose(Self.products)
        case "$randomProductName":
            return "\(choose(Self.adjectives).capitalized) \(choose(Self.materials)) \(choose(Self.products))"
        case "$randomProductAdjective": return choose(Self.adjectives).capitalized
        case "$randomProductMaterial": return choose(Self.materials)
        case "$randomDepartment": return choose(Self.departments)
        case "$randomBankAccount": return number(8)
        case "$randomBankAccountName": return choose(["Checking", "Savings", "Money Market", "Home Loan"]) + " Account"
        case "$randomCreditCardMask": return number(4)
        case "$randomBankAccountBic": return letters(6) + number(2)
        case "$randomBankAccountIban": return choose(Self.countries).1 + number(20)
        case "$randomTransactionType": return choose(["invoice", "payment", "deposit", "withdrawal"])
        case "$randomCurrencyCode": return choose(Self.currencies).0
        case "$randomCurrencyName": return choose(Self.currencies).1
        case "$randomCurrencySymbol": return choose(Self.currencies).2
        case "$randomBitcoin": return "1" + letters(12) + number(12)
        case "$randomStreetName": return "\(choose(Self.words).capitalized) Street"
        case "$randomLatitude": return coordinate(90)
        case "$randomLongitude": return coordinate(180)
        case "$randomPhoneNumberExt": return "\(number(2))-\(number(3))-\(number(3))-\(number(4))"
        case "$randomNameSuffix": return choose(["Jr.", "Sr.", "I", "II", "III", "MD", "PhD"])
        case "$randomJobArea": return choose(["Research", "Operations", "Security", "Marketing", "Quality"])
        case "$randomJobDescriptor": return choose(["Senior", "Lead", "Direct", "Global", "Regional", "Chief"])
        case "$randomJobType": return choose(Self.jobs)
        case "$randomUserAgent": return "Mozilla/5.0 (X11; Linux x86_64) Courier/\(random.randomInt(1..<10)).0"
        case "$randomDomainSuffix": return choose(["com", "net", "org", "info", "biz"])
        case "$randomDomainWord": return choose(Self.words)
        case "$randomWeekday": return choose(Self.weekdays)
        case "$randomMonth": return choose(Self.months)
        case "$randomFileName", "$randomCommonFileName": return file().name
        case "$randomFileType", "$randomCommonFileType": return String(file().type.prefix { $0 != "/" })
        case "$randomFileExt", "$randomCommonFileExt": return file().ext
        case "$randomFilePath": return "/\(choose(Self.words))/\(choose(Self.words))/\(file().name)"
        case "$randomDirectoryPath": return "/\(choose(Self.words))/\(choose(Self.words))"
        case "$randomMimeType": return file().type
        case "$randomDatabaseColumn": return choose(["id", "title", "name", "email", "createdAt", "updatedAt"])
        case "$randomDatabaseType": return choose(["int", "varchar", "text", "boolean", "timestamp", "decimal"])
        case "$randomDatabaseCollation": return choose(["utf8_unicode_ci", "utf8_general_ci", "ascii_bin"])
        case "$randomDatabaseEngine": return choose(["InnoDB", "MyISAM", "MEMORY", "ARCHIVE"])
        case "$randomAvatarImage": return "https://images.example.com/avatars/\(number(3)).jpg"
        case "$randomImageUrl": return "https://images.example.com/640/480?\(number(4))"
        case "$randomImageDataUri":
            return "data:image/svg+xml;charset=UTF-8,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22"
                + "%20width%3D%2264%22%20height%3D%2264%22%2F%3E"
        default: return nil
        }
    }
}
