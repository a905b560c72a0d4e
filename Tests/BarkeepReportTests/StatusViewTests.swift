import BarkeepCore
import BarkeepProtocol
import Foundation
import Testing

@testable import BarkeepReport

/// `text` without ANSI escape sequences.
func strippingEscapes(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
}

@Suite("StatusView")
struct StatusViewTests {
    static let expected = """
        Project    app · iOS SDK 27.0 · deployment target 26.0
        Last scan  run 12 · 2026-11-29 12:00 UTC (3 h ago) · commit 1a2b3c4d · duo_scan 1.2.2
                   240 files · 3 new · 5 fixed · 1 reopened · 40 unchanged · 2 moved
        Findings   5 need work · 1 of them unmapped
                   3 proposed · 1 approved · 2 verified · 1 blocked · 1 kept · 1 false positive · 9 fixed
        Blocked    1 on the iOS 27.1 SDK
        Poses      6/10 passed (60%)
        Checklist  14/20 steps done (70%)
        Screens    1 of 2 done

        KEY       OWNER  C H M L I  BLOCKED  STEPS  POSES        DONE
        Inbox     alice  1 1 2 · ·        1   4/10  1/5 ✗P3 ✗P4
        Settings  bob    · · · · ·        ·  10/10  5/5          ✓
        unmapped         · · 1 · ·        ·

        """

    @Test("renders the fixture's status exactly")
    func exact() throws {
        let text = StatusView.render(try Fixtures.status, now: Fixtures.now, colored: false)
        #expect(text == Self.expected)
        #expect(!text.contains("\u{1B}"))
    }

    @Test("colour adds escape codes only")
    func colour() throws {
        let status = try Fixtures.status
        let colored = StatusView.render(status, now: Fixtures.now, colored: true)
        #expect(colored != Self.expected)
        #expect(strippingEscapes(colored) == Self.expected)
        #expect(colored.contains("\u{1B}[1mProject\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[31m✗P3\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[31m1\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[32m✓\u{1B}[0m"))
    }

    @Test("the same status renders the same text; the scan's age follows now")
    func deterministic() throws {
        let status = try Fixtures.status
        #expect(
            StatusView.render(status, now: Fixtures.now, colored: false)
                == StatusView.render(status, now: Fixtures.now, colored: false))
        let later = StatusView.render(status, now: Fixtures.now.addingTimeInterval(2 * 86_400), colored: false)
        #expect(later.contains("(2 d ago)"))
    }

    @Test("before the first scan, with no screens, nothing blocked and no findings")
    func empty() {
        let status = ProjectStatus(
            project: ProjectInfo(
                name: "fresh", sdk: SDKVersion(27, 0), deploymentTarget: SDKVersion(26, 0), requiredPoses: ["P1"]),
            totals: StatusTotals())
        #expect(
            StatusView.render(status, now: Fixtures.now, colored: false) == """
                Project    fresh · iOS SDK 27.0 · deployment target 26.0
                Last scan  none yet
                Findings   0 need work
                Blocked    none
                Poses      0/0 passed
                Checklist  0/0 steps done
                Screens    0 of 0 done

                No screens yet: add them with barkeep screen add or barkeep screen discover.

                """)
    }

    @Test("long keys, owners, counts and many failed poses stay within 100 columns")
    func width() throws {
        var status = try Fixtures.status
        let poses = (1...16).map { "P\($0)" }
        status.project.requiredPoses = poses
        status.project.name = String(repeating: "n", count: 64)
        status.totals.byStatus = Dictionary(uniqueKeysWithValues: FindingStatus.allCases.map { ($0, 12_345) })
        status.blocked = (0..<8).map { BlockedGroup(sdk: SDKVersion(27, $0), items: 100 + $0) }
        status.screens.append(
            ScreenStatus(
                key: String(repeating: "K", count: 128), owner: "someone with a very long name indeed",
                needsWork: SeverityCounts(critical: 99, high: 99, medium: 99, low: 99, info: 99), blocked: 999,
                stepsDone: 12, stepsApplicable: 12, posesPassed: 0, posesRequired: 16, failedPoses: poses,
                isDone: false))
        let lines = StatusView.render(status, now: Fixtures.now, colored: false).split(separator: "\n")
        for line in lines {
            #expect(line.count <= StatusView.maximumWidth, "\(line)")
        }
        let row = try #require(lines.first { $0.hasPrefix("KKK") })
        #expect(row.contains("KKKKKKKKKKKKKKKKKKKKK…  someone wit…"))
        #expect(row.contains("0/16 ✗P1 ✗P2 ✗P3 +13"))
    }
}
