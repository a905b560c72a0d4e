import BarkeepCore
import Testing

@Suite("SDKAvailability")
struct SDKAvailabilityTests {
    private let v27_0 = SDKVersion(27, 0)
    private let v27_1 = SDKVersion(27, 1)
    private let v26 = SDKVersion(26, 0)

    private func facts(_ symbol: String, _ sdk: String?, found: Bool? = nil) -> SymbolFacts {
        SymbolFacts(symbol: symbol, introduced: sdk.flatMap(SDKVersion.init), foundByCheck: found)
    }

    @Test("an item needing nothing is available without a gate")
    func needsNothing() {
        #expect(SDKAvailability.verdict(needs: [], sdk: v27_0, deploymentTarget: v26) == .available(gate: nil))
    }

    @Test(
        "symbols newer than the SDK block, with the SDK that brings them",
        arguments: [
            (["axisBehavior": "27.1"], "needs the iOS 27.1 SDK (axisBehavior)"),
            (
                ["verticalBarEdge": "27.1", "axisBehavior": "27.1", "visibilityPriority": "27.0"],
                "needs the iOS 27.1 SDK (axisBehavior, verticalBarEdge)"
            ),
            (["a": "27.2", "b": "27.1"], "needs the iOS 27.2 SDK (a); needs the iOS 27.1 SDK (b)"),
        ] as [([String: String], String)]
    )
    func blocked(needs: [String: String], reason: String) {
        let verdict = SDKAvailability.verdict(
            needs: needs.map { facts($0.key, $0.value) }, sdk: v27_0, deploymentTarget: v26)
        guard case .blocked(let text, let missing) = verdict else {
            Issue.record("expected blocked, got \(verdict)")
            return
        }
        #expect(text == reason)
        #expect(Set(missing.map(\.symbol)) == Set(needs.filter { $0.value != "27.0" }.keys))
        #expect(verdict.isBlocked)
        #expect(verdict.gate == nil)
    }

    @Test("a symbol no SDK declares blocks on any SDK")
    func undeclared() {
        let verdict = SDKAvailability.verdict(
            needs: [facts("barMinimizationBehavior", nil)], sdk: SDKVersion(99, 0), deploymentTarget: v26)
        #expect(
            verdict
                == .blocked(
                    reason: "needs a symbol no iOS SDK declares (barMinimizationBehavior)",
                    missing: [facts("barMinimizationBehavior", nil)]))
    }

    @Test(
        "available symbols need a gate exactly when the newest is above the deployment target",
        arguments: [
            ("27.1", "26.0", "27.1"),
            ("27.1", "27.1", nil),
            ("27.1", "27.2", nil),
            ("27.0", "26.4", "27.0"),
        ] as [(String, String, String?)]
    )
    func gate(symbolSDK: String, target: String, gate: String?) throws {
        let verdict = SDKAvailability.verdict(
            needs: [facts("x", "26.0"), facts("y", symbolSDK)], sdk: v27_1,
            deploymentTarget: try #require(SDKVersion(target)))
        #expect(verdict == .available(gate: gate.flatMap(SDKVersion.init)))
    }

    @Test("the team's SDK check outranks the table, both ways")
    func checkOutranksTable() {
        // Found by the check although the table dates it after the SDK.
        #expect(
            SDKAvailability.verdict(
                needs: [facts("axisBehavior", "27.1", found: true)], sdk: v27_0, deploymentTarget: v26)
                == .available(gate: v27_1))
        // Not found although the table says the SDK has it.
        let verdict = SDKAvailability.verdict(
            needs: [facts("visibilityPriority", "27.0", found: false)], sdk: v27_0, deploymentTarget: v26)
        guard case .blocked(let reason, _) = verdict else {
            Issue.record("expected blocked")
            return
        }
        #expect(reason == "the SDK check did not find visibilityPriority in the iOS 27.0 SDK")
        // Found, with no known version: available, and no gate can be computed.
        #expect(
            SDKAvailability.verdict(needs: [facts("custom", nil, found: true)], sdk: v27_0, deploymentTarget: v26)
                == .available(gate: nil))
    }
}
