import BarkeepBenchSupport
import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Testing

/// An audit that ages (issue 29): 40 daily syncs of a 2,000-finding project with the churn of barkeep-sync-bench
/// --history (AgingAudit) and a little triage between them, on a real database. What must hold however old the audit
/// is: a sync of a commit that changed no finding writes a few rows, the same at day 5 as at day 40; the events a sync
/// appends follow what changed, not the project's size; STATUS answers what a recount of the findings answers.
@Suite("Aging audit")
struct AgingAuditTests {
    private let connection: PostgresConnection
    private let projectID: Int64

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        projectID = try ProjectStore.create(
            name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection
        ).id
    }

    private func ingest(_ document: [UInt8]) throws -> IngestResult {
        try ScanStore.ingest(
            IngestRequest(
                ScanUpload(document), digest: SHA256Digest.hex(of: document), format: .duoScan, project: "app",
                actor: "ci"), parsing: { try DuoScanParser.parseTable(document) }, on: connection)
    }

    private func count(_ sql: String) throws -> Int {
        try connection.queryValue(sql, [projectID], as: Int.self) ?? 0
    }

    /// Rows written and events appended by a sync of the current scan again, other bytes (no finding changed).
    private func unchangedSync(_ audit: AgingAudit, day: Int) throws -> (rows: Int64, events: Int) {
        let events = try count("SELECT count(*) FROM events WHERE project_id = $1")
        let before = try SyncWrites.reading(connection)
        let result = try ingest(audit.document(extra: day))
        let rows = try SyncWrites.reading(connection).since(before).rows
        #expect(result.counts.new + result.counts.fixed + result.counts.changed + result.counts.moved == 0)
        return (rows, try count("SELECT count(*) FROM events WHERE project_id = $1") - events)
    }

    @Test("40 daily syncs: no-change writes stay constant, events follow the churn, STATUS matches a recount")
    func fortyDays() throws {
        var audit = AgingAudit(findings: 2_000)
        _ = try ingest(audit.document())
        var unchanged: [(rows: Int64, events: Int)] = []
        for day in 1...40 {
            let proposed = try connection.query(
                "SELECT number FROM findings WHERE project_id = $1 AND status = 'proposed' ORDER BY number LIMIT 1 OFFSET $2",
                [projectID, day * 11 % 300]
            ).map { try $0.decode(at: 0, as: Int.self) }
            for number in proposed {
                _ = try FindingStore.setStatus(
                    project: "app", number: number, to: .approved, reason: nil, role: .admin, actor: "lead",
                    on: connection)
            }
            audit.advance()
            let events = try count("SELECT count(*) FROM events WHERE project_id = $1")
            let result = try ingest(audit.document())
            let appended = try count("SELECT count(*) FROM events WHERE project_id = $1") - events
            let counted = result.counts
            #expect(counted.new > 0 && counted.fixed > 0, "day \(day): \(counted)")
            // What changed, as the sync counted it and as the generator made it; the events follow it (a few per
            // change at most, and a few for the run), far below the 2,000 findings.
            let changes = counted.new + counted.fixed + counted.reopened + counted.changed + counted.moved
            #expect(changes <= 2 * audit.churn.total + 10, "day \(day): \(counted) for \(audit.churn)")
            #expect(appended <= 2 * changes + 5, "day \(day): \(appended) events for \(changes) changes")
            if day == 5 || day == 40 { unchanged.append(try unchangedSync(audit, day: day)) }
        }
        #expect(unchanged.count == 2)
        if unchanged.count == 2 {
            #expect(unchanged[0].rows == unchanged[1].rows, "\(unchanged)")
            #expect(unchanged[1].rows <= 10 && unchanged[1].events <= 2, "\(unchanged)")
        }
        let status = try StatusStore.status(project: "app", on: connection)
        var recount: [FindingStatus: Int] = [:]
        for row in try connection.query(
            "SELECT status, count(*) FROM findings WHERE project_id = $1 GROUP BY status", [projectID])
        {
            if let status = FindingStatus(rawValue: try row.decode(at: 0)) {
                recount[status] = try row.decode(at: 1)
            }
        }
        #expect(status.byStatus.filter { $0.value > 0 } == recount)
        #expect((recount[.approved] ?? 0) > 0)
    }
}
