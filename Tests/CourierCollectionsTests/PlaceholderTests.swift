import Testing

@Test func CourierCollectionsTestsBuilds() { #expect(Bool(true)) }
