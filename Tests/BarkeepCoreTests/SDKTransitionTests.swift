import BarkeepCore
import Testing

@Suite("SDKTransition")
struct SDKTransitionTests {
    private static let missing = SDKVerdict.blocked(reason: "needs the iOS 27.1 SDK (axisBehavior)", missing: [])
    private static let declared = SDKVerdict.available(gate: SDKVersion(27, 1))

    @Test(
        "an SDK move blocks, unblocks, re-words or leaves an item",
        arguments: [
            // Blocked still: only a new reason is written.
            (
                missing, FindingStatus.blocked, "needs the iOS 27.1 SDK (axisBehavior)", FindingStatus.approved,
                SDKTransition.unchanged
            ),
            (
                missing, .blocked, "needs the iOS 27.2 SDK (a)", .approved,
                .newReason("needs the iOS 27.1 SDK (axisBehavior)")
            ),
            (missing, .blocked, nil, .approved, .newReason("needs the iOS 27.1 SDK (axisBehavior)")),
            // Not blocked yet: blocked, whatever the status.
            (missing, .proposed, nil, nil, .block(reason: "needs the iOS 27.1 SDK (axisBehavior)")),
            (missing, .applied, nil, nil, .block(reason: "needs the iOS 27.1 SDK (axisBehavior)")),
            // Available: a blocked item goes back to where it was; another stays.
            (declared, .blocked, "needs the iOS 27.1 SDK (axisBehavior)", .applied, .unblock(to: .applied)),
            (declared, .blocked, "needs the iOS 27.1 SDK (axisBehavior)", nil, .unblock(to: .proposed)),
            (declared, .approved, nil, nil, .unchanged),
            (SDKVerdict.available(gate: nil), .proposed, nil, nil, .unchanged),
        ] as [(SDKVerdict, FindingStatus, String?, FindingStatus?, SDKTransition)]
    )
    func transition(
        verdict: SDKVerdict, status: FindingStatus, reason: String?, before: FindingStatus?, expected: SDKTransition
    ) {
        #expect(SDKTransition(verdict: verdict, status: status, reason: reason, statusBeforeBlock: before) == expected)
    }

    @Test("every status the SDK re-examines is blocked by a missing symbol or stays blocked")
    func everyReexaminedStatus() {
        for status in FindingLifecycle.sdkReexamined {
            let transition = SDKTransition(
                verdict: Self.missing, status: status, reason: nil, statusBeforeBlock: .approved)
            #expect(transition != .unchanged || status == .blocked, "\(status)")
        }
    }
}
