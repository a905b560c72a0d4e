import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepTestSupport
import Foundation
import Testing

@testable import BarkeepReport

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("ReadinessReport")
struct ReadinessReportTests {
    /// The whole report of the fixture, checked by hand once: header; summary with a count per tier; Inbox once,
    /// opening with its verdict (findings to fix by step, the item blocked and its symbol, failed and unverified
    /// poses, the steps to do), its findings of every tier and its component's (marked), its failed poses with
    /// screenshots and findings; the app area; the unmapped bucket with the finding of a component no screen uses;
    /// Settings one line under Ready; verified, kept and false positive with reasons; the fixed finding left out;
    /// the poses not verified, one line for Inbox.
    static let expected = ##"""
        # Readiness report — app

        - Toolchain: iOS SDK 27.0, deployment target iOS 26.0
        - Last scan: duo\_scan 1.2.2, run 12, commit `1a2b3c4d5e6f7a8b`, 240 files scanned, 2026-11-29 12:00 UTC
        - App lifecycle: scene
        - Generated: 2026-11-29 15:00 UTC

        ## Summary

        - Screens done: 1 of 2
        - Findings needing work: 8 (1 critical, 1 high, 4 medium, 1 low, 1 info)
        - Blocked items: 1 on the iOS 27.1 SDK
        - Pose coverage: 6 of 10 required poses settled (60%)
        - Failed poses: 2 on 1 screen
        - Checklist completion: 14 of 20 applicable steps done (70%)
        - Burndown: needs work 9 → 5, blocked 2 → 1 (run 10 to run 12)

        | Tier | What it covers | Findings needing work |
        | --- | --- | --- |
        | 0 | blockers | 1 |
        | 1 | correctness on the inner display | 2 |
        | 2 | bars | 3 |
        | 3 | richer adoption | 2 |

        | Step | What it asks | Screens done |
        | --- | --- | --- |
        | 1 `container` | Put every bar item in a navigation or tab container; a bar that must stay custom reads the bar's edge and keeps its strip clear. | 0 of 1 |
        | 2 `order` | Lead the vertical bar with back or close, then the prominent actions; keep related items together. | 1 of 1 |
        | 3 `title-and-symbol` | Give each item a title as well as a symbol. | 1 of 1 |
        | 4 `informative-text` | Keep text that informs horizontal; reduce redundant labels to a symbol and show counts as badges. | 1 of 1 |
        | 5 `axis` | Keep items that change shape horizontal only; let custom views with a vertical form prefer the vertical axis. | 0 of 1 |
        | 6 `custom-views-fit` | Make custom views fit the fixed bar width or adapt to the vertical bar edge, legible without the scroll edge effect and with Reduce Transparency. | 0 of 0 |
        | 7 `overflow` | Use a single overflow menu that owns the ellipsis; fold custom catch-all menus into it. | 1 of 1 |
        | 8 `compression` | Choose whether the toolbar or the tab bar gives way first to suit the screen's purpose. | 0 of 1 |
        | 9 `priority` | Set visibility priority on groups, then items: high for creation and status, low for rare actions. | 0 of 1 |
        | 10 `opt-out` | Turn vertical bars off only where it suits (a bottom-heavy single page, a one-control sheet), fixed per presentation. | 0 of 0 |
        | 11 `backgrounds` | Let hero images and full-bleed headers run under the bar with the background extension effect; keep scrolling content inset. | 0 of 1 |
        | 12 `sheets` | Start sheets from the default placement, justify any other, and check trailing sheets on a device or simulator. | 0 of 1 |

        ## Recommendations

        1 screen has work left and 1 is ready. Work is left in the app area and findings no screen owns too.

        ### Inbox

        **Left:** 4 findings to fix: 1 in step 1 `container`, 1 in step 7 `overflow`, 2 of no checklist step (DUO001, DUO005); 1 item blocked on the iOS 27.1 SDK (`axisBehavior`); poses P3, P4 failed; poses P2, P11 not verified; checklist steps 1 `container`, 5 `axis`, 8 `compression`, 9 `priority`, 11 `backgrounds`, 12 `sheets` to do.

        Owner: alice. Uses Row (a component): its findings are marked with the component and listed under every screen using it.

