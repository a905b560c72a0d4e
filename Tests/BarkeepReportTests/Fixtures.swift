import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation
import Testing

@testable import BarkeepReport

/// Small, hand-checked replies shared by the tests, as the daemon sends them; the report reads them as the CLI does,
/// through BarkeepAPI's typed replies.
enum Fixtures {
    /// `2026-11-29T15:00:30Z`: three hours after the fixture's scan.
    static let now = time("2026-11-29T15:00:30Z")

    /// A time from the protocol's form; a fixture typo fails the test that uses it.
    static func time(_ text: String) -> Date {
        guard let date = ReportTime.parse(text) else {
            Issue.record("bad fixture time \(text)")
            return Date(timeIntervalSince1970: 0)
        }
        return date
    }

    /// A `STATUS app` reply: two screens (Inbox open, Settings done), one unmapped finding, one blocked item.
    static let statusRecords: [Record] = [
        Record([
            "type": "project", "name": "app", "sdk": "27.0", "deployment-target": "26.0",
            "required-poses": "P1,P2,P3,P4,P11",
        ]),
        Record([
            "type": "scan", "run": "12", "format": "duo-scan", "tool": "duo_scan", "tool-version": "1.2.2",
            "commit": "1a2b3c4d5e6f7a8b", "files-scanned": "240", "new": "3", "fixed": "5", "reopened": "1",
            "unchanged": "40", "moved": "2", "renamed": "1", "changed": "4", "actor": "local:alice",
            "ingested": "2026-11-29T12:00:00.123456Z", "lifecycle": "scene",
        ]),
        Record([
            "type": "totals", "proposed": "3", "approved": "1", "applied": "0", "verified": "2", "blocked": "1",
            "declined": "0", "kept": "1", "false_positive": "1", "fixed": "9", "needs-work": "5",
            "needs-work-critical": "1",
            "needs-work-high": "1", "needs-work-medium": "3", "needs-work-low": "0", "needs-work-info": "0",
            "screens": "2",
            "screens-done": "1", "steps-done": "14", "steps-applicable": "20", "poses-passed": "6",
            "poses-required": "10", "unmapped": "1", "verified-still-reported": "0",
        ]),
        Record(["type": "blocked", "sdk": "27.1", "items": "1"]),
        Record(["type": "selection", "sort": "key", "matched": "2", "shown": "2"]),
        Record([
            "type": "screen", "key": "Inbox", "owner": "alice", "critical": "1", "high": "1", "medium": "2", "low": "0",
            "info": "0", "blocked": "1", "steps-done": "4", "steps-applicable": "10", "poses-passed": "1",
            "poses-required": "5", "failed-poses": "P3,P4", "missing-poses": "P2,P11", "done": "no",
        ]),
        Record([
            "type": "screen", "key": "Settings", "owner": "bob", "critical": "0", "high": "0", "medium": "0",
            "low": "0", "info": "0", "blocked": "0", "steps-done": "10", "steps-applicable": "10",
            "poses-passed": "5", "poses-required": "5", "failed-poses": "", "done": "yes",
        ]),
        Record([
            "type": "unmapped", "critical": "0", "high": "0", "medium": "1", "low": "0", "info": "0", "blocked": "0",
        ]),
    ]

    /// `records` read as the CLI reads a STATUS reply's: BarkeepAPI's typed parts.
    static func statusParts(_ records: [Record]) throws -> StatusParts {
        try StatusReply(
            records: records, final: ["count": String(records.count)], version: ProtocolVersion.current,
            command: StatusRequest.spec.name
        ).parts
    }

    /// The status of `statusRecords`.
    static var status: ProjectStatusReply {
        get throws { try ProjectStatusReply(try statusParts(statusRecords)) }
    }

    /// `records` read as the CLI reads a reply's rows: through `Row`'s fields.
    static func rows<Row: WireFields>(_ records: [Record], as: Row.Type = Row.self) throws -> [Row] {
        try records.map { try Row(record: $0, version: ProtocolVersion.current, context: "fixture") }
    }

