/// The JetBrains HTTP Client's Faker-based `{{$random.PROVIDER.METHOD}}` names (Datafaker's providers and
/// methods: `$random.name.firstName`, `$random.internet.emailAddress`) that have a Postman counterpart, as that
/// counterpart: the value comes from `PostmanFaker`'s word lists, with the shape Datafaker gives it.
enum JetBrainsFaker {
    /// JetBrains' name (after `$random.`) → Postman's variable.
    static let postmanNames: [String: String] = [
        "name.firstName": "$randomFirstName", "name.lastName": "$randomLastName",
        "name.fullName": "$randomFullName", "name.name": "$randomFullName", "name.prefix": "$randomNamePrefix",
        "name.username": "$randomUserName", "name.title": "$randomJobTitle", "job.title": "$randomJobTitle",
        "internet.emailAddress": "$randomEmail", "internet.safeEmailAddress": "$randomExampleEmail",
        "internet.url": "$randomUrl", "internet.domainName": "$randomDomainName",
        "internet.ipV4Address": "$randomIP", "internet.ipV6Address": "$randomIPV6",
        "internet.macAddress": "$randomMACAddress", "internet.password": "$randomPassword",
        "internet.uuid": "$randomUUID",
        "address.city": "$randomCity", "address.country": "$randomCountry",
        "address.countryCode": "$randomCountryCode", "address.streetAddress": "$randomStreetAddress",
        "address.fullAddress": "$randomStreetAddress",
        "phoneNumber.phoneNumber": "$randomPhoneNumber", "phoneNumber.cellPhone": "$randomPhoneNumber",
        "company.name": "$randomCompanyName", "color.name": "$randomColor", "color.hex": "$randomHexColor",
        "lorem.word": "$randomWord", "lorem.sentence": "$randomLoremSentence", "bool.bool": "$randomBoolean",
        "commerce.price": "$randomPrice", "app.version": "$randomSemver",
    ]
}