        | Item | Tier | Finding | Code or title | SDK | Status |
        | --- | --- | --- | --- | --- | --- |
        | F-1 | 0 | `DUO005:Sources/Inbox/AppDelegate.swift:3` | `class AppDelegate: UIResponder, UIApplicationDelegate {` | available | proposed |
        | F-2 | 1 | `DUO001:Sources/Inbox/InboxView.swift:40` | `let width = UIScreen.main.bounds.width` | available | approved |
        | F-3 | 2 | `DUO007:Sources/Inbox/InboxView.swift:12` | `let bar = UIToolbar() // a \| b` | available | proposed |
        | F-4 | 2 | manual, step 5 axis | Compose keeps its \`axis\` \<shape\> \& size | blocked on the iOS 27.1 SDK | blocked |
        | F-11 (Row) | 2 | `DUO011:Sources/Shared/Row.swift:7` | `Image(systemName: "ellipsis.circle")` | available | proposed |

        Failed poses:

        | Pose | Screenshot | Finding |
        | --- | --- | --- |
        | P3 | `shots/p3.png` | F-3 (proposed) |
        | P4 | `shots/p4.png` | F-4 (blocked) |

        ### app

        **Left:** 1 finding to fix of no checklist step (DUO020).

        App-wide files: no checklist step applies.

        | Item | Tier | Finding | Code or title | SDK | Status |
        | --- | --- | --- | --- | --- | --- |
        | F-13 | 3 | `DUO020:App/Info.plist` | UIRequiresFullScreen is set | available | proposed |

        ### unmapped

        **Left:** 2 findings to fix of no checklist step (DUO003, DUO010).

        No screen owns these findings: add their files to a screen's paths so a recommendation covers them. Those marked with a component come from Badge, which no screen uses: say which screens use it (barkeep screen uses).

        | Item | Tier | Finding | Code or title | SDK | Status |
        | --- | --- | --- | --- | --- | --- |
        | F-12 (Badge) | 1 | `DUO003:Sources/Shared/Badge.swift:4` | `if UIDevice.current.userInterfaceIdiom == .pad {` | available | proposed |
        | F-5 | 3 | `DUO010:Shared/SceneRouter.swift:31` | ``requestSceneSessionActivation(nil, userActivity: `default`, options: nil)`` | available | proposed |

        ### Ready

        - Settings (owner bob)

        ## Verified

        | Item | Screen | Finding | Code or title | Reason |
        | --- | --- | --- | --- | --- |
        | F-6 | Inbox | manual | P3: toolbar overlaps the list | — |
        | F-7 | Settings | `DUO011:Sources/Settings/SettingsView.swift:88` | `Image(systemName: "ellipsis")` | — |

        ## Kept as is

        | Item | Screen | Finding | Code or title | Reason |
        | --- | --- | --- | --- | --- |
        | F-8 | unmapped | `DUO021:App/Info.plist` | Portrait-only supported orientations | portrait-only by design |

        ## Declined

        Nothing is declined.

        ## False positives

        | Item | Screen | Finding | Code or title | Reason |
        | --- | --- | --- | --- | --- |
        | F-9 | Settings | `DUO008:Sources/Settings/About.swift:5` | `NavigationView {` | behind \`\#if os(macOS)\` |

        ## Not verified

        - Inbox: P2 not run (simulator only: needs a device); P11 no result

        """##

    // MARK: - Markdown

    @Test("the fixture's report, exactly")
    func golden() throws {
        #expect(ReadinessReport.markdown(try Self.input, now: Fixtures.now) == Self.expected)
    }

    @Test("the order findings, poses and steps arrive in changes nothing")
    func stableOrder() throws {
        var input = try Self.input
        input.findings.reverse()
        input.poses.reverse()
        input.screens.reverse()
        input.steps = input.steps.mapValues { $0.reversed() }
        #expect(ReadinessReport.markdown(input, now: Fixtures.now) == Self.expected)
        // ReportInput.byScreen sorts; a caller that does not is still read by step number.
        input.steps = ReportInput.byScreen(input.steps.values.flatMap { $0 })
        #expect(ReadinessReport.markdown(input, now: Fixtures.now) == Self.expected)
    }

    @Test(
        "the tier a finding is filed under",
        arguments: [
            (FindingSource.scanner, 0, nil, 0), (.scanner, 2, 1, 2), (.scanner, nil, nil, 3), (.scanner, nil, 7, 3),
            (.manual, nil, 5, 2), (.manual, nil, nil, 1), (.manual, 0, nil, 0),
        ] as [(FindingSource, Int?, Int?, Int)]
    )
    func tiers(source: FindingSource, tier: Int?, step: Int?, expected: Int) {
        #expect(ReportFinding(number: 1, source: source, tier: tier, step: step).reportTier == expected)
    }

    @Test(
        "the SDK line of an item, against a project on the 27.1 SDK targeting 26.0",
        arguments: [
            (FindingStatus.proposed, nil, nil, "available"),
            (.approved, "27.1", nil, "needs if #available(iOS 27.1, *)"),
            (.verified, "26.0", nil, "available"),
            (.applied, "25.2", nil, "available"),
            (.blocked, nil, "needs the iOS 27.1 SDK (axisBehavior)", "blocked on the iOS 27.1 SDK"),
            (.blocked, nil, "needs the iOS 28 SDK (a, b)", "blocked on the iOS 28.0 SDK"),
            (.blocked, nil, "needs a symbol no iOS SDK declares (barMinimizationBehavior)", "blocked, no SDK yet"),
            (.blocked, nil, nil, "blocked, no SDK yet"),
        ] as [(FindingStatus, String?, String?, String)]
    )
    func sdkLine(status: FindingStatus, gate: String?, reason: String?, expected: String) {
        let project = ProjectInfo(
            name: "app", sdk: SDKVersion(27, 1), deploymentTarget: SDKVersion(26, 0), requiredPoses: [])
        let finding = ReportFinding(
            number: 1, source: .manual, status: status, reason: reason, needs: ["axisBehavior"],
            gate: gate.flatMap(SDKVersion.init))
        #expect(finding.sdkStanding(in: project).description == expected)
    }

    @Test("a project with nothing yet still has every section")
    func empty() throws {
        let status = ProjectStatusReply(
            project: ProjectInfo(
                name: "fresh", sdk: SDKVersion(27, 0), deploymentTarget: SDKVersion(27, 0), requiredPoses: ["P1"]),
            totals: StatusTotals())
        let markdown = ReadinessReport.markdown(ReportInput(status: status, findings: [], poses: []), now: Fixtures.now)
        #expect(
            markdown.hasPrefix("# Readiness report — fresh\n\n- Toolchain: iOS SDK 27.0, deployment target iOS 27.0\n"))
        #expect(
            markdown.contains("- Last scan: none yet\n- App lifecycle: unknown\n- Generated: 2026-11-29 15:00 UTC\n"))
        #expect(markdown.contains("- Findings needing work: none\n- Blocked items: none\n"))
        #expect(markdown.contains("- Pose coverage: 0 of 0 required poses settled\n"))
        #expect(!markdown.contains("Burndown"))
        #expect(markdown.contains("| 1 `container` | Put every bar item"))
        #expect(markdown.contains("| unknown |"))
        #expect(headings(markdown) == Self.sectionTitles)
        #expect(markdown.contains("| 0 | blockers | 0 |\n| 1 | correctness on the inner display | 0 |\n"))
        #expect(markdown.contains("## Recommendations\n\nNo screen has anything to fix.\n\n## Verified"))
        #expect(markdown.contains("- Failed poses: none\n"))
        #expect(markdown.contains("## Kept as is\n\nNothing is kept as is.\n"))
        #expect(markdown.hasSuffix("## Not verified\n\nEvery required pose has a result.\n"))
    }

    @Test("a screen the pose matrix leaves out is listed from the status's missing and failed poses")
    func missingPosesFallback() throws {
        var input = try Self.input
        input.poses.removeAll { $0.screen == "Inbox" }
        let markdown = ReadinessReport.markdown(input, now: Fixtures.now)
        #expect(markdown.hasSuffix("## Not verified\n\n- Inbox: P2, P11 no result or not run\n"))
        #expect(
            markdown.contains("Failed poses:\n\n| Pose | Screenshot | Finding |\n| --- | --- | --- |\n| P3 | — | — |\n")
        )
    }

    @Test("pipes, backticks, angle brackets and ampersands in snippets, titles and reasons are escaped")
    func markdownEscaping() throws {
        let input = try Self.trickyInput()
        let markdown = ReadinessReport.markdown(input, now: Fixtures.now)
        #expect(markdown.contains("| F-1 | `DUO007:Sources/A|B.swift:3` |") == false)
        #expect(
            markdown.contains("| F-1 | 2 | `DUO007:Sources/A\\|B.swift:3` | ``let s = \"a \\| b\" + `c` <d> & e`` |"))
        #expect(
            markdown.contains("| F-2 | 2 | manual, step 3 title-and-symbol | T \\| \\`x\\` \\<y\\> \\& z \\*w\\* |"))
        #expect(markdown.contains("| `` `tick` `` |"))
        #expect(
            markdown.contains("| F-4 | Odd\\_Screen | `DUO021:Info.plist` | — | a\\|b \\<i\\> line break |"))
        #expect(markdown.contains("### Odd\\_Screen\n"))
        // Every table row has as many unescaped pipes as its header: no cell spills into another column.
        var columns = 0
        for line in markdown.split(separator: "\n") where line.hasPrefix("|") {
            let pipes = unescapedPipes(line)
            if ["| Item", "| Step", "| Tier", "| Pose"].contains(where: line.hasPrefix) { columns = pipes }
            #expect(pipes == columns, "\(line)")
        }
    }

    // MARK: - One recommendation per screen

    @Test("a screen appears once, with its findings of every tier and those of each component it uses")
    func screenOnce() throws {
        var input = try Self.input
        // Settings uses Row too: Row's finding is listed under both screens, and counted once.
        input.screens[3].uses = ["Row"]
        input.screens[2].uses = ["Inbox", "Settings"]
        input.status.screens[1].isDone = false
        let markdown = ReadinessReport.markdown(input, now: Fixtures.now)
        let titles = markdown.split(separator: "\n").filter { $0.hasPrefix("### ") }
        #expect(titles == ["### Inbox", "### Settings", "### app", "### unmapped"])
        #expect(markdown.components(separatedBy: "| F-11 (Row) | 2 | `DUO011:Sources/Shared/Row.swift:7` |").count == 3)
        #expect(markdown.contains("- Findings needing work: 8 (1 critical, 1 high, 4 medium, 1 low, 1 info)\n"))
        #expect(markdown.contains("| 2 | bars | 3 |\n"))
        // Inbox's rows: by tier, then number, its component's last in tier 2.
        let inbox = try #require(
            markdown.components(separatedBy: "### Inbox").last?.components(separatedBy: "###").first)
        let ids = inbox.split(separator: "\n").filter { $0.hasPrefix("| F-") }.map {
            $0.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        }
        #expect(ids == ["F-1", "F-2", "F-3", "F-4", "F-11 (Row)"])
        #expect(!markdown.contains("## Tier"))
    }

    @Test("failed poses are listed under their screen with the screenshot and the finding they map to")
    func failedPoses() throws {
        var input = try Self.input
        input.poses.append(
            Fixtures.cell("Inbox", "P13", .failed, screenshot: "shots/p13 | odd.png", finding: 99))
        let markdown = ReadinessReport.markdown(input, now: Fixtures.now)
        #expect(
            markdown.contains(
                "Failed poses:\n\n| Pose | Screenshot | Finding |\n| --- | --- | --- |\n"
                    + "| P3 | `shots/p3.png` | F-3 (proposed) |\n| P4 | `shots/p4.png` | F-4 (blocked) |\n"
                    + "| P13 | `shots/p13 \\| odd.png` | F-99 |\n\n### app"))
        #expect(markdown.contains("- Failed poses: 3 on 1 screen\n"))
        let html = try XMLDocumentScan(ReadinessReport.html(input, now: Fixtures.now))
        let cells = html.elements(named: "td").map(\.text)
        #expect(cells.contains("shots/p13 | odd.png"))
        #expect(cells.contains("F-3 (proposed)"))
    }

    @Test("poses not verified take one line per screen, and one line when no screen has a result yet")
    func notVerifiedLines() throws {
        let project = ProjectInfo(
            name: "big", sdk: SDKVersion(27, 0), deploymentTarget: SDKVersion(26, 0),
            requiredPoses: ["P1", "P2", "P3", "P4", "P11", "P12"])
        let keys = (1...150).map { String(format: "Screen%03d", $0) }
        var input = ReportInput(
            status: ProjectStatusReply(
                project: project, totals: StatusTotals(),
                screens: keys.map {
                    ScreenStatusRecord(key: $0, posesRequired: 6, missingPoses: project.requiredPoses)
                }),
            findings: [],
            poses: keys.flatMap { key in
                project.requiredPoses.map { Fixtures.cell(key, $0, nil) }
            })
        let section = { (markdown: String) in markdown.components(separatedBy: "## Not verified\n\n").last ?? "" }
        #expect(
            section(ReadinessReport.markdown(input, now: Fixtures.now)) == "No pose has a result yet on 150 screens.\n")

        // Two screens with results: a line each; the other 148 share one line.
        input.poses[0].result = PoseCellResult(.passed)
        input.poses[7] = Fixtures.cell(keys[1], "P2", .notRun, reason: "simulator only")
        input.poses[10] = Fixtures.cell(keys[1], "P11", .notRun, reason: "simulator only")
        let lines = section(ReadinessReport.markdown(input, now: Fixtures.now)).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first == "- Screen001: P2, P3, P4, P11, P12 no result")
        #expect(lines.dropFirst().first == "- Screen002: P1, P3, P4, P12 no result; P2, P11 not run (simulator only)")
        #expect(lines.last == "- No pose has a result yet: " + keys.dropFirst(2).joined(separator: ", "))
    }

    @Test("--owner and --screens report a part: its screens, their components' findings, no unmapped")
    func selection() throws {
        let input = try Self.input
        let alice = ReadinessReport.markdown(input, selection: ReportSelection(owner: "alice"), now: Fixtures.now)
        #expect(
            alice.contains("## Summary\n\n- Part: screens owned by alice, 1 of the project's 2 screens; the figures"))
        #expect(
            alice.contains("- Screens done: 0 of 1\n- Findings needing work: 5 (1 critical, 1 high, 2 medium, 1 low)\n")
        )
        #expect(alice.contains("- Pose coverage: 1 of 5 required poses settled (20%)\n"))
        #expect(alice.contains("- Burndown of the whole project: needs work 9 → 5"))
        #expect(alice.split(separator: "\n").filter { $0.hasPrefix("### ") } == ["### Inbox"])
        #expect(alice.contains("| F-11 (Row) |"))
        #expect(
            !alice.contains("F-5 ") && !alice.contains("F-12") && !alice.contains("F-13") && !alice.contains("Settings")
        )
        #expect(
            alice.contains(
                "| 1 `container` | Put every bar item in a navigation or tab container; a bar that must stay custom reads the bar's edge and keeps its strip clear. | 0 of 1 |"
            ))
        #expect(alice.hasSuffix("- Inbox: P2 not run (simulator only: needs a device); P11 no result\n"))

        let settings = ReadinessReport.markdown(input, selection: ReportSelection(keyGlob: "S*"), now: Fixtures.now)
        #expect(settings.contains("- Part: screens whose key matches `S*`, 1 of the project's 2 screens; the figures"))
        #expect(
            settings.contains(
                "## Recommendations\n\nNo screen has anything to fix and 1 is ready.\n\n### Ready\n\n- Settings (owner bob)\n\n"
                    + "## Verified"))
        #expect(settings.contains("| F-7 | Settings |") && !settings.contains("| F-6 |"))
        #expect(settings.hasSuffix("## Not verified\n\nEvery required pose has a result.\n"))

        let both = ReportSelection(owner: "alice", keyGlob: "S*")
        #expect(both.screens(of: input.status).isEmpty)
        // `nobody` (any case) is the screens no one owns, as every owner filter reads it.
        let nobody = ReportSelection(owner: "Nobody")
        #expect(nobody.includes(key: "X", owner: nil) && !nobody.includes(key: "Inbox", owner: "alice"))
        let area = ReadinessReport.markdown(input, selection: ReportSelection(keyGlob: "a??"), now: Fixtures.now)
        #expect(area.contains("0 of the project's 2 screens and the app area"))
        #expect(area.split(separator: "\n").filter { $0.hasPrefix("### ") } == ["### app"])

        let html = try XMLDocumentScan(
            ReadinessReport.html(input, selection: ReportSelection(owner: "alice"), now: Fixtures.now))
        #expect(
            html.elements(named: "rect").map { $0.attributes["data-screen"] } == Array(repeating: "Inbox", count: 5))
    }

    @Test("SCREEN LIST rows give each screen's components; without them a component is listed under its key")
    func screenRecords() throws {
        let rows = try Fixtures.rows(
            [
                Record([
                    "key": "Badge", "kind": "component", "paths": "Sources/Shared/Badge.swift", "uses": "Inbox",
                    "created": "2026-11-29 10:00", "findings": "1",
                ]),
                Record(["key": "Legacy", "kind": "screen", "paths": "", "created": "2026-11-29 10:00"]),
            ], as: ScreenRecord.self)
        #expect(rows.map(\.uses) == [["Inbox"], nil])
        // Badge, now used by Inbox, has its finding listed under Inbox instead of under unmapped.
        var input = try Self.input
        input.screens = rows + input.screens.filter { $0.key != "Badge" }
        let sections = ReadinessReport.markdown(input, now: Fixtures.now).components(separatedBy: "\n### ")
        #expect(sections.first { $0.hasPrefix("Inbox") }?.contains("F-12") == true)
        #expect(sections.first { $0.hasPrefix("unmapped") }?.contains("F-12") == false)
        input = try Self.input
        input.screens = []
        let markdown = ReadinessReport.markdown(input, now: Fixtures.now)
        #expect(
            markdown.split(separator: "\n").filter { $0.hasPrefix("### ") } == [
                "### Badge", "### Inbox", "### Row", "### app", "### unmapped", "### Ready",
            ])
    }

    // MARK: - Verdicts

    /// The fixture with two more screens: Compose, nothing to fix, two steps done and two poses without a result;
    /// Gallery, only a failed pose.
    static func verdictInput() throws -> ReportInput {
        var input = try Self.input
        input.status.screens += [
            ScreenStatusRecord(
                key: "Compose", owner: "ana", stepsDone: 2, stepsApplicable: 4, posesRequired: 2,
                missingPoses: ["P1", "P2"]),
            ScreenStatusRecord(
                key: "Gallery", stepsDone: 1, stepsApplicable: 1, posesPassed: 1, posesRequired: 2,
                failedPoses: ["P3"]),
        ]
        input.steps["Compose"] = [
            Fixtures.step("Compose", 1, "container", .done),
            Fixtures.step("Compose", 3, "title-and-symbol", .todo),
            Fixtures.step("Compose", 6, "custom-views-fit", .notApplicable),
            Fixtures.step("Compose", 7, "overflow", .done),
            Fixtures.step("Compose", 11, "backgrounds", .todo),
        ]
        return input
    }

    @Test("each screen opens with its verdict; nothing to fix is a To verify line, done a Ready line; no filler")
    func verdicts() throws {
        let markdown = ReadinessReport.markdown(try Self.verdictInput(), now: Fixtures.now)
        #expect(!markdown.contains("Steps that apply") && !markdown.contains("No finding needs work"))
        #expect(
            markdown.split(separator: "\n").filter { $0.hasPrefix("### ") } == [
                "### Gallery", "### Inbox", "### app", "### unmapped", "### To verify", "### Ready",
            ])
        #expect(
            markdown.contains(
                "## Recommendations\n\n2 screens have work left, 1 has nothing to fix but is not verified yet and 1 is"
                    + " ready. Work is left in the app area and findings no screen owns too.\n\n### Gallery\n\n"
                    + "**Left:** pose P3 failed.\n\nFailed poses:\n"))
        #expect(
            markdown.contains(
                "### Inbox\n\n**Left:** 4 findings to fix: 1 in step 1 `container`, 1 in step 7 `overflow`, 2 of no"
                    + " checklist step (DUO001, DUO005); 1 item blocked on the iOS 27.1 SDK (`axisBehavior`); poses P3, P4"
                    + " failed; poses P2, P11 not verified; checklist steps 1 `container`, 5 `axis`, 8 `compression`, 9"
                    + " `priority`, 11 `backgrounds`, 12 `sheets` to do.\n\nOwner: alice. Uses Row"))
        #expect(
            markdown.contains(
                "### To verify\n\n- Compose (owner ana): poses P1, P2 not verified; checklist steps 3"
                    + " `title-and-symbol`, 11 `backgrounds` to do.\n\n### Ready\n\n- Settings (owner bob)\n\n## Verified"
            ))

        // Every step to do is said once, not listed; a screen whose steps are unknown is counted from its status.
        var input = try Self.verdictInput()
        input.steps["Compose"] = input.steps["Compose"]?.map { line in
            var line = line
            if line.state == .done { line.state = .todo }
            return line
        }
        #expect(
            ReadinessReport.markdown(input, now: Fixtures.now).contains(
                "- Compose (owner ana): poses P1, P2 not verified; all 4 checklist steps to do.\n"))
        input.steps["Compose"] = nil
        #expect(
            ReadinessReport.markdown(input, now: Fixtures.now).contains(
                "- Compose (owner ana): poses P1, P2 not verified; 2 checklist steps to do.\n"))
    }

    @Test("a verified finding a later scan still reports has its own warning list, and is not listed as verified")
    func stillReported() throws {
        var input = try Self.input
        input.findings = input.findings.map { finding in
            var finding = finding
            if finding.number == 7 { finding.stillReportedRun = 12 }
            return finding
        }
        let markdown = ReadinessReport.markdown(input, now: Fixtures.now)
        #expect(
            markdown.contains(
                "- Verified but still reported: 1 (F-7): a scan after its verification still reports it\n"))
        #expect(
            markdown.contains(
                "## Verified but still reported\n\nThese findings are marked verified, but a scan after their"
                    + " verification still reports them"))
        #expect(
            markdown.contains(
                "| F-7 | Settings | `DUO011:Sources/Settings/SettingsView.swift:88` | `Image(systemName: \"ellipsis\")` |"
                    + " verified, still reported in run 12 |"))
        #expect(markdown.contains("- Settings (owner bob): F-7 verified, still reported in run 12.\n"))
        let verified = try #require(markdown.range(of: "## Verified\n"))
        let kept = try #require(markdown.range(of: "## Kept as is\n"))
        #expect(!markdown[verified.upperBound..<kept.lowerBound].contains("F-7"))
        #expect(markdown[verified.upperBound..<kept.lowerBound].contains("| F-6 | Inbox |"))
        #expect(
            headings(markdown) == [
                "Summary", "Verified but still reported", "Recommendations", "Verified", "Kept as is", "Declined",
                "False positives", "Not verified",
            ])