    /// The findings of `findingRecords`, typed.
    static var findingRows: [FindingRecord] {
        get throws { try rows(findingRecords) }
    }

    /// The report's findings of `findingRecords`.
    static var findings: [ReportFinding] {
        get throws { try findingRows.map { try ReportFinding($0) } }
    }

    /// A `FINDINGS app` reply: every tier, a verified item of tiers 1 and 2, kept and false positive, one fixed
    /// (left out of the report), and snippets and titles that need escaping.
    static let findingRecords: [Record] = [
        Record([
            "project": "app", "id": "1", "source": "scanner", "rule": "DUO005", "tier": "0", "severity": "critical",
            "file": "Sources/Inbox/AppDelegate.swift", "line": "3",
            "snippet": "class AppDelegate: UIResponder, UIApplicationDelegate {", "status": "proposed",
            "screen": "Inbox", "title": "App lifecycle without scene lifecycle",
        ]),
        Record([
            "project": "app", "id": "2", "source": "scanner", "rule": "DUO001", "tier": "1", "severity": "high",
            "file": "Sources/Inbox/InboxView.swift", "line": "40", "snippet": "let width = UIScreen.main.bounds.width",
            "status": "approved", "screen": "Inbox", "title": "Main screen reference",
        ]),
        Record([
            "project": "app", "id": "3", "source": "scanner", "rule": "DUO007", "tier": "2", "severity": "medium",
            "file": "Sources/Inbox/InboxView.swift", "line": "12", "snippet": "let bar = UIToolbar() // a | b",
            "status": "proposed", "screen": "Inbox", "title": "Standalone bar instance", "step": "1",
        ]),
        Record([
            "project": "app", "id": "4", "source": "manual", "severity": "medium", "status": "blocked",
            "reason": "needs the iOS 27.1 SDK (axisBehavior)", "screen": "Inbox",
            "title": "Compose keeps its `axis` <shape> & size", "step": "5", "needs": "axisBehavior",
        ]),
        Record([
            "project": "app", "id": "5", "source": "scanner", "rule": "DUO010", "severity": "medium",
            "file": "Shared/SceneRouter.swift", "line": "31",
            "snippet": "requestSceneSessionActivation(nil, userActivity: `default`, options: nil)",
            "status": "proposed", "screen": "unmapped", "title": "Scene activation without error handling",
        ]),
        Record([
            "project": "app", "id": "6", "source": "manual", "severity": "medium", "status": "verified",
            "screen": "Inbox", "title": "P3: toolbar overlaps the list",
        ]),
        Record([
            "project": "app", "id": "7", "source": "scanner", "rule": "DUO011", "tier": "2", "severity": "low",
            "file": "Sources/Settings/SettingsView.swift", "line": "88", "snippet": "Image(systemName: \"ellipsis\")",
            "status": "verified", "screen": "Settings", "step": "7",
        ]),
        Record([
            "project": "app", "id": "8", "source": "scanner", "rule": "DUO021", "severity": "info",
            "file": "App/Info.plist",
            "status": "kept", "reason": "portrait-only by design", "screen": "unmapped",
            "title": "Portrait-only supported orientations",
        ]),
        Record([
            "project": "app", "id": "9", "source": "scanner", "rule": "DUO008", "severity": "low",
            "file": "Sources/Settings/About.swift", "line": "5", "snippet": "NavigationView {",
            "status": "false_positive",
            "reason": "behind `#if os(macOS)`", "screen": "Settings",
        ]),
        Record([
            "project": "app", "id": "10", "source": "scanner", "rule": "DUO002", "tier": "1", "severity": "high",
            "file": "Sources/Settings/SettingsView.swift", "line": "20", "snippet": "UIScreen.main.bounds",
            "status": "fixed",
            "screen": "Settings",
        ]),
    ]

