import BarkeepCore
import Testing

/// A check's vocabulary: the gate, the base, the counts' event text.
@Suite("Scan check")
struct ScanCheckTests {
    @Test(
        "the gate fails at a new or reopened finding at or above fail-on, in Core's severity order",
        arguments: [
            ([Severity.high], Severity.high, CheckResult.fail),
            ([.critical], .high, .fail),
            ([.medium], .high, .pass),
            ([.medium, .low], .medium, .fail),
            ([.info], .low, .pass),
            ([.info], .info, .fail),
            ([], .info, .pass),
            ([.high], .critical, .pass),
        ])
    func gate(added: [Severity], failOn: Severity, result: CheckResult) {
        #expect(CheckGate.result(added: added, failOn: failOn) == result)
    }

    @Test("the default gate is high")
    func defaultGate() {
        #expect(CheckGate.defaultFailOn == .high)
    }

    @Test(
        "a base is latest or a run's number, nothing else",
        arguments: [
            ("latest", CheckBase.latest), ("1", .run(1)), ("42", .run(42)), ("0", nil), ("-3", nil), ("", nil),
            ("Latest", nil), ("12a", nil), ("٣", nil),
        ] as [(String, CheckBase?)])
    func base(text: String, base: CheckBase?) {
        #expect(CheckBase(text: text) == base)
        if let base { #expect(base.text == text) }
    }

    @Test("only new and reopened findings count against the gate; the counts say themselves for the event")
    func counts() {
        #expect(CheckClass.allCases.filter(\.isAdded) == [.new, .reopened])
        var counts = CheckCounts()
        for kind in [CheckClass.new, .new, .reopened, .changed, .tracked, .tracked, .tracked, .fixed] {
            counts.count(kind)
        }
        #expect(counts == CheckCounts(new: 2, reopened: 1, changed: 1, tracked: 3, fixes: 1))
        #expect(counts.eventText(result: .fail) == "new=2 reopened=1 changed=1 tracked=3 fixes=1 result=fail")
    }
}
