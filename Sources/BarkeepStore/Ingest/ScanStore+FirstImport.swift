import BarkeepCore

extension ScanStore {
    /// Writes a first import (`FirstImport`: every finding new, none matched, fixed or changed) with one `COPY` into
    /// `findings` itself, numbered in Core's `NewFindingOrder`, and the run's one event. A later sync goes through
    /// `apply`'s temporary table, which its updates and events join; a first import needs neither, and copying the
    /// rows once instead of into a temporary table and again with an `INSERT` saves writing, reading and sorting
    /// them twice.
    static func copyFirstImport(
        _ plan: SyncPlan,
        of scan: IdentifiedScan,
        tool: String,
        run: ScanRun,
        project: Project,
        screens: ScreenAttribution,
        actor: String,
        on connection: PostgresConnection
    ) throws {
        let count = plan.new.count
        guard
            let base = try connection.queryValue(
                """
                UPDATE projects SET findings_numbered = findings_numbered + $2 WHERE id = $1
                RETURNING findings_numbered - $2
                """,
                [project.id, count],
                as: Int.self
            )
        else { throw StoreError.notFound("project '\(project.name)' is gone") }
        let source = FindingSource.scanner.rawValue
        try connection.copyIn(
            """
            COPY findings (project_id, source, tool, first_seen_run, last_seen_run, number, identity, rule, file,
                           normalized_snippet, occurrence, line, snippet, message, title, severity, fingerprints,
                           screen_id) FROM STDIN
            """
        ) { writer in
            var rows = SyncRows(scan: scan, screens: screens)
            var number = base
            try NewFindingOrder.forEach(plan.new, of: scan) { index in
                number += 1
                try rows.writeFinding(
                    Int(index),
                    after: { fields in
                        fields.append(Int(project.id))
                        try fields.append(source)
                        try fields.append(tool)
                        fields.append(Int(run.id))
                        fields.append(Int(run.id))
                        fields.append(number)
                    }, to: &writer)
            }
        }
        try EventLog.appendSelect(
            runEventSelect,
            runEventParameters(plan, run: run, project: project, actor: actor, isFirstImport: true),
            on: connection)
    }
}