    /// A `POSES app` reply.
    static let poseRecords: [Record] =
        [
            Record(["screen": "Inbox", "pose": "P1", "result": "passed", "device": "iPhone Duo"]),
            Record(["screen": "Inbox", "pose": "P2", "result": "not_run", "reason": "simulator only: needs a device"]),
            Record([
                "screen": "Inbox", "pose": "P3", "result": "failed", "screenshot": "shots/p3.png", "finding": "106",
            ]),
            Record([
                "screen": "Inbox", "pose": "P4", "result": "failed", "screenshot": "shots/p4.png", "finding": "103",
            ]),
            Record(["screen": "Inbox", "pose": "P11", "result": "none"]),
        ] + ["P1", "P2", "P3", "P4", "P11"].map { Record(["screen": "Settings", "pose": $0, "result": "passed"]) }

    /// `STEPS app`'s records of Inbox (Settings' are not given: the report then lists all 12).
    static let stepRecords: [Record] = [
        ("1", "container", "todo", "done", "103"), ("2", "order", "done", nil, nil),
        ("3", "title-and-symbol", "done", nil, nil), ("4", "informative-text", "done", nil, nil),
        ("5", "axis", "todo", nil, "104"), ("6", "custom-views-fit", "not_applicable", nil, nil),
        ("7", "overflow", "done", nil, nil), ("8", "compression", "todo", nil, nil),
        ("9", "priority", "todo", nil, nil),
        ("10", "opt-out", "not_applicable", nil, nil), ("11", "backgrounds", "todo", nil, nil),
        ("12", "sheets", "todo", nil, nil),
    ].map { step, key, state, recorded, blockers in
        Record([
            "screen": "Inbox", "step": step, "key": key, "state": state, "recorded": recorded ?? state,
            "blockers": blockers,
        ])
    }

    /// A `BURNDOWN app by=run` reply.
    static let burndownPoints: [BurndownPoint] = [
        BurndownPoint(label: "run 10", at: time("2026-11-27T12:00:00Z"), needsWork: 9, blocked: 2),
        BurndownPoint(label: "run 11", at: time("2026-11-28T12:00:00Z"), needsWork: 7, blocked: 1),
        BurndownPoint(label: "run 12", at: time("2026-11-29T12:00:00.123456Z"), needsWork: 5, blocked: 1),
    ]

    /// The report's input from the fixture replies.
    static var input: ReportInput {
        get throws {
            ReportInput(
                status: try status, findings: try findings, poses: try rows(poseRecords),
                steps: ReportInput.byScreen(try rows(stepRecords)), burndown: burndownPoints)
        }
    }

    /// A pose cell as POSES sends it; a pose that is not one fails the test that uses it.
    static func cell(
        _ screen: String, _ pose: String, _ result: PoseResult?, reason: String? = nil, screenshot: String? = nil,
        finding: Int? = nil
    ) -> PoseResultRecord {
        var cell = PoseResultRecord()
        cell.screen = screen
        if let known = Pose(pose) {
            cell.pose = known
        } else {
            Issue.record("bad fixture pose \(pose)")
        }
        cell.result = PoseCellResult(result)
        cell.reason = reason
        cell.screenshot = screenshot
        cell.finding = finding.map(ProjectNumber.init)
        return cell
    }

    /// A step as STEPS sends it, recorded as it counts.
    static func step(_ screen: String, _ number: Int, _ key: String, _ state: StepState) -> StepRecord {
        var step = StepRecord()
        step.screen = screen
        step.step = number
        step.key = key
        step.state = state
        step.recorded = state
        return step
    }

    /// A row of SCREEN LIST.
    static func screen(
        _ key: String, kind: ScreenKind = .screen, owner: String? = nil, uses: [String]? = nil
    ) -> ScreenRecord {
        var screen = ScreenRecord()
        screen.key = key
        screen.kind = kind
        screen.owner = owner
        screen.uses = uses
        return screen
    }
}
