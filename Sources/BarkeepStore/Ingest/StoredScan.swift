import BarkeepCore

/// A project's stored scanner findings as a sync reads them: pass 1 of the plan needs each one's id, identity,
/// status and line, and the rewrite check its snippet, all read in place from one result without a string per
/// value; rule, file and snippet as strings are read afterwards for the few findings pass 2 and the fixes look at
/// (`details`).
struct StoredScan {
    private let result: PostgresResult
    private static let idColumn = 0
    private static let identityColumn = 1
    private static let statusColumn = 2
    private static let lineColumn = 3
    private static let toolColumn = 4
    private static let snippetColumn = 5
    private static let fileColumn = 6

    /// Reads the project's scanner findings, every tool's (the scan's tool is not known yet while it is parsed),
    /// but not the fixed ones unless `includingFixed`: a project keeps every finding it ever fixed (the identity a
    /// reopen matches), about 1% of its findings a day for years, and `plan` looks up the few a scan reopens by
    /// identity instead. Files are read only for a scoped scan, the one case that needs them all (`FirstImport`).
    static func read(
        projectID: Int64, scope: String, includingFixed: Bool = false, on connection: PostgresConnection
    ) throws -> StoredScan {
        // Most of a project's rows, read in the heap's order (a bitmap or sequential scan) rather than the order of
        // an index: the planner picks an index scan when its statistics lag behind an import (it then expects a
        // handful of rows), which visits the heap at random.
        try connection.query("SET LOCAL enable_indexscan = off")
        defer { _ = try? connection.query("RESET enable_indexscan") }
        return StoredScan(
            result: try connection.queryResult(
                """
                SELECT id, identity, status, line, tool, snippet, CASE WHEN $2::text <> '' THEN file END
                FROM findings
                WHERE project_id = $1 AND source = \(FindingSource.scanner.sql) AND ($3 OR status IN \(FindingStatus.unfixedSQL))
                """,
                [projectID, scope, includingFixed]
            ))
    }

    /// The sightings of `tool`'s findings, and for each its row in the result.
    func sightings(of tool: String) throws -> (sightings: [StoredSighting], rows: [Int]) {
        var tool = tool
        return try tool.withUTF8 { tool in
            var sightings: [StoredSighting] = []
            var rows: [Int] = []
            sightings.reserveCapacity(result.rowCount)
            rows.reserveCapacity(result.rowCount)
            for row in 0..<result.rowCount where result.withBytes(row, Self.toolColumn, { $0.elementsEqual(tool) }) {
                guard let id = result.integer(row, Self.idColumn) else {
                    throw StoreError.decoding(column: "id", expected: "non-null Int64")
                }
                let line = result.integer(row, Self.lineColumn)
                sightings.append(
                    StoredSighting(
                        id: id,
                        identity: result.withBytes(row, Self.identityColumn) { IdentityDigest(hexUTF8: $0) },
                        status: result.withBytes(row, Self.statusColumn) {
                            FindingStatus(rawValue: String(decoding: $0, as: UTF8.self))
                        } ?? .proposed,
                        line: line.map { Int($0) }))
                rows.append(row)
            }
            return (sightings, rows)
        }
    }

    /// The file of the finding at `row`: empty unless the scan was scoped (`read`), where every file is inside.
    func file(at row: Int) -> String { result.string(row, Self.fileColumn) ?? "" }

    /// Whether the stored snippet of the finding at `row` has the same bytes as the scanned string at `quote` of
    /// `table` (false when either is absent).
    func snippet(at row: Int, equals quote: UInt32, in table: ScanTable) -> Bool {
        guard !result.isNull(row, Self.snippetColumn) else { return false }
        return result.withBytes(row, Self.snippetColumn) { table.text(at: quote, equalsUTF8: $0) }
    }

    /// The sync plan of `scan` against `sightings` (the stored findings of its tool, as `sightings(of:)` reads them):
    /// pass 1, then the details of the findings it did not see (`details`), then passes 3 and 2 and the fixes. The one
    /// home of that sequence, for an ingest and a check alike; `adjust` lets a check see an unseen finding as it
    /// stood at its base. Returns the plan and the stored snippets of the unseen findings (their events' `from`).
    /// `fixed` says where the fixed findings are: nil when `sightings` hold them (a read `includingFixed`), else the
    /// project and tool whose fixed findings pass 1 looks up by identity (`reopenable`).
    static func plan(
        _ scan: some SyncScan, sightings: [StoredSighting], fixed: FixedLookup?, scope: String, renames: FileRenames,
        adjustingUnseen adjust: (inout StoredFinding) -> Void = { _ in }, on connection: PostgresConnection
    ) throws -> (plan: SyncPlan, snippets: [Int64: String]) {
        var matching = SyncPlanner.match(scan: scan, stored: sightings)
        if let fixed {
            let reopenable = try fixed.sightings(
                of: matching.plan.new.lazy.map { scan.identity(at: Int($0)) }, checkingFirst: sightings.isEmpty,
                on: connection)
            SyncPlanner.reopen(&matching, fixed: reopenable, positionsFrom: sightings.count, in: scan)
        }
        // Rule, file and snippet only of the findings neither seen nor fixed, which passes 3 and 2 and the fixes need.
        var (unseen, snippets) = try details(of: matching.unseen.map { sightings[$0].id }, on: connection)
        for index in unseen.indices { adjust(&unseen[index]) }
        return (SyncPlanner.finish(matching, unseen: unseen, scope: scope, renames: renames, in: scan), snippets)
    }

