import Testing

@Test func CourierDemoTestsBuilds() { #expect(Bool(true)) }