        let html = ReadinessReport.html(input, now: Fixtures.now)
        let document = try XMLDocumentScan(html)
        #expect(
            document.elements(named: "h2").map(\.text).prefix(3) == [
                "Summary", "Verified but still reported", "Recommendations",
            ])
        #expect(html.contains("<span class=\"warning\">verified, still reported in run 12</span>"))
    }

    @Test("the HTML never breaks a step key: each is a code.step element, which the stylesheet keeps on one line")
    func stepKeysUnbroken() throws {
        let html = ReadinessReport.html(try Self.verdictInput(), now: Fixtures.now)
        let document = try XMLDocumentScan(html)
        let keys = Set(ChecklistStep.all.map(\.key))
        let codes = document.elements(named: "code").filter { keys.contains($0.text) }
        // The 12 of the checklist table, 6 in Inbox's verdict and its 2 findings of a step, 2 in Compose's line.
        #expect(codes.count == 12 + 6 + 2 + 2)
        #expect(codes.allSatisfy { $0.attributes["class"] == "step" })
        let style = try #require(document.elements(named: "style").first?.text)
        let rule = try #require(style.range(of: "code.step {"))
        let body = style[rule.upperBound...].prefix { $0 != "}" }
        #expect(body.contains("white-space: nowrap") && body.contains("word-break: normal"))
        // Other code (snippets, paths) may still break anywhere: it is often longer than a column.
        #expect(style.contains("word-break: break-all"))
    }

    // MARK: - HTML

    @Test("the HTML report is one well-formed, self-contained file")
    func htmlWellFormed() throws {
        for input in [try Self.input, try Self.trickyInput()] {
            let html = ReadinessReport.html(input, now: Fixtures.now)
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n"))
            let document = try XMLDocumentScan(html)
            #expect(document.root?.name == "html")
            let lowered = html.lowercased()
            for forbidden in ["http", "<script", "<link", "src=", "url(", "@import", "@font-face", "<iframe", "<img"] {
                #expect(!lowered.contains(forbidden), "\(forbidden)")
            }
            #expect(document.elements(named: "style").count == 1)
            #expect(document.elements(named: "svg").map { $0.attributes["id"] } == ["pose-matrix", "burndown"])
            #expect(document.elements(named: "h2").map(\.text) == Self.sectionTitles)
        }
    }

    @Test("the pose matrix has one rect per screen and required pose, coloured by its result")
    func poseMatrix() throws {
        let input = try Fixtures.input
        let document = try XMLDocumentScan(ReadinessReport.html(input, now: Fixtures.now))
        let rects = document.elements(named: "rect")
        let screens = ["Inbox", "Settings"]
        let poses = input.status.project.requiredPoses
        #expect(rects.count == screens.count * poses.count)
        let expected = Dictionary(
            uniqueKeysWithValues: input.poses.map { ("\($0.screen) \($0.pose.rawValue)", $0.result.wire) })
        for rect in rects {
            let key = "\(rect.attributes["data-screen"] ?? "?") \(rect.attributes["data-pose"] ?? "?")"
            #expect(rect.attributes["data-result"] == expected[key], "\(key)")
        }
        #expect(rects.map { $0.attributes["data-screen"] ?? "" } == screens.flatMap { Array(repeating: $0, count: 5) })
        #expect(rects.map { $0.attributes["data-pose"] ?? "" } == poses + poses)
        #expect(
            rects.map { $0.attributes["fill"] ?? "" }.prefix(5) == [
                "#2e7d32", "#f0a500", "#c62828", "#c62828", "#9e9e9e",
            ])
        let labels = document.elements.filter {
            $0.name == "text" && ["screen", "pose"].contains($0.attributes["class"])
        }
        #expect(labels.map(\.text) == poses + screens)
    }

    @Test("a pose a screen does not require (no cell in POSES) is left empty; one only a screen requires is a column")
    func poseMatrixGaps() throws {
        var input = try Fixtures.input
        input.poses.removeAll { $0.screen == "Settings" && $0.pose == .p3 }
        input.poses.append(try Fixtures.rows([Record(["screen": "Inbox", "pose": "P13", "result": "none"])])[0])
        let document = try XMLDocumentScan(ReadinessReport.html(input, now: Fixtures.now))
        func cell(_ screen: String, _ pose: String) -> String? {
            document.elements(named: "rect").first {
                $0.attributes["data-screen"] == screen && $0.attributes["data-pose"] == pose
            }?.attributes["data-result"]
        }
        #expect(cell("Settings", "P3") == nil)
        #expect(cell("Inbox", "P13") == "none")
        #expect(cell("Settings", "P13") == nil)
    }

    @Test("the burndown is embedded as BurndownChart draws it, without declaration or namespace")
    func embeddedBurndown() throws {
        let input = try Fixtures.input
        let html = ReadinessReport.html(input, now: Fixtures.now)
        let standalone = BurndownChart.svg(input.burndown, title: "Burndown — app")
        let inline = standalone.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", with: "")
            .replacingOccurrences(of: " xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(html.contains(inline))
        let circles = try XMLDocumentScan(html).elements(named: "circle")
        #expect(circles.map { $0.attributes["data-label"] } == input.burndown.map(\.label))
        #expect(circles.map { $0.attributes["data-needs-work"] } == input.burndown.map { String($0.needsWork) })
    }

    @Test("HTML text reads back exactly as the records held it")
    func htmlEscaping() throws {
        let html = ReadinessReport.html(try Self.trickyInput(), now: Fixtures.now)
        #expect(html.contains("&lt;d&gt; &amp; e"))
        let document = try XMLDocumentScan(html)
        let code = document.elements(named: "code").map(\.text)
        #expect(code.contains("let s = \"a | b\" + `c` <d> & e"))
        #expect(code.contains("curl &#104;ttps://example.com?a=1&b=2"))
        let cells = document.elements(named: "td").map(\.text)
        #expect(cells.contains("T | `x` <y> & z *w*"))
        #expect(cells.contains("see https://example.com/x & more"))
        #expect(document.elements(named: "h3").map(\.text).contains("Odd_Screen"))
    }

    // MARK: - Helpers

    /// The shared fixture with what the readiness report adds: the screens of `SCREEN LIST` (Inbox uses the component
    /// Row; no screen uses Badge), a finding of each component and one of the app area, and the failed poses mapped
    /// to findings of Inbox.
    static var input: ReportInput {
        get throws {
            var input = try Fixtures.input
            let mapped: [Pose: Int] = [.p3: 3, .p4: 4]
            input.poses = input.poses.map { cell in
                var cell = cell
                if cell.screen == "Inbox", let number = mapped[cell.pose] { cell.finding = ProjectNumber(number) }
                return cell
            }
            input.findings += [
                ReportFinding(
                    number: 11, source: .scanner, rule: "DUO011", tier: 2, severity: .low,
                    file: "Sources/Shared/Row.swift", line: 7, snippet: "Image(systemName: \"ellipsis.circle\")",
                    screen: "Row", step: 7),
                ReportFinding(
                    number: 12, source: .scanner, rule: "DUO003", tier: 1, file: "Sources/Shared/Badge.swift", line: 4,
                    snippet: "if UIDevice.current.userInterfaceIdiom == .pad {", screen: "Badge"),
                ReportFinding(
                    number: 13, source: .scanner, rule: "DUO020", severity: .info, file: "App/Info.plist",
                    screen: AuditArea.app, title: "UIRequiresFullScreen is set"),
            ]
            input.status.screens.append(
                ScreenStatusRecord(key: AuditArea.app, kind: .area, needsWork: SeverityCounts(info: 1)))
            input.screens = [
                Fixtures.screen("Badge", kind: .component), Fixtures.screen("Inbox", owner: "alice", uses: ["Row"]),
                Fixtures.screen("Row", kind: .component, uses: ["Inbox"]), Fixtures.screen("Settings", owner: "bob"),
                Fixtures.screen(AuditArea.app, kind: .area),
            ]
            return input
        }
    }

    /// The `##` sections of every report, in order.
    static let sectionTitles = [
        "Summary", "Recommendations", "Verified", "Kept as is", "Declined", "False positives", "Not verified",
    ]

    /// The fixture with findings whose text needs escaping everywhere.
    static func trickyInput() throws -> ReportInput {
        var input = try Self.input
        input.findings = [
            ReportFinding(
                number: 1, source: .scanner, rule: "DUO007", tier: 2, file: "Sources/A|B.swift", line: 3,
                snippet: "let s = \"a | b\" + `c` <d> & e", screen: "Inbox"),
            ReportFinding(
                number: 2, source: .manual, screen: "Inbox", title: "T | `x` <y> & z *w*", step: 3),
            ReportFinding(
                number: 3, source: .scanner, rule: "DUO010", file: "x.swift", line: 1, snippet: "`tick`",
                screen: "Inbox"),
            ReportFinding(
                number: 4, source: .scanner, rule: "DUO021", file: "Info.plist", status: .kept,
                reason: "a|b <i>\nline break", screen: "Odd_Screen"),
            ReportFinding(
                number: 5, source: .scanner, rule: "DUO010", file: "y.swift", line: 2,
                snippet: "curl &#104;ttps://example.com?a=1&b=2", screen: "Odd_Screen",
                title: "see https://example.com/x & more"),
            ReportFinding(
                number: 6, source: .manual, screen: "Odd_Screen", title: "see https://example.com/x & more"),
            ReportFinding(
                number: 7, source: .scanner, rule: "DUO010", file: "z.swift", line: 9,
                snippet: #"let pattern = "a\|b" // ends with \"#, screen: "Odd_Screen"),
        ]
        return input
    }
}

/// The `##` headings of a Markdown document.
private func headings(_ markdown: String) -> [String] {
    markdown.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
}

/// `|` characters not escaped with a backslash.
private func unescapedPipes(_ line: Substring) -> Int {
    var count = 0
    var escaped = false
    for character in line {
        if character == "|" && !escaped { count += 1 }
        escaped = character == "\\" && !escaped
    }
    return count
}
