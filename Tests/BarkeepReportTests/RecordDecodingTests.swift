import BarkeepCore
import BarkeepProtocol
import Foundation
import Testing

@testable import BarkeepReport

/// The fixture's status records with one field replaced (nil removes it).
private func statusRecords(_ type: String, _ key: String, _ value: String?) -> [Record] {
    Fixtures.statusRecords.map { record in
        guard record["type"] == type else { return record }
        var changed = Record()
        var replaced = false
        for field in record.fields {
            if field.key == key {
                replaced = true
                changed.append(key, value)
            } else {
                changed.append(field.key, field.value)
            }
        }
        if !replaced { changed.append(key, value) }
        return changed
    }
}

@Suite("Decoding reply records")
struct RecordDecodingTests {
    // MARK: - STATUS

    @Test("a good STATUS reply decodes every record")
    func goodStatus() throws {
        let status = try Fixtures.status
        #expect(status.project.name == "app")
        #expect(status.project.sdk == SDKVersion(27, 0))
        #expect(status.project.deploymentTarget == SDKVersion(26, 0))
        #expect(status.project.requiredPoses == ["P1", "P2", "P3", "P4", "P11"])
        let scan = try #require(status.scan)
        #expect(scan.run == 12)
        #expect(scan.tool == "duo_scan")
        #expect(scan.toolVersion == "1.2.2")
        #expect(scan.commit == "1a2b3c4d5e6f7a8b")
        #expect(abs(scan.ingested.timeIntervalSince1970 - 1_795_953_600.123456) < 0.000_001)
        #expect(scan.filesScanned == 240)
        #expect(scan.lifecycle == "scene")
        #expect(scan.counts.map(\.count) == [3, 5, 1, 40, 2])
        #expect(status.totals.byStatus[.proposed] == 3)
        #expect(status.totals.byStatus[.falsePositive] == 1)
        #expect(
            status.totals.nonzeroStatuses.map(\.status) == [
                .proposed, .approved, .verified, .blocked, .kept, .falsePositive, .fixed,
            ])
        #expect(status.totals.needsWork == 5)
        #expect(status.totals.posesRequired == 10)
        #expect(status.blocked == [BlockedGroupRecord(sdk: SDKVersion(27, 1), items: 1)])
        #expect(status.screens.map(\.key) == ["Inbox", "Settings"])
        let inbox = status.screens[0]
        #expect(inbox.owner == "alice")
        #expect(inbox.needsWork == SeverityCounts(critical: 1, high: 1, medium: 2))
        #expect(inbox.failedPoses == ["P3", "P4"])
        #expect(inbox.missingPoses == ["P2", "P11"])
        #expect(!inbox.isDone)
        #expect(status.screens[1].failedPoses == [])
        #expect(status.screens[1].missingPoses == [])
        #expect(status.screens[1].isDone)
        #expect(status.unmapped == UnmappedStatus(needsWork: SeverityCounts(medium: 1), blocked: 0))
        #expect(status.needsWorkBySeverity == SeverityCounts(critical: 1, high: 1, medium: 3))
    }

    @Test("a STATUS reply before the first scan, with a blocked group for no SDK, and unknown records and keys")
    func minimalStatus() throws {
        let records =
            Fixtures.statusRecords.filter { $0["type"] != "scan" && $0["type"] != "blocked" } + [
                Record(["type": "blocked", "sdk": "none", "items": "2"]),
                Record(["type": "forecast", "weather": "sunny"]),
            ]
        var project = records[0]
        project.append("created", "2026-11-29T10:00:00.000000Z")
        let status = try ProjectStatusReply(records: [project] + records.dropFirst())
        #expect(status.scan == nil)
        #expect(status.blocked == [BlockedGroupRecord(sdk: nil, items: 2)])
        #expect(status.blocked[0].sdkName == "no SDK yet")
    }

    @Test(
        "a garbled STATUS reply is an error naming the record and the key",
        arguments: [
            (
                statusRecords("project", "sdk", "27.x"),
                ReportError.badValue(
                    record: "project", key: "sdk", value: "27.x", expected: "a version like 27.1")
            ),
            (statusRecords("project", "name", nil), .missingField(record: "project", key: "name")),
            (
                statusRecords("scan", "ingested", "yesterday"),
                .badValue(
                    record: "scan", key: "ingested", value: "yesterday",
                    expected: "a UTC time like 2026-11-29T12:00:00Z")
            ),
            (statusRecords("scan", "run", nil), .missingField(record: "scan", key: "run")),
            (
                statusRecords("scan", "moved", "-2"),
                .badValue(
                    record: "scan", key: "moved", value: "-2", expected: "a non-negative integer")
            ),
            (statusRecords("totals", "false_positive", nil), .missingField(record: "totals", key: "false_positive")),
            (
                statusRecords("totals", "needs-work", "five"),
                .badValue(
                    record: "totals", key: "needs-work", value: "five", expected: "a non-negative integer")
            ),
            (
                statusRecords("blocked", "sdk", "soon"),
                .badValue(
                    record: "blocked", key: "sdk", value: "soon", expected: "a version like 27.1")
            ),
            (statusRecords("blocked", "items", nil), .missingField(record: "blocked", key: "items")),
            (
                statusRecords("screen", "done", "maybe"),
                .badValue(
                    record: "screen", key: "done", value: "maybe", expected: "yes or no")
            ),
            (
                statusRecords("screen", "critical", "+1"),
                .badValue(
                    record: "screen", key: "critical", value: "+1", expected: "a non-negative integer")
            ),
            (
                statusRecords("screen", "steps-applicable", nil),
                .missingField(record: "screen", key: "steps-applicable")
            ),
            (statusRecords("unmapped", "info", nil), .missingField(record: "unmapped", key: "info")),
            (Fixtures.statusRecords.filter { $0["type"] != "project" }, .missingRecord(type: "project")),
            (Fixtures.statusRecords.filter { $0["type"] != "totals" }, .missingRecord(type: "totals")),
            (Fixtures.statusRecords.filter { $0["type"] != "unmapped" }, .missingRecord(type: "unmapped")),
            (Fixtures.statusRecords + [Fixtures.statusRecords[0]], .duplicateRecord(type: "project")),
            (Fixtures.statusRecords + [Fixtures.statusRecords[1]], .duplicateRecord(type: "scan")),
            (Fixtures.statusRecords + [Record(["name": "app"])], .missingField(record: "status", key: "type")),
        ]
    )
    func garbledStatus(records: [Record], expected: ReportError) {
        #expect(throws: expected) { try ProjectStatusReply(records: records) }
    }

    @Test("errors read as one line naming the record and the key, a long value cut")
    func errorDescriptions() {
        #expect(ReportError.missingRecord(type: "totals").description == "the reply has no 'totals' record")
        #expect(
            ReportError.missingField(record: "screen", key: "done").description
                == "a 'screen' record has no 'done' field")
        let long = ReportError.badValue(
            record: "scan", key: "ingested", value: String(repeating: "x", count: 50) + "\n", expected: "a time")
        #expect(
            long.description
                == "a 'scan' record has ingested='\(String(repeating: "x", count: 40))…' (51 bytes): expected a time")
        #expect(long.recordType == "scan")
        #expect(long.key == "ingested")
    }

    // MARK: - FINDINGS, POSES, SCREEN SHOW, BURNDOWN

    @Test("findings decode with their optional fields")
    func findings() throws {
        let findings = try ReportFinding.decode(Fixtures.findingRecords)
        #expect(findings.count == 10)
        let first = findings[0]
        #expect(first.number == 1)
        #expect(first.itemID == "F-1")
        #expect(first.source == .scanner)
        #expect(first.tier == 0)
        #expect(first.severity == .critical)
        #expect(first.line == 3)
        #expect(first.scannerReference == "DUO005:Sources/Inbox/AppDelegate.swift:3")
        let manual = findings[3]
        #expect(manual.source == .manual)
        #expect(manual.rule == nil)
        #expect(manual.scannerReference == nil)
        #expect(manual.status == .blocked)
        #expect(manual.needs == ["axisBehavior"])
        #expect(manual.step == 5)
        #expect(findings[7].scannerReference == "DUO021:App/Info.plist")
        #expect(findings[9].itemID == "F-10")
        #expect(ReportFinding(number: 123, source: .manual).itemID == "F-123")
    }

    @Test(
        "a garbled finding is an error naming the key",
        arguments: [
            (
                ["id": "x1"],
                ReportError.badValue(
                    record: "finding", key: "id", value: "x1", expected: "a non-negative integer")
            ),
            (["id": nil], .missingField(record: "finding", key: "id")),
            (
                ["source": "robot"],
                .badValue(
                    record: "finding", key: "source", value: "robot", expected: "one of scanner, manual")
            ),
            (["tier": "4"], .badValue(record: "finding", key: "tier", value: "4", expected: "a tier from 0 to 3")),
            (
                ["severity": "urgent"],
                .badValue(
                    record: "finding", key: "severity", value: "urgent",
                    expected: "one of critical, high, medium, low, info")
            ),
            (
                ["status": "done"],
                .badValue(
                    record: "finding", key: "status", value: "done",
                    expected:
                        "one of proposed, approved, applied, verified, blocked, declined, kept, false_positive, fixed")
            ),
            (
                ["line": "twelve"],
                .badValue(
                    record: "finding", key: "line", value: "twelve", expected: "a non-negative integer")
            ),
            (
                ["step": "13"],
                .badValue(
                    record: "finding", key: "step", value: "13", expected: "a step number from 1 to 12")
            ),
            (
                ["gate": "iOS 27"],
                .badValue(
                    record: "finding", key: "gate", value: "iOS 27", expected: "a version like 27.1")
            ),
        ] as [([String: String?], ReportError)]
    )
    func garbledFinding(change: [String: String?], expected: ReportError) {
        var record = Record()
        for field in Fixtures.findingRecords[0].fields where !change.keys.contains(field.key) {
            record.append(field.key, field.value)
        }
        for (key, value) in change { record.append(key, value) }
        #expect(throws: expected) { try ReportFinding(record: record) }
    }

    @Test("pose cells decode every result, `none` included")
    func poses() throws {
        let cells = try PoseCellRecord.decode(Fixtures.poseRecords)
        #expect(cells.count == 10)
        #expect(cells.prefix(5).map(\.result) == [.passed, .notRun, .failed, .failed, .noResult])
        #expect(cells[1].reason == "simulator only: needs a device")
        #expect(cells[2].screenshot == "shots/p3.png")
        #expect(cells[2].finding == "106")
        #expect(cells[0].device == "iPhone Duo")
        let recorded = try PoseCellRecord(
            record: Record(["screen": "A", "pose": "P1", "result": "passed", "recorded": "2026-11-29T10:00:00Z"]))
        #expect(recorded.recorded == Fixtures.time("2026-11-29T10:00:00Z"))
        #expect(
            throws: ReportError.badValue(
                record: "pose", key: "result", value: "skipped",
                expected: "one of passed, failed, not_run, not_applicable, none")
        ) {
            try PoseCellRecord(record: Record(["screen": "A", "pose": "P1", "result": "skipped"]))
        }
        #expect(throws: ReportError.missingField(record: "pose", key: "pose")) {
            try PoseCellRecord(record: Record(["screen": "A", "result": "passed"]))
        }
    }

    @Test("steps decode from a typed SCREEN SHOW reply, other record types skipped")
    func steps() throws {
        let reply =
            [Record(["type": "screen", "key": "Inbox"])] + Fixtures.stepRecords
            + [Record(["type": "pose", "screen": "Inbox", "pose": "P1", "result": "passed"])]
        let lines = try StepLine.decode(reply)
        #expect(lines.count == 12)
        #expect(
            lines[0]
                == StepLine(
                    screen: "Inbox", step: 1, key: "container", state: .todo, recorded: .done, blockers: ["103"]))
        #expect(lines[5].state == .notApplicable)
        #expect(StepLine.byScreen(lines.reversed())["Inbox"]?.map(\.step) == Array(1...12))
        #expect(
            throws: ReportError.badValue(
                record: "step", key: "state", value: "doing", expected: "one of todo, done, not_applicable")
        ) {
            try StepLine(record: Record(["screen": "A", "step": "1", "key": "container", "state": "doing"]))
        }
        #expect(
            throws: ReportError.badValue(
                record: "step", key: "step", value: "0", expected: "a step number from 1 to 12")
        ) {
            try StepLine(record: Record(["screen": "A", "step": "0", "key": "container", "state": "todo"]))
        }
    }
}

