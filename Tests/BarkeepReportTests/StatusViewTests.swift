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
                   240 files · 3 new · 5 fixed · 1 reopened · 40 unchanged · 2 moved · 1 in renamed files
                   4 changed
        Findings   5 need work · 1 of them unmapped · 1 critical, 1 high, 3 medium
                   3 proposed · 1 approved · 2 verified · 1 blocked · 1 kept · 1 false positive · 9 fixed
        Blocked    1 on the iOS 27.1 SDK
        Poses      6/10 settled (60%)
        Checklist  14/20 steps done (70%)
        Screens    1 of 2 done

        KEY       OWNER  C H M L I  IN PROGRESS  BLOCKED  STEPS  POSES        DONE
        Inbox     alice  1 · 1 · ·            1        1   4/10  1/5 ✗P3 ✗P4
        Settings  bob    · · · · ·            ·        ·  10/10  5/5          ✓
        unmapped         · · 1 · ·            ·        ·
        C H M L I: untriaged (proposed) findings by severity · IN PROGRESS: approved or applied

        """

    /// The fixture's status, its findings split: on Inbox a critical and a medium untriaged, a high in progress and
    /// a medium blocked; the unmapped medium untriaged.
    static var status: ProjectStatusReply {
        get throws {
            var status = try Fixtures.status
            status.screens[0].untriaged = SeverityCounts(critical: 1, medium: 1)
            status.screens[0].inProgress = SeverityCounts(high: 1)
            status.unmapped.untriaged = SeverityCounts(medium: 1)
            return status
        }
    }

    @Test("renders the fixture's status exactly")
    func exact() throws {
        let text = StatusView.render(try Self.status, now: Fixtures.now, colored: false)
        #expect(text == Self.expected)
        #expect(!text.contains("\u{1B}"))
    }

    @Test("the Findings row's severities are the totals' (each finding once), and left out without them")
    func severitiesOfTotals() throws {
        var status = try Self.status
        status.totals.needsWorkBySeverity = SeverityCounts(high: 2, low: 3)
        #expect(StatusView.render(status, now: Fixtures.now, colored: false).contains("unmapped · 2 high, 3 low\n"))
        // An older daemon does not send them: the row says nothing rather than a wrong or zero split.
        status.totals.needsWorkBySeverity = nil
        let text = StatusView.render(status, now: Fixtures.now, colored: false)
        #expect(text.contains("Findings   5 need work · 1 of them unmapped\n"))
    }

    @Test("colour adds escape codes only")
    func colour() throws {
        let status = try Self.status
        let colored = StatusView.render(status, now: Fixtures.now, colored: true)
        #expect(colored != Self.expected)
        #expect(strippingEscapes(colored) == Self.expected)
        #expect(colored.contains("\u{1B}[1mProject\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[31m✗P3\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[31m1\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[32m✓\u{1B}[0m"))
    }

    @Test("a title or owner holding control characters or bidi overrides shows them as marks, colour or not")
    func hostileText() throws {
        var status = try Self.status
        status.screens[0].title = "Evil\u{9B}31m\u{202E}txt"
        status.screens[0].owner = "ann\u{1B}]0;x\u{7}"
        for colored in [false, true] {
            let text = StatusView.render(status, now: Fixtures.now, colored: colored)
            #expect(text.contains("Evil<U+009B>31m<U+202E>txt"))
            #expect(text.contains("ann<U+001B>]0;x<U+0007>"))
            #expect(!text.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E || $0.value == 0x07 })
        }
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
        let status = ProjectStatusReply(
            project: ProjectInfo(
                name: "fresh", sdk: SDKVersion(27, 0), deploymentTarget: SDKVersion(26, 0), requiredPoses: ["P1"]),
            totals: StatusTotals())
        #expect(
            StatusView.render(status, now: Fixtures.now, colored: false) == """
                Project    fresh · iOS SDK 27.0 · deployment target 26.0
                Last scan  none yet
                Findings   0 need work
                Blocked    none
                Poses      0/0 settled
                Checklist  0/0 steps done
                Screens    0 of 0 done

                No screens yet: add them with barkeep screen add or barkeep screen discover.

                """)
    }

    /// The fixture with 16 required poses, a long name, big counts and a screen of a 128-character key, a title and
    /// a long owner.
    private func crowded() throws -> ProjectStatusReply {
        var status = try Fixtures.status
        let poses = (1...16).map { "P\($0)" }
        status.project.requiredPoses = poses
        status.project.name = String(repeating: "n", count: 64)
        status.totals.byStatus = Dictionary(uniqueKeysWithValues: FindingStatus.allCases.map { ($0, 12_345) })
        status.blocked = (0..<8).map { BlockedGroupRecord(sdk: SDKVersion(27, $0), items: 100 + $0) }
        status.screens.append(
            ScreenStatusRecord(
                key: String(repeating: "K", count: 128), title: "A screen with a title",
                owner: "someone with a very long name indeed",
                needsWork: SeverityCounts(critical: 99, high: 99, medium: 99, low: 99, info: 99),
                untriaged: SeverityCounts(critical: 99, high: 99, medium: 99, low: 99, info: 99), blocked: 999,
                stepsDone: 12, stepsApplicable: 12, posesPassed: 0, posesRequired: 16, failedPoses: poses,
                isDone: false))
        return status
    }

    @Test("on a terminal of 100 columns, titles go, then keys and owners are cut; every line fits")
    func width() throws {
        let lines = StatusView.render(try crowded(), now: Fixtures.now, colored: false, width: 100)
            .split(separator: "\n")
        for line in lines {
            #expect(line.count <= 100, "\(line)")
        }
        #expect(!lines.contains { $0.contains("TITLE") || $0.contains("A screen with a title") })
        let row = try #require(lines.first { $0.hasPrefix("KKK") })
        #expect(row.contains("KKKKKKKKKKK…  someone with…  99 99 99 99 99"))
        #expect(row.contains("0/16 ✗P1 ✗P2 ✗P3 +13"))
    }

    @Test("a wide terminal shows keys whole and titles; not a terminal (no width), nothing is cut")
    func wide() throws {
        let status = try crowded()
        let key = String(repeating: "K", count: 128)
        for width in [300, nil] {
            let lines = StatusView.render(status, now: Fixtures.now, colored: false, width: width)
                .split(separator: "\n", omittingEmptySubsequences: false)
            let row = try #require(lines.first { $0.hasPrefix("KKK") })
            #expect(row.hasPrefix(key + "  A screen with a title  someone with a very long name indeed"))
            #expect(lines.contains { $0.hasPrefix("KEY") && $0.contains("TITLE") })
            // The header block keeps to 100 columns.
            for line in lines.prefix(while: { !$0.isEmpty }) {
                #expect(line.count <= StatusView.maximumWidth, "\(line)")
            }
        }
    }

    @Test("owners, untriaged and in progress apart, and the rows a filtered reply holds")
    func ownersAndSelection() throws {
        var status = try Fixtures.status
        status.screens[0].title = "Inbox list"
        status.screens[0].untriaged = SeverityCounts(critical: 1, medium: 2)
        status.screens[0].inProgress = SeverityCounts(high: 1)
        status.owners = [
            OwnerStatus(
                owner: "alice", screens: 1, needsWork: 5, untriaged: SeverityCounts(critical: 1, medium: 2),
                inProgress: SeverityCounts(high: 1), blocked: 1)
        ]
        status.screens.removeLast()
        status.selection = StatusSelection(owner: "alice", isNotDoneOnly: true, sort: "work", matched: 1, shown: 1)
        let text = StatusView.render(status, now: Fixtures.now, colored: false)
        #expect(
            text.hasSuffix(
                """
                Screens    1 of 2 done
                Showing    1 row · owner alice · not done · by work

                OWNER  SCREENS  DONE  C H M L I  IN PROGRESS  BLOCKED
                alice        1     ·  1 · 2 · ·            1        1

                KEY    TITLE       OWNER  C H M L I  IN PROGRESS  BLOCKED  STEPS  POSES        DONE
                Inbox  Inbox list  alice  1 · 2 · ·            1        1   4/10  1/5 ✗P3 ✗P4
                C H M L I: untriaged (proposed) findings by severity · IN PROGRESS: approved or applied

                """))

        status.screens = []
        status.selection = StatusSelection(owner: "carol", matched: 0, shown: 0)
        #expect(
            StatusView.render(status, now: Fixtures.now, colored: false).hasSuffix("No screen matches the filters.\n"))
    }
}
