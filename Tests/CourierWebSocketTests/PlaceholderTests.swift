import Testing

@Test func CourierWebSocketTestsBuilds() { #expect(Bool(true)) }
