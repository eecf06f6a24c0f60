import Testing

@Test func CourierBodyTestsBuilds() { #expect(Bool(true)) }