    /// The findings `ids` with their rule, file, normalized snippet, occurrence and stored snippet, in the order of
    /// `ids`: what passes 3 and 2 of the plan, the fixes and the events of renamed and changed findings need of the
    /// stored findings a scan did not see.
    static func details(of ids: [Int64], on connection: PostgresConnection) throws
        -> (findings: [StoredFinding], snippets: [Int64: String])
    {
        guard !ids.isEmpty else { return ([], [:]) }
        var byID: [Int64: StoredFinding] = [:]
        var snippets: [Int64: String] = [:]
        byID.reserveCapacity(ids.count)
        for row in try connection.query(
            """
            SELECT id, identity, status, line, file, snippet, rule, normalized_snippet, occurrence FROM findings
            WHERE id = ANY ($1::bigint[])
            """,
            ["{" + ids.map(String.init).joined(separator: ",") + "}"]
        ) {
            let finding = StoredFinding(
                id: try row.decode(at: 0),
                identity: try row.decode(at: 1),
                rule: try row.decode(at: 6),
                status: FindingStatus(rawValue: try row.decode(at: 2)) ?? .proposed,
                line: try row.decodeIfPresent(at: 3),
                file: try row.decode(at: 4),
                normalizedSnippet: try row.decodeIfPresent(at: 7),
                occurrence: try row.decodeIfPresent(at: 8)
            )
            byID[finding.id] = finding
            snippets[finding.id] = try row.decodeIfPresent(at: 5)
        }
        return (ids.compactMap { byID[$0] }, snippets)
    }
}

/// Where a sync finds the fixed findings of a project and tool that a scan may reopen: by identity, in the unique
/// index that holds every scanner finding's (`findings_identity`), for the scanned findings that matched none of
/// the findings read (`StoredScan.read`, which leaves the fixed ones out).
struct FixedLookup {
    /// The project.
    let projectID: Int64
    /// The scan's tool.
    let tool: String

    /// The fixed findings among `identities`. With `checkingFirst` (nothing else stored: a first import, where every
    /// scanned finding is unmatched) it first asks whether any fixed finding of the tool exists at all, so that a
    /// first import neither hashes its identities here nor sends them all.
    func sightings(
        of identities: some Collection<IdentityDigest>, checkingFirst: Bool, on connection: PostgresConnection
    ) throws -> [StoredSighting] {
        guard !identities.isEmpty else { return [] }
        if checkingFirst, try !hasFixed(on: connection) { return [] }
        // One lookup per identity in the unique index (LIMIT 1 keeps the lateral subquery a lookup), in its
        // collation: a filter on the project's fixed findings would read every one of them, the very rows not read.
        return try connection.query(
            """
            SELECT f.id, f.identity, f.line
            FROM unnest($2::text[]) AS wanted (identity) CROSS JOIN LATERAL (
                SELECT id, identity, line, tool, status FROM findings
                WHERE project_id = $1 AND source = \(FindingSource.scanner.sql) AND identity = wanted.identity COLLATE "C"
                LIMIT 1
            ) AS f
            WHERE f.tool = $3 AND f.status = \(FindingStatus.fixed.sql)
            """,
            [projectID, "{" + identities.map(\.hex).joined(separator: ",") + "}", tool]
        ).map { row in
            StoredSighting(
                id: try row.decode(at: 0), identity: IdentityDigest(hex: try row.decode(at: 1)), status: .fixed,
                line: try row.decodeIfPresent(at: 2))
        }
    }

    /// Whether the project holds a fixed finding of the tool inside `scope` (`barkeep_covers`, the SQL twin of
    /// `SyncPlanner.isInside`): with the findings read, what `FirstImport` decides on. It stops at the first.
    func hasFixed(inside scope: String = "", on connection: PostgresConnection) throws -> Bool {
        try connection.query(
            """
            SELECT EXISTS (SELECT FROM findings WHERE project_id = $1 AND source = \(FindingSource.scanner.sql) AND tool = $2
                           AND status = \(FindingStatus.fixed.sql) AND barkeep_covers($3, file))
            """,
            [projectID, tool, scope]
        ).first?.decode(at: 0) ?? false
    }
}

/// A scan whose identities were hashed beforehand (`digests`, beside the read of the stored findings), or are
/// hashed when asked for, as the planner reads it.
struct HashedScan: SyncScan {
    /// The scan.
    let scan: IdentifiedScan
    /// Each finding's identity, in the scan's order; nil when they are hashed as asked for.
    let digests: [IdentityDigest]?

    /// Every identity of `scan`: those it kept, or hashed now.
    init(_ scan: IdentifiedScan) {
        self.scan = scan
        digests = scan.digests ?? (0..<scan.count).map { scan.identity(at: $0) }
    }

    /// `scan`, whose identities are hashed when asked for (a first import, which asks for each once).
    init(lazy scan: IdentifiedScan) {
        self.scan = scan
        digests = nil
    }

    /// The findings' count.
    var count: Int { scan.count }
    /// Finding `index`'s identity.
    func identity(at index: Int) -> IdentityDigest { digests?[index] ?? scan.identity(at: index) }
    /// Finding `index`'s line.
    func line(at index: Int) -> Int { scan.line(at: index) }
    /// Finding `index`'s rule.
    func rule(at index: Int) -> String { scan.rule(at: index) }
    /// Finding `index`'s file.
    func file(at index: Int) -> String { scan.file(at: index) }
    /// Finding `index`'s snippet without white space.
    func normalizedSnippet(at index: Int) -> String { scan.normalizedSnippet(at: index) }
    /// Finding `index`'s occurrence index.
    func occurrence(at index: Int) -> Int { scan.occurrence(at: index) }
}
