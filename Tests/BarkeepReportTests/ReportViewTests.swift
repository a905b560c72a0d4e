import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepTestSupport
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

/// The fixture's first finding record with some fields replaced (nil removes one).
private func findingRecord(_ change: [String: String?]) -> Record {
    var record = Record()
    for field in Fixtures.findingRecords[0].fields where !change.keys.contains(field.key) {
        record.append(field.key, field.value)
    }
    for (key, value) in change { record.append(key, value) }
    return record
}

@Suite("The report's views of typed replies")
struct ReportViewTests {
    // MARK: - STATUS

    @Test("a good STATUS reply, read through the typed parts, gives every part of the dashboard")
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
        #expect(scan.counts.map(\.count) == [3, 5, 1, 40, 2, 1, 4])
        #expect(
            scan.counts.map(\.name) == [
                "new", "fixed", "reopened", "unchanged", "moved", "in renamed files", "changed",
            ])
        #expect(status.totals.byStatus[.proposed] == 3)
        #expect(status.totals.byStatus[.falsePositive] == 1)
        #expect(
            status.totals.nonzeroStatuses.map(\.status) == [
                .proposed, .approved, .verified, .blocked, .kept, .falsePositive, .fixed,
            ])
        #expect(status.totals.needsWork == 5)
        #expect(status.totals.posesRequired == 10)
        #expect(status.blocked == [BlockedGroupRecord(sdk: SDKVersion(27, 1), items: 1)])
        #expect(status.selection == StatusSelection(matched: 2, shown: 2))
        #expect(status.screens.map(\.key) == ["Inbox", "Settings"])
        let inbox = status.screens[0]
        #expect(inbox.owner == "alice")
        #expect(inbox.kind == .screen)
        #expect(inbox.needsWork == SeverityCounts(critical: 1, high: 1, medium: 2))
        #expect(inbox.failedPoses == ["P3", "P4"])
        #expect(inbox.missingPoses == ["P2", "P11"])
        #expect(!inbox.isDone)
        #expect(status.screens[1].failedPoses == [])
        #expect(status.screens[1].missingPoses == [])
        #expect(status.screens[1].isDone)
        #expect(status.unmapped == UnmappedStatus(needsWork: SeverityCounts(medium: 1), blocked: 0))
        #expect(status.totals.needsWorkBySeverity == SeverityCounts(critical: 1, high: 1, medium: 3))
    }

    @Test("an older server's totals without counts by severity read as unknown, not as none")
    func totalsWithoutSeverities() throws {
        let records = Fixtures.statusRecords.map { record in
            guard record["type"] == "totals" else { return record }
            var older = Record()
            for field in record.fields where !field.key.hasPrefix("needs-work-") {
                older.append(field.key, field.value)
            }
            return older
        }
        let status = try ProjectStatusReply(try Fixtures.statusParts(records))
        #expect(status.totals.needsWork == 5)
        #expect(status.totals.needsWorkBySeverity == nil)
    }

    @Test("the counters a protocol-3 reply leaves out read as the protocol-2 reply's")
    func compactStatus() throws {
        let parts = try Fixtures.statusParts(Fixtures.statusRecords)
        let compact = StatusReply(parts).reply(version: 3)
        guard case .records(let records) = compact else {
            Issue.record("STATUS's reply is records")
            return
        }
        #expect(records.map(\.fields.count).reduce(0, +) < Fixtures.statusRecords.map(\.fields.count).reduce(0, +))
        #expect(try ProjectStatusReply(Fixtures.statusParts(records)) == (try Fixtures.status))
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
        let status = try ProjectStatusReply(Fixtures.statusParts([project] + records.dropFirst()))
        #expect(status.scan == nil)
        #expect(status.blocked == [BlockedGroupRecord(sdk: nil, items: 2)])
        #expect(status.blocked[0].sdkName == "no SDK yet")
    }

    @Test(
        "a value the wire leaves as text and the view cannot read is an error naming the record and the key",
        arguments: [
            (
                statusRecords("project", "sdk", "27.x"),
                ReportError.badValue(
                    record: "project", key: "sdk", value: "27.x", expected: "a version like 27.1")
            ),
            (
                statusRecords("project", "deployment-target", ""),
                ReportError.badValue(
                    record: "project", key: "deployment-target", value: "", expected: "a version like 27.1")
            ),
            (
                statusRecords("scan", "ingested", "yesterday"),
                .badValue(
                    record: "scan", key: "ingested", value: "yesterday",
                    expected: "a UTC time like 2026-11-29T12:00:00Z")
            ),
            (
                statusRecords("blocked", "sdk", "soon"),
                .badValue(
                    record: "blocked", key: "sdk", value: "soon", expected: "a version like 27.1")
            ),
            (
                statusRecords("screen", "key", ""),
                .badValue(record: "screen", key: "key", value: "", expected: "a screen key")
            ),
        ]
    )
    func unreadableStatus(records: [Record], expected: ReportError) throws {
        let parts = try Fixtures.statusParts(records)
        #expect(throws: expected) { try ProjectStatusReply(parts) }
    }

    @Test(
        "a garbled STATUS reply is refused by the typed decoding, whose message names the record and the key",
        arguments: [
            (statusRecords("project", "name", nil), "name"),
            (statusRecords("scan", "run", nil), "run"),
            (statusRecords("scan", "moved", "-2x"), "moved"),
            (statusRecords("totals", "needs-work", "five"), "needs-work"),
            (statusRecords("blocked", "items", nil), "items"),
            (statusRecords("screen", "done", "maybe"), "done"),
            (Fixtures.statusRecords.filter { $0["type"] != "totals" }, "totals"),
            (Fixtures.statusRecords + [Fixtures.statusRecords[0]], "project"),
        ]
    )
    func garbledStatus(records: [Record], key: String) {
        // The CLI and MCP read a reply through the typed reply before Report sees it.
        #expect {
            try Fixtures.statusParts(records)
        } throws: { error in
            guard case .badReply(let message) = error as? ProtocolError else { return false }
            return message.contains("STATUS") && message.contains(key)
        }
    }

    @Test("errors read as one line naming the record and the key, a long value cut; the decoding's words as they are")
    func errorDescriptions() {
        let long = ReportError.badValue(
            record: "scan", key: "ingested", value: String(repeating: "x", count: 50) + "\n", expected: "a time")
        #expect(
            long.description
                == "a 'scan' record has ingested='\(String(repeating: "x", count: 40))…' (51 bytes): expected a time")
        #expect(ReportError.badReply("STATUS has no totals").description == "STATUS has no totals")
    }

    // MARK: - FINDINGS

    @Test("findings read from typed records with their optional fields")
    func findings() throws {
        let findings = try Fixtures.findings
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
        #expect(findings[4].screen == ReportFinding.unmappedScreen)
        #expect(findings[7].scannerReference == "DUO021:App/Info.plist")
        #expect(findings[9].itemID == "F-10")
        #expect(ReportFinding(number: 123, source: .manual).itemID == "F-123")
    }

    @Test(
        "a finding the view cannot read is an error naming the key",
        arguments: [
            (
                ["source": "robot"],
                ReportError.badValue(
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
                ["step": "13"],
                .badValue(
                    record: "finding", key: "step", value: "13", expected: "a step number from 1 to 12")
            ),
        ] as [([String: String?], ReportError)]
    )
    func unreadableFinding(change: [String: String?], expected: ReportError) throws {
        let record = try #require(try Fixtures.rows([findingRecord(change)], as: FindingRecord.self).first)
        #expect(throws: expected) { try ReportFinding(record) }
    }

    @Test(
        "a garbled finding is refused by the typed decoding",
        arguments: [["id": "x1"], ["id": nil], ["status": "done"], ["line": "twelve"], ["gate": "iOS 27"]]
            as [[String: String?]])
    func garbledFinding(change: [String: String?]) {
        #expect(throws: ProtocolError.self) { try Fixtures.rows([findingRecord(change)], as: FindingRecord.self) }
    }

    // MARK: - POSES, STEPS

    @Test("the pose matrix reads every result, `none` included, and its legend names each once")
    func poses() throws {
        let cells = try Fixtures.rows(Fixtures.poseRecords, as: PoseResultRecord.self)
        #expect(cells.count == 10)
        #expect(cells.prefix(5).map(\.result.result) == [.passed, .notRun, .failed, .failed, nil])
        #expect(cells[2].finding == ProjectNumber(106))
        #expect(PoseMatrix.results.map(\.wire) == PoseResult.allCases.map(\.rawValue) + [PoseCellResult.noneWord])
        #expect(Set(PoseMatrix.results.map(PoseMatrix.label)).count == PoseMatrix.results.count)
    }

    @Test("steps are grouped by screen, each screen's by number")
    func steps() throws {
        let steps = try Fixtures.rows(Fixtures.stepRecords, as: StepRecord.self)
        let other = Fixtures.step("Settings", 2, "order", .done)
        let grouped = ReportInput.byScreen(steps.reversed() + [other])
        #expect(grouped["Inbox"]?.map(\.step) == Array(1...12))
        #expect(grouped["Settings"] == [other])
    }
}

