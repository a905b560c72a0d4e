import BarkeepCore
import Testing

@Suite("Durations as options write them")
struct DurationTextTests {
    @Test(
        "a number with ms, s or m, or a bare number of seconds",
        arguments: [
            ("250ms", 250), ("5s", 5000), ("1.5s", 1500), ("2m", 120_000), ("3", 3000), ("0ms", 0), ("0.5", 500),
        ])
    func parses(text: String, milliseconds: Int64) {
        #expect(DurationText.parse(text) == .milliseconds(milliseconds))
    }

    @Test("anything else is refused", arguments: ["", "s", "ms", "-1s", "5 s", "5h", "soon", "1e3", "..s", "nan"])
    func refuses(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test("described the way it is parsed back")
    func describes() {
        #expect(DurationText.describe(.seconds(5)) == "5s")
        #expect(DurationText.describe(.milliseconds(250)) == "250ms")
        #expect(DurationText.describe(.milliseconds(1500)) == "1500ms")
        for duration: Duration in [.seconds(5), .milliseconds(250), .milliseconds(1500)] {
            #expect(DurationText.parse(DurationText.describe(duration)) == duration)
        }
    }
}
