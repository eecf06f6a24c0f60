import Testing

@Test func CourierAppTestsBuilds() { #expect(Bool(true)) }