@Test("Report, and the CLI's dashboard, report and exports, read no reply field by key: BarkeepAPI decodes")
func noKeyReads() throws {
    let files =
        try SourceTree.files(of: "BarkeepReport").map { ("BarkeepReport", $0) }
        + ["DashboardCommands.swift", "FindingsExport.swift"].map { ("barkeep", $0) }
    #expect(files.count > 20)
    for (module, file) in files {
        let text = try SourceTree.text(file, of: module)
        for read in ["record[", "$0[\"", "fields[\"", "init(record:", "RecordDecodable"] {
            #expect(!text.contains(read), "\(file) reads \(read)")
        }
    }
}

@Suite("ReportInput")
struct ReportInputTests {
    @Test("reads the typed replies the CLI collects into the report's views, once")
    func fromReplies() throws {
        let input = try ReportInput(
            status: Fixtures.statusParts(Fixtures.statusRecords), findings: Fixtures.findingRows,
            poses: Fixtures.rows(Fixtures.poseRecords), steps: Fixtures.rows(Fixtures.stepRecords),
            burndown: Fixtures.burndownPoints)
        #expect(input == (try Fixtures.input))
    }

    @Test("a finding the view cannot read is the error of the input")
    func unreadable() throws {
        var findings = try Fixtures.findingRows
        findings[3].severity = "urgent"
        #expect(
            throws: ReportError.badValue(
                record: "finding", key: "severity", value: "urgent",
                expected: "one of critical, high, medium, low, info")
        ) {
            try ReportInput(
                status: Fixtures.statusParts(Fixtures.statusRecords), findings: findings, poses: [])
        }
    }
}
