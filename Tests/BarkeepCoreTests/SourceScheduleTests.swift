import BarkeepCore
import Testing

@Suite("SourceSchedule")
struct SourceScheduleTests {
    static let delays: [(every: Int, failures: Int, delay: Int)] = [
        // Succeeding, and after a first failure: the interval itself.
        (600, 0, 600),
        (600, 1, 600),
        (600, -1, 600),
        // Then doubling after each further failure.
        (600, 2, 1200),
        (600, 3, 2400),
        (600, 4, 4800),
        (600, 5, 9600),
        (600, 6, 19_200),
        // Up to six hours.
        (600, 7, 21_600),
        (600, 8, 21_600),
        (60, 9, 15_360),
        (60, 10, 21_600),
        (1, 15, 16_384),
        (1, 16, 21_600),
        (1, 40, 21_600),
        (1, 41, 21_600),
        (5400, 3, 21_600),
        (10_800, 2, 21_600),
        // An interval longer than the cap is its own cap: a failing source is never tried more often.
        (21_600, 2, 21_600),
        (86_400, 1, 86_400),
        (86_400, 2, 86_400),
        (86_400, 50, 86_400),
        (0, 0, 0),
        (0, 10, 0),
    ]

    @Test("every while it succeeds and after one failure, then doubling, capped", arguments: delays)
    func delay(every: Int, failures: Int, delay: Int) {
        #expect(SourceSchedule.delay(every: every, failures: failures) == delay)
    }

    @Test("the longest backoff is six hours")
    func longestBackoff() {
        #expect(SourceSchedule.longestBackoff == 21_600)
    }

    @Test(
        "huge failure counts and intervals neither overflow nor pass the cap",
        arguments: [
            (1, 10_000, 21_600),
            (600, 10_000, 21_600),
            (86_400, 10_000, 86_400),
            (1, Int.max, 21_600),
            (366 * 86_400, Int.max, 366 * 86_400),
            (Int.max / 2, 2, Int.max / 2),
            (Int.max / 2 + 1, 2, Int.max / 2 + 1),
            (Int.max, 2, Int.max),
            (Int.max, 10_000, Int.max),
            (Int.max, 1, Int.max),
        ]
    )
    func hugeValues(every: Int, failures: Int, delay: Int) {
        #expect(SourceSchedule.delay(every: every, failures: failures) == delay)
    }

    @Test("the delay never shrinks as failures grow", arguments: [1, 60, 600, 3600, 21_600, 86_400])
    func monotonic(every: Int) {
        let delays = (0...100).map { SourceSchedule.delay(every: every, failures: $0) }
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(delays.last == max(every, SourceSchedule.longestBackoff))
    }
}
