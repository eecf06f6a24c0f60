import CourierHTTP
import CourierMessage
import Foundation
import Testing

@Suite("Freshness arithmetic")
struct CacheFreshnessTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func freshness(_ headers: HTTPHeaders, status: Int = 200, requested: Double = 0, received: Double = 0,
                   now: Double) -> CacheFreshness {
        CacheFreshness(status: status, headers: headers, requestTime: t0.addingTimeInterval(requested),
                       responseTime: t0.addingTimeInterval(received), now: t0.addingTimeInterval(now))
    }

    func date(_ offset: Double) -> String { HTTPDate.format(t0.addingTimeInterval(offset)) }

    @Test func maxAgeGivesTheLifetimeAndResidentTimeTheAge() {
        // Given a response with max-age=60 received at t0, when 25 s pass, then it has 35 s left.
        let result = freshness(["Cache-Control": "max-age=60", "Date": date(0)], now: 25)
        #expect(result.source == .maxAge)
        #expect(result.lifetime == 60)
        #expect(result.age == 25)
        #expect(result.ttl == 35)
        #expect(result.isFresh)
        // And at 61 s it is stale by 1 s.
        let later = freshness(["Cache-Control": "max-age=60", "Date": date(0)], now: 61)
        #expect(!later.isFresh)
        #expect(later.staleness == 1)
    }

    @Test func ageFieldAndResponseDelayMakeTheCorrectedInitialAge() {
        // Given a request sent at 0 answered at 4 with Age: 10, then the initial age is 10 + 4.
        let result = freshness(["Cache-Control": "max-age=100", "Age": "10", "Date": date(4)],
                               requested: 0, received: 4, now: 4)
        #expect(result.age == 14)
    }

    @Test func apparentAgeFromAnOldDateWinsWhenLarger() {
        // Given a Date 30 s before the response arrived and no Age, then the age is the apparent 30 s.
        let result = freshness(["Cache-Control": "max-age=100", "Date": date(-30)], now: 0)
        #expect(result.age == 30)
        // A Date in the future does not make the age negative.
        #expect(freshness(["Cache-Control": "max-age=100", "Date": date(500)], now: 0).age == 0)
    }

    @Test func expiresCountsFromTheDateField() {
        let result = freshness(["Expires": date(300), "Date": date(100)], now: 0)
        #expect(result.source == .expires)
        #expect(result.lifetime == 200)
    }

    @Test func expiresWithoutDateCountsFromReceipt() {
        #expect(freshness(["Expires": date(90)], now: 0).lifetime == 90)
    }

    @Test func maxAgeOverridesExpires() {
        #expect(freshness(["Cache-Control": "max-age=5", "Expires": date(1000)], now: 0).lifetime == 5)
    }

    @Test func anInvalidExpiresMeansAlreadyExpired() {
        let result = freshness(["Expires": "0", "Date": date(0)], now: 0)
        #expect(result.source == .expires)
        #expect(result.lifetime == 0)
        #expect(!result.isFresh)
    }

    @Test func conflictingExpiresFieldsMeanAlreadyExpired() {
        let headers = HTTPHeaders([("Expires", date(100)), ("Expires", date(200))])
        #expect(freshness(headers, now: 0).lifetime == 0)
    }

    @Test func anInvalidMaxAgeMeansStaleEvenWithAValidExpires() {
        #expect(freshness(["Cache-Control": "max-age=soon", "Expires": date(1000)], now: 0).lifetime == 0)
    }

    @Test func sMaxAgeIsIgnoredByAPrivateCache() {
        let result = freshness(["Cache-Control": "s-maxage=600", "Date": date(0)], now: 0)
        #expect(result.source == .none)
        #expect(result.lifetime == 0)
    }

    @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModified() {
        // Given a 200 last modified 1000 s before its Date, then it is fresh for 100 s.
        let result = freshness(["Date": date(0), "Last-Modified": date(-1000)], now: 0)
        #expect(result.source == .heuristic)
        #expect(result.lifetime == 100)
    }

    @Test func heuristicFreshnessIsCappedAtADay() {
        let result = freshness(["Date": date(0), "Last-Modified": date(-365 * 86_400)], now: 0)
        #expect(result.lifetime == 86_400)
    }

    @Test func heuristicFreshnessOnlyForHeuristicallyCacheableStatuses() {
        let headers: HTTPHeaders = ["Date": date(0), "Last-Modified": date(-1000)]
        #expect(freshness(headers, status: 404, now: 0).lifetime == 100)
        #expect(freshness(headers, status: 201, now: 0).source == .none)
        #expect(freshness(headers, status: 302, now: 0).lifetime == 0)
    }

    @Test func anInvalidAgeFieldCountsAsZero() {
        #expect(CacheFreshness.ageValue(["Age": "ten"]) == 0)
        #expect(CacheFreshness.ageValue(["Age": "-3"]) == 0)
        #expect(CacheFreshness.ageValue(["Age": " 12 "]) == 12)
    }

    @Test func anAgeListCountsByItsFirstMember() {
        // Given an Age written as a list on one line, or on two lines
        #expect(CacheFreshness.ageValue(["Age": "7200, 0"]) == 7200)
        #expect(CacheFreshness.ageValue(["Age": "0, 7200"]) == 0)
        #expect(CacheFreshness.ageValue(HTTPHeaders([("Age", "7200"), ("Age", "0")])) == 7200)
        // Then a response an hour fresh that says it is two hours old is stale
        #expect(!freshness(["Cache-Control": "max-age=3600", "Date": date(0), "Age": "7200, 0"], now: 0).isFresh)
    }

    @Test func aResponseDatedTheSecondItArrivedInHasNoApparentAge() {
        // Given a response received 0.9 s into the second its Date names, at once
        let result = freshness(["Cache-Control": "max-age=1", "Date": date(0)], requested: 0.9, received: 0.9,
                               now: 0.9)
        // Then its age is nothing: Date is cut to whole seconds and is compared at that resolution
        #expect(result.age == 0)
        // And half a second later it is still fresh, as its max-age=1 says
        let later = freshness(["Cache-Control": "max-age=1", "Date": date(0)], requested: 0.9, received: 0.9, now: 1.4)
        #expect(later.isFresh)
        #expect(later.age == 0.5)
        // While a Date a whole second older still counts
        #expect(freshness(["Cache-Control": "max-age=100", "Date": date(-1)], received: 0.9, now: 0.9).age == 1)
    }

    @Test func expiresLastModifiedAndDateAreReadInAnyCase() {
        // Given an Expires in capitals, as real servers send it
        let result = freshness(["Expires": "THU, 18 AUG 2050 02:01:18 GMT", "Date": date(0)], now: 0)
        // Then it gives the freshness it names, not "already expired"
        #expect(result.source == .expires)
        #expect(result.lifetime > 0)
        #expect(result.isFresh)
    }

    @Test func heuristicFreshnessAppliesToAnyStatusMarkedPublic() {
        // Given a status that is not cacheable by default, with Last-Modified a day ago
        let headers: HTTPHeaders = ["Date": date(0), "Last-Modified": date(-86_400)]
        #expect(freshness(headers, status: 599, now: 0).source == .none)
        // When it is marked public, then it is heuristically fresh for a tenth of that day
        var marked = headers
        marked.set("Cache-Control", "public")
        let result = freshness(marked, status: 599, now: 0)
        #expect(result.source == .heuristic)
        #expect(result.lifetime == 8_640)
    }
}
