import Testing

@testable import BarkeepCore

@Suite("Percentage")
struct PercentageTests {
    @Test(
        "a share never reads 0% unless nothing is done, nor 100% unless all is",
        arguments: [
            (0, 558, "0%"), (5, 558, "<1%"), (1, 100, "1%"), (1, 101, "<1%"), (2, 18, "11%"), (16, 45, "35%"),
            (1, 2, "50%"), (99, 100, "99%"), (557, 558, ">99%"), (991, 1000, ">99%"), (990, 1000, "99%"),
            (558, 558, "100%"), (1, 1, "100%"), (-3, 10, "0%"), (12, 10, "100%"),
        ])
    func text(part: Int, whole: Int, expected: String) {
        #expect(Percentage.text(part, of: whole) == expected)
    }

    @Test("nothing to count is no percentage")
    func empty() {
        #expect(Percentage.text(0, of: 0) == nil)
        #expect(Percentage.text(3, of: -1) == nil)
    }
}
