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
    /// The whole report of the fixture, checked by hand once: header, summary, the four tiers (tier 3 holds only the
    /// unmapped bucket), kept and false positive with reasons, the fixed finding left out, the poses not verified.
    static let expected = ##"""
        # Readiness report — app

        - Toolchain: iOS SDK 27.0, deployment target iOS 26.0
        - Last scan: duo\_scan 1.2.2, run 12, commit `1a2b3c4d5e6f7a8b`, 240 files scanned, 2026-11-29 12:00 UTC
        - App lifecycle: scene
        - Generated: 2026-11-29 15:00 UTC

        ## Summary

        - Screens done: 1 of 2
        - Findings needing work: 5 (1 critical, 1 high, 3 medium)
        - Blocked items: 1 on the iOS 27.1 SDK
        - Pose coverage: 6 of 10 required poses passed (60%)
        - Checklist completion: 14 of 20 applicable steps done (70%)
        - Burndown: needs work 9 → 5, blocked 2 → 1 (run 10 to run 12)

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

        ## Tier 0 — blockers

        ### Inbox

        Owner: alice. Steps that apply: 1 container, 2 order (done), 3 title-and-symbol (done), 4 informative-text (done), 5 axis, 7 overflow (done), 8 compression, 9 priority, 11 backgrounds, 12 sheets.

        | Item | Finding | Code or title | SDK | Status |
        | --- | --- | --- | --- | --- |
        | F-1 | `DUO005:Sources/Inbox/AppDelegate.swift:3` | `class AppDelegate: UIResponder, UIApplicationDelegate {` | available | proposed |

        ## Tier 1 — correctness on the inner display

        ### Inbox

        Owner: alice. Steps that apply: 1 container, 2 order (done), 3 title-and-symbol (done), 4 informative-text (done), 5 axis, 7 overflow (done), 8 compression, 9 priority, 11 backgrounds, 12 sheets.

        | Item | Finding | Code or title | SDK | Status |
        | --- | --- | --- | --- | --- |
        | F-2 | `DUO001:Sources/Inbox/InboxView.swift:40` | `let width = UIScreen.main.bounds.width` | available | approved |

        ## Tier 2 — bars

        ### Inbox

        Owner: alice. Steps that apply: 1 container, 2 order (done), 3 title-and-symbol (done), 4 informative-text (done), 5 axis, 7 overflow (done), 8 compression, 9 priority, 11 backgrounds, 12 sheets.

        | Item | Finding | Code or title | SDK | Status |
        | --- | --- | --- | --- | --- |
        | F-3 | `DUO007:Sources/Inbox/InboxView.swift:12` | `let bar = UIToolbar() // a \| b` | available | proposed |
        | F-4 | manual, step 5 axis | Compose keeps its \`axis\` \<shape\> \& size | blocked on the iOS 27.1 SDK | blocked |

        ## Tier 3 — richer adoption

        ### unmapped

        No screen owns these findings: add their files to a screen's paths so a recommendation covers them.

        | Item | Finding | Code or title | SDK | Status |
        | --- | --- | --- | --- | --- |
        | F-5 | `DUO010:Shared/SceneRouter.swift:31` | ``requestSceneSessionActivation(nil, userActivity: `default`, options: nil)`` | available | proposed |

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

        | Screen | Pose | Result | Reason |
        | --- | --- | --- | --- |
        | Inbox | P2 | not run | simulator only: needs a device |
        | Inbox | P11 | no result | — |

        """##

    // MARK: - Markdown

    @Test("the fixture's report, exactly")
    func golden() throws {
        #expect(ReadinessReport.markdown(try Fixtures.input, now: Fixtures.now) == Self.expected)
    }

    @Test("the order findings, poses and steps arrive in changes nothing")
    func stableOrder() throws {
        var input = try Fixtures.input
        input.findings.reverse()
        input.poses.reverse()
        input.steps = input.steps.mapValues { $0.reversed() }
        #expect(ReadinessReport.markdown(input, now: Fixtures.now) == Self.expected)
        // StepLine.byScreen sorts; a caller that does not is still read by step number.
        input.steps = StepLine.byScreen(input.steps.values.flatMap { $0 })
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
        let status = ProjectStatus(
            project: ProjectInfo(
                name: "fresh", sdk: SDKVersion(27, 0), deploymentTarget: SDKVersion(27, 0), requiredPoses: ["P1"]),
            totals: StatusTotals())
        let markdown = ReadinessReport.markdown(ReportInput(status: status, findings: [], poses: []), now: Fixtures.now)
        #expect(
            markdown.hasPrefix("# Readiness report — fresh\n\n- Toolchain: iOS SDK 27.0, deployment target iOS 27.0\n"))
        #expect(
            markdown.contains("- Last scan: none yet\n- App lifecycle: unknown\n- Generated: 2026-11-29 15:00 UTC\n"))
        #expect(markdown.contains("- Findings needing work: none\n- Blocked items: none\n"))
        #expect(markdown.contains("- Pose coverage: 0 of 0 required poses passed\n"))
        #expect(!markdown.contains("Burndown"))
        #expect(markdown.contains("| 1 `container` | Put every bar item"))
        #expect(markdown.contains("| unknown |"))
        #expect(headings(markdown) == Self.sectionTitles)
        #expect(markdown.components(separatedBy: "Nothing in this tier.").count == 5)
        #expect(markdown.contains("## Kept as is\n\nNothing is kept as is.\n"))
        #expect(markdown.hasSuffix("## Not verified\n\nEvery required pose has a result.\n"))
    }

    @Test("a screen the pose matrix leaves out is listed from the status's missing poses")
    func missingPosesFallback() throws {
        var input = try Fixtures.input
        input.poses.removeAll { $0.screen == "Inbox" }
        let markdown = ReadinessReport.markdown(input, now: Fixtures.now)
        #expect(
            markdown.contains("| Inbox | P2 | no result or not run | — |\n| Inbox | P11 | no result or not run | — |\n")
        )
    }

    @Test("pipes, backticks, angle brackets and ampersands in snippets, titles and reasons are escaped")
    func markdownEscaping() throws {
        let input = try Self.trickyInput()
        let markdown = ReadinessReport.markdown(input, now: Fixtures.now)
        #expect(markdown.contains("| F-1 | `DUO007:Sources/A|B.swift:3` |") == false)
        #expect(
            markdown.contains("| F-1 | `DUO007:Sources/A\\|B.swift:3` | ``let s = \"a \\| b\" + `c` <d> & e`` |"))
        #expect(markdown.contains("| F-2 | manual, step 3 title-and-symbol | T \\| \\`x\\` \\<y\\> \\& z \\*w\\* |"))
        #expect(markdown.contains("| `` `tick` `` |"))
        #expect(
            markdown.contains("| F-4 | Odd\\_Screen | `DUO021:Info.plist` | — | a\\|b \\<i\\> line break |"))
        #expect(markdown.contains("### Odd\\_Screen\n"))
        // Every table row has as many unescaped pipes as its header: no cell spills into another column.
        var columns = 0
        for line in markdown.split(separator: "\n") where line.hasPrefix("|") {
            let pipes = unescapedPipes(line)
            if line.hasPrefix("| Item") || line.hasPrefix("| Step") || line.hasPrefix("| Screen") { columns = pipes }
            #expect(pipes == columns, "\(line)")
        }
    }

    // MARK: - HTML

    @Test("the HTML report is one well-formed, self-contained file")
    func htmlWellFormed() throws {
        for input in [try Fixtures.input, try Self.trickyInput()] {
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
            uniqueKeysWithValues: input.poses.map { ("\($0.screen) \($0.pose)", $0.result.rawValue) })
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
        input.poses.removeAll { $0.screen == "Settings" && $0.pose == "P3" }
        input.poses.append(try PoseCell(record: Record(["screen": "Inbox", "pose": "P13", "result": "none"])))
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

    /// The `##` sections of every report, in order.
    static let sectionTitles = [
        "Summary", "Tier 0 — blockers", "Tier 1 — correctness on the inner display", "Tier 2 — bars",
        "Tier 3 — richer adoption", "Verified", "Kept as is", "Declined", "False positives", "Not verified",
    ]

    /// The fixture with findings whose text needs escaping everywhere.
    static func trickyInput() throws -> ReportInput {
        var input = try Fixtures.input
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
