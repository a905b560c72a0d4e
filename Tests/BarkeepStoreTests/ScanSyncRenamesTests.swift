import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// Pass 3 of the sync against a real database: findings in renamed files keep their rows.
@Suite("Scan sync, renamed files")
struct ScanSyncRenamesTests {
    private let connection: PostgresConnection

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
    }

    private func ingest(_ report: ScanReport, digest: String, renames: FileRenames = FileRenames()) throws
        -> IngestResult
    {
        try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: digest, format: .duoScan, project: "app", actor: "ci", renames: renames),
            scan: report, on: connection)
    }

    private func digest(_ text: String) -> String { SHA256Digest.hex(of: text.utf8) }

    private func report(_ findings: [ScanFinding]) -> ScanReport {
        ScanReport(format: .duoScan, tool: "duo_scan", toolVersion: "1.2.2", findings: findings)
    }

    private func finding(_ file: String, _ line: Int, _ snippet: String, rule: String = "DUO001") -> ScanFinding {
        ScanFinding(rule: rule, severity: "high", file: file, line: line, snippet: snippet)
    }

    private func openIdentities() throws -> Set<String> {
        Set(
            try connection.query("SELECT identity FROM findings WHERE status <> 'fixed'")
                .map { try $0.decode("identity", as: String.self) })
    }

    @Test("the NetNewsWire history with its renames gives v3's answer run by run; triage survives the renames")
    func netNewsWireHistory() throws {
        let history = try ScanHistory(
            expectedPath: ScanHistory.netNewsWireV3Path, scansIn: ScanHistory.netNewsWireDirectory,
            renamesPath: ScanHistory.netNewsWireRenamesPath)
        #expect(history.runs.count == 14 && history.runs.map(\.counts.renamed).reduce(0, +) == 7)
        // Before each run that renames, a status and an assignee on every finding the run renames (not a sticky
        // verdict, which would keep the finding open when a later run no longer reports it, and so change the
        // answer; the planner's tests cover sticky verdicts).
        for run in history.runs {
            #expect(run.renamedIdentities.count == run.counts.renamed)
            let triaged = try connection.query(
                "SELECT number FROM findings WHERE identity = ANY ($1::text[]) ORDER BY number",
                ["{" + run.renamedIdentities.sorted().joined(separator: ",") + "}"]
            ).map { try $0.decode("number", as: Int.self) }
            #expect(triaged.count == run.renamedIdentities.count, "\(run.path)")
            for number in triaged {
                _ = try FindingStore.setStatus(
                    project: "app", number: number, to: .approved, reason: nil, role: .writer, actor: "dana",
                    on: connection)
            }
            if !triaged.isEmpty {
                _ = try FindingStore.assign(
                    project: "app", of: .numbers(triaged), to: "ana", actor: "dana", isDryRun: false, on: connection)
            }
            let bytes = try Fixtures.bytes(run.path)
            let result = try ingest(
                try DuoScanParser.parse(bytes), digest: SHA256Digest.hex(of: bytes), renames: run.renames)
            #expect(result.run.counts == run.counts && result.counts == run.counts, "\(run.path): \(result.counts)")
            #expect(try openIdentities() == run.openIdentities, "\(run.path): the open identities differ")
            // The renamed findings kept their numbers, statuses and assignees, and each has its event from the run.
            let renamed = try connection.query(
                """
                SELECT f.number, f.status, f.assignee, f.file, e.from_value, e.to_value FROM events e
                JOIN findings f ON f.id = e.finding_id WHERE e.kind = 'finding.renamed' AND e.reason = $1
                ORDER BY f.number
                """, ["run \(result.run.number)"])
            #expect(try renamed.map { try $0.decode("number", as: Int.self) } == triaged, "\(run.path)")
            for row in renamed {
                #expect(try row.decode("status", as: String.self) == "approved")
                #expect(try row.decode("assignee", as: String.self) == "ana")
                let file = try row.decode("file", as: String.self)
                #expect(try row.decode("to_value", as: String.self).hasPrefix(file + ":"))
                let from = try row.decode("from_value", as: String.self)
                #expect(run.renames.newPath(of: String(from[..<(from.lastIndex(of: ":") ?? from.endIndex)])) == file)
            }
        }
    }

    @Test("a renamed finding keeps its row, takes the new screen, and its history says where it went")
    func renamedRow() throws {
        _ = try ScreenStore.add(
            project: "app", key: "Inbox", title: nil, owner: nil, paths: ["New/**"], actor: "ana", on: connection)
        _ = try ingest(report([finding("Old/Inbox.swift", 12, "UIScreen.main.bounds")]), digest: digest("1"))
        let before = try #require(try connection.query("SELECT id, number, screen_id FROM findings").first)
        #expect(try before.decodeIfPresent("screen_id", as: Int64.self) == nil)
        for status in [FindingStatus.approved, .applied, .verified] {
            _ = try FindingStore.setStatus(
                project: "app", number: before.decode("number"), to: status, reason: nil, role: .writer,
                actor: "dana", on: connection)
        }
        let result = try ingest(
            report([finding("New/Inbox.swift", 14, "UIScreen.main.bounds")]), digest: digest("2"),
            renames: FileRenames(["Old/Inbox.swift": "New/Inbox.swift"]))
        #expect(result.counts == SyncCounts(unchanged: 1, moved: 1, renamed: 1))
        let row = try #require(
            try connection.query(
                """
                SELECT f.id, f.number, f.status, f.file, f.line, f.identity, f.reported_after_verified, s.key
                FROM findings f LEFT JOIN screens s ON s.id = f.screen_id
                """
            ).first)
        #expect(try row.decode("id", as: Int64.self) == before.decode("id", as: Int64.self))
        #expect(try row.decode("status", as: String.self) == "verified")
        #expect(try row.decode("reported_after_verified", as: Bool.self))
        #expect(try row.decode("file", as: String.self) == "New/Inbox.swift" && row.decode("line", as: Int.self) == 14)
        #expect(try row.decode("key", as: String.self) == "Inbox")
        let identity = FindingIdentity.digest(
            tool: "duo_scan", rule: "DUO001", file: "New/Inbox.swift", normalizedSnippet: "UIScreen.main.bounds",
            occurrence: 0, hasher: LibcryptoHasher())
        #expect(try row.decode("identity", as: String.self) == identity)
        let event = try #require(
            try connection.query(
                "SELECT subject, from_value, to_value, reason, screen FROM events WHERE kind = 'finding.renamed'"
            ).first)
        #expect(try event.decode("subject", as: String.self) == "DUO001:New/Inbox.swift:14")
        #expect(try event.decode("from_value", as: String.self) == "Old/Inbox.swift:12")
        #expect(try event.decode("to_value", as: String.self) == "New/Inbox.swift:14")
        #expect(
            try event.decode("reason", as: String.self) == "run 2" && event.decode("screen", as: String.self) == "Inbox"
        )
        // The dashboard's summary follows the finding to its new screen.
        let screens = try connection.query("SELECT screen_id FROM finding_summaries WHERE findings > 0")
            .map { try $0.decode("screen_id", as: Int64.self) }
        #expect(try screens == [connection.queryValue("SELECT screen_id FROM findings", as: Int64.self)])
        #expect(
            try connection.queryValue(
                "SELECT to_value FROM events WHERE kind = 'scan.ingested' ORDER BY seq DESC LIMIT 1", as: String.self)
                == "new=0 fixed=0 reopened=0 unchanged=1 moved=1 changed=0 renamed=1")
        #expect(try ScanStore.run(project: "app", number: 2, on: connection).counts.renamed == 1)
    }

    @Test("a rename plus an edit of the flagged line stays fixed and new")
    func renameAndEdit() throws {
        _ = try ingest(report([finding("Old/A.swift", 12, "if idiom == .pad {")]), digest: digest("1"))
        let result = try ingest(
            report([finding("New/A.swift", 12, "if idiom == .pad || isWide {")]), digest: digest("2"),
            renames: FileRenames(["Old/A.swift": "New/A.swift"]))
        #expect(result.counts == SyncCounts(new: 1, fixed: 1))
        #expect(
            try connection.queryValue("SELECT count(*) FROM events WHERE kind = 'finding.renamed'", as: Int.self) == 0)
    }
}
