import Testing

@Test func CourierTerminalTestsBuilds() { #expect(Bool(true)) }
