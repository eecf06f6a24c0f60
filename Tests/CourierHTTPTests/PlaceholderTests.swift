import Testing

@Test func CourierHTTPTestsBuilds() { #expect(Bool(true)) }
