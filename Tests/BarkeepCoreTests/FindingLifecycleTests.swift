import BarkeepCore
import Testing

@Suite("FindingLifecycle")
struct FindingLifecycleTests {
    typealias Case = (
        from: FindingStatus, to: FindingStatus, source: FindingSource, changer: StatusChanger,
        refused: TransitionRefusal.Kind?
    )

    @Test(
        "which changer may make which change",
        arguments: [
            // By hand: forward through the recommendation's statuses, verified only once applied.
            (.proposed, .approved, .scanner, .person(.writer), nil),
            (.approved, .applied, .manual, .person(.admin), nil),
            (.applied, .verified, .manual, .person(.writer), nil),
            (.proposed, .applied, .scanner, .person(.writer), nil),
            (.proposed, .verified, .manual, .person(.writer), .conflict),
            (.approved, .verified, .scanner, .person(.writer), .conflict),
            (.verified, .approved, .manual, .person(.writer), nil),
            (.declined, .approved, .scanner, .person(.writer), nil),
            // Verdicts, whatever the status; a reader changes nothing.
            (.blocked, .falsePositive, .manual, .person(.writer), nil),
            (.fixed, .falsePositive, .scanner, .person(.writer), nil),
            (.proposed, .approved, .scanner, .person(.reader), .forbidden),
            // Blocked only moves with the SDK; fixed only to verified or a verdict.
            (.blocked, .approved, .manual, .person(.writer), .conflict),
            (.blocked, .verified, .manual, .person(.admin), .conflict),
            (.fixed, .verified, .scanner, .person(.writer), nil),
            (.fixed, .approved, .scanner, .person(.writer), .conflict),
            (.fixed, .verified, .manual, .person(.writer), .conflict),
            // What only scans, the SDK and poses set.
            (.proposed, .fixed, .scanner, .person(.admin), .invalid),
            (.approved, .blocked, .manual, .person(.admin), .invalid),
            (.proposed, .proposed, .scanner, .person(.writer), .invalid),
            (.applied, .fixed, .scanner, .scanner, nil),
            (.fixed, .proposed, .scanner, .scanner, nil),
            (.kept, .fixed, .scanner, .scanner, .invalid),
            (.approved, .fixed, .manual, .scanner, .invalid),
            (.approved, .blocked, .manual, .sdk, nil),
            (.blocked, .applied, .manual, .sdk, nil),
            (.blocked, .blocked, .manual, .sdk, .invalid),
            (.applied, .verified, .manual, .pose, nil),
            (.proposed, .verified, .manual, .pose, nil),
            (.declined, .verified, .manual, .pose, .invalid),
            (.applied, .verified, .scanner, .pose, .invalid),
        ] as [Case])
    func transitions(_ change: Case) {
        let refusal = FindingLifecycle.refusal(
            from: change.from, to: change.to, source: change.source, reason: "because", by: change.changer,
            label: "finding 7")
        #expect(
            refusal?.kind == change.refused,
            "\(change.from) → \(change.to) by \(change.changer): \(refusal?.message ?? "allowed")")
    }

    @Test("declined, kept and false_positive need a reason; the same status again is no change")
    func reasons() {
        for status in [FindingStatus.declined, .kept, .falsePositive] {
            let refusal = FindingLifecycle.refusal(
                from: .proposed, to: status, source: .scanner, reason: nil, by: .person(.writer), label: "finding 7")
            #expect(refusal == TransitionRefusal(.invalid, "\(status.rawValue) needs a reason"))
        }
        #expect(
            FindingLifecycle.refusal(
                from: .approved, to: .approved, source: .manual, reason: nil, by: .person(.writer), label: "x") == nil)
    }

    @Test("the sets the store and the CLI take from here")
    func sets() {
        #expect(
            FindingLifecycle.personStatuses.map(\.rawValue) == [
                "approved", "applied", "verified", "declined", "kept", "false_positive",
            ])
        #expect(FindingLifecycle.needsWorkStatuses == [.proposed, .approved, .applied, .blocked])
        #expect(FindingLifecycle.stickyStatuses == [.declined, .kept, .falsePositive])
        #expect(FindingLifecycle.sdkReexamined == [.proposed, .approved, .applied, .verified, .blocked])
    }
}
