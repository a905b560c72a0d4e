import BarkeepCore
import Testing

@Suite("FindingStatus")
struct FindingStatusTests {
    @Test(
        "each status's stored raw value and flags",
        arguments: [
            // status, raw value, needsWork, isSticky, requiresReason
            (FindingStatus.proposed, "proposed", true, false, false),
            (.approved, "approved", true, false, false),
            (.applied, "applied", true, false, false),
            (.verified, "verified", false, false, false),
            (.blocked, "blocked", true, false, true),
            (.declined, "declined", false, true, true),
            (.kept, "kept", false, true, true),
            (.falsePositive, "false_positive", false, true, true),
            (.fixed, "fixed", false, false, false),
        ]
    )
    func properties(status: FindingStatus, rawValue: String, needsWork: Bool, isSticky: Bool, requiresReason: Bool) {
        #expect(status.rawValue == rawValue)
        #expect(FindingStatus(rawValue: rawValue) == status)
        #expect(status.needsWork == needsWork)
        #expect(status.isSticky == isSticky)
        #expect(status.requiresReason == requiresReason)
        // The schema's CHECK holds the older rule: false positives set before it may have no reason.
        #expect(status.isStoredWithReason == (requiresReason && status != .falsePositive))
    }

    @Test("the help texts name the verdicts that need a reason")
    func verdictsNeedingReason() {
        #expect(FindingStatus.verdictsNeedingReason == "declined, kept and false_positive")
    }

    @Test("the table above covers every case, in declaration order")
    func allCases() {
        #expect(
            FindingStatus.allCases.map(\.rawValue) == [
                "proposed", "approved", "applied", "verified", "blocked", "declined", "kept", "false_positive",
                "fixed",
            ]
        )
    }

    @Test("a sticky verdict never counts as open work")
    func stickyIsNotOpen() {
        for status in FindingStatus.allCases where status.isSticky {
            #expect(!status.needsWork, "\(status)")
        }
    }

    @Test(
        "unknown raw values are refused",
        arguments: ["", "falsePositive", "false-positive", "FALSE_POSITIVE", "Proposed", "open", " fixed"]
    )
    func unknownRawValue(text: String) {
        #expect(FindingStatus(rawValue: text) == nil)
    }
}
