import BarkeepCore
import Testing

@Suite("SARIF levels")
struct SARIFLevelTests {
    @Test(
        "written: critical and high are errors, medium a warning, low and info notes, anything else a warning",
        arguments: [
            ("critical", SARIFLevel.error), ("high", .error), ("medium", .warning), ("low", .note), ("info", .note),
            ("", .warning), ("severe", .warning),
        ])
    func written(severity: String, level: SARIFLevel) {
        #expect(SARIFLevel(severity: severity) == level)
    }

    @Test(
        "read: error is high, warning medium, note low, none info",
        arguments: [(SARIFLevel.error, "high"), (.warning, "medium"), (.note, "low"), (.none, "info")])
    func read(level: SARIFLevel, severity: String) {
        #expect(level.severity == severity)
    }

    @Test("a level read back and written again is the same level, but none, which a finding is never written with")
    func roundTrip() {
        #expect(SARIFLevel.allCases.filter { SARIFLevel(severity: $0.severity) != $0 } == [.none])
    }
}
