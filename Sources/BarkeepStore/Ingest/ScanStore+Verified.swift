import BarkeepCore

extension ScanStore {
    /// Marks the verified findings `plan` says this run still reports (`SyncPlan.verifiedReported`) as reported after
    /// they were verified, and appends a `finding.persisted` event for each that was not marked yet: one event
    /// per finding, from the first run that reports it after its verification, however many runs report it after
    /// that. Their status stays verified. Two set-based statements, by primary key, whatever the number of findings;
    /// none when no verified finding was reported. Call before the sync's other events, under the project's lock.
    static func markVerifiedReported(
        _ plan: SyncPlan, run: ScanRun, project: Project, actor: String, on connection: PostgresConnection
    ) throws {
        guard !plan.verifiedReported.isEmpty else { return }
        let marked = try connection.query(
            """
            UPDATE findings f SET reported_after_verified = true
            WHERE f.id = ANY($1::bigint[]) AND f.status = \(FindingStatus.verified.sql) AND NOT f.reported_after_verified
            RETURNING f.id
            """,
            [plan.verifiedReported.map(String.init)]
        ).map { try $0.decode(at: 0, as: Int64.self) }
        guard !marked.isEmpty else { return }
        try EventLog.appendSelect(
            """
            SELECT f.project_id, $2::text, f.id, \(EventKind.findingPersisted.sql), \(FindingStore.subject),
                   NULL, NULL, 'run ' || $4::text, $3::text
            FROM unnest($1::bigint[]) WITH ORDINALITY AS v (id, i) JOIN findings f ON f.id = v.id
            ORDER BY v.i
            """,
            [marked.sorted().map(String.init), project.name, actor, run.number],
            on: connection)
    }
}

extension FindingStore {
    /// The value `reported_after_verified` keeps when a statement sets a finding's status to `status` (a SQL
    /// expression over `f`): the mark stays only while the finding stays verified (a new reason), and goes whenever
    /// it leaves verified, as the schema's CHECK demands (Schema/0022).
    static func reportedAfterVerified(keptAt status: String) -> String {
        "f.reported_after_verified AND \(status) = \(FindingStatus.verified.sql)"
    }
}