@Suite("ReportInput")
struct ReportInputTests {
    @Test("reads every reply the CLI collects, from STEPS or from SCREEN SHOW replies")
    func fromReplies() throws {
        let screenShow =
            [Record(["type": "screen", "key": "Inbox", "title": "Inbox"])] + Fixtures.stepRecords
            + [Record(["type": "why", "topic": "pose", "text": "pose P2 was not run"])]
        let untypedSteps = Fixtures.stepRecords.map { record in
            var untyped = Record()
            for field in record.fields where field.key != "type" { untyped.append(field.key, field.value) }
            return untyped
        }
        for steps in [screenShow, untypedSteps] {
            let input = try ReportInput(
                statusReply: Fixtures.statusRecords, findingsReply: Fixtures.findingRecords,
                posesReply: Fixtures.poseRecords, stepsReply: steps, burndown: Fixtures.burndownPoints)
            #expect(input == (try Fixtures.input))
        }
    }

    @Test("a garbled reply is the error of its first bad record")
    func garbled() {
        #expect(throws: ReportError.self) {
            try ReportInput(
                statusReply: Fixtures.statusRecords, findingsReply: [], posesReply: [Record(["screen": "Inbox"])])
        }
    }
}

@Test("a pose cell reads every result of Core's PoseResult, and `none` besides: no result is known on one side only")
func poseCellResultsAreCore() {
    let cell = Set(PoseCellResult.allCases.map(\.rawValue))
    #expect(cell == Set(PoseResult.allCases.map(\.rawValue)).union([PoseCellResult.noResult.rawValue]))
}
