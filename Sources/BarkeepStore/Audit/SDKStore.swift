import BarkeepCore
import Foundation

/// An item whose status an SDK change moved, or that is listed with its SDK standing.
public struct ItemChange: Sendable, Equatable {
    /// The finding's row id (never shown).
    public var id: Int64
    /// The finding's number in its project.
    public var number: Int
    /// Its title (or rule, for a scanner finding).
    public var title: String
    /// The owning screen's key; nil when unmapped.
    public var screen: String?
    /// The status before.
    public var from: FindingStatus
    /// The status after.
    public var to: FindingStatus
    /// Why it is blocked, when it now is.
    public var reason: String?
    /// The iOS version to gate its code on (`if #available(iOS 27.1, *)`), when the deployment target is lower.
    public var gate: SDKVersion?
}

/// A blocked item under one of the symbols it waits for.
public struct BlockedItem: Sendable, Equatable {
    /// The SDK that would bring the symbol; nil when no known SDK declares it.
    public var sdk: SDKVersion?
    /// The missing symbol.
    public var symbol: String
    /// The item.
    public var finding: Finding
}

/// What ingesting an SDK check did.
public struct SDKCheckResult: Sendable, Equatable {
    /// The run recorded for it (an earlier one for a repeated upload).
    public var run: ScanRun
    /// Whether the same document had just been ingested: nothing changed.
    public var isRepeat: Bool
    /// The SDK the check looked at.
    public var checkedSDK: SDKVersion
    /// The SDK the project builds with: what the check found counts only when the two are the same.
    public var projectSDK: String
    /// How many symbols it found, and how many it looked for.
    public var found: Int
    /// How many symbols it reported.
    public var symbols: Int
    /// The items it unblocked (or blocked).
    public var itemChanges: [ItemChange]
}

/// Items blocked until the team's SDK declares what they need: the facts about symbols, re-examining items when
/// the SDK or the facts change, and listing what is blocked.
public enum SDKStore {
    /// The statuses an SDK change re-examines: work in progress, and blocked items. Verdicts (declined, kept,
    /// false positive) and fixed findings are left alone.
    static let reexaminedStatuses = FindingLifecycle.sdkReexamined.map(\.rawValue)

    /// What a project knows about each of `symbols`; a symbol neither the table nor the project knows is absent.
    static func facts(
        _ symbols: [String],
        project: Project,
        on connection: PostgresConnection
    ) throws -> [String: SymbolFacts] {
        guard !symbols.isEmpty else { return [:] }
        var facts: [String: SymbolFacts] = [:]
        for row in try connection.query(
            """
            SELECT u.symbol, coalesce(ps.sdk, t.sdk) AS introduced, c.found
            FROM unnest($2::text[]) AS u(symbol)
            LEFT JOIN sdk_symbols t ON t.symbol = u.symbol
            LEFT JOIN project_symbols ps ON ps.project_id = $1 AND ps.symbol = u.symbol
            LEFT JOIN sdk_checks c ON c.project_id = $1 AND c.symbol = u.symbol AND c.checked_sdk = $3
            WHERE t.symbol IS NOT NULL OR ps.symbol IS NOT NULL OR c.symbol IS NOT NULL
            """,
            [project.id, symbols, (SDKVersion(project.sdk) ?? SDKVersion(0)).description]
        ) {
            let symbol: String = try row.decode("symbol")
            facts[symbol] = SymbolFacts(
                symbol: symbol,
                introduced: try row.decodeIfPresent("introduced", as: String.self).flatMap(SDKVersion.init),
                foundByCheck: try row.decodeIfPresent("found")
            )
        }
        return facts
    }

    /// The verdict for an item needing `needs` (each known: see `facts`).
    static func verdict(_ needs: [String], facts: [String: SymbolFacts], project: Project) -> SDKVerdict {
        SDKAvailability.verdict(
            needs: needs.map { facts[$0] ?? SymbolFacts(symbol: $0, introduced: nil) },
            sdk: SDKVersion(project.sdk) ?? SDKVersion(0),
            deploymentTarget: SDKVersion(project.deploymentTarget) ?? SDKVersion(0)
        )
    }

    /// Re-examines every item of the project that needs SDK symbols, after its SDK or what it knows about
    /// symbols changed: an item whose symbols are all available now returns to the status it had before it was
    /// blocked; one missing a symbol is blocked (remembering its status). One event per item changed, with
    /// `cause` and, for an unblocked item that needs one, its availability gate. Call inside a transaction holding
    /// the project's sync lock.
    static func reexamine(
        _ project: Project,
        cause: String,
        actor: String,
        on connection: PostgresConnection
    ) throws -> [ItemChange] {
        let rows = try connection.query(
            """
            SELECT f.id, f.number, coalesce(f.title, f.rule) AS title, s.key AS screen, f.status, f.status_before_block,
                   f.reason, f.needs_symbols
            FROM findings f LEFT JOIN screens s ON s.id = f.screen_id
            WHERE f.project_id = $1 AND cardinality(f.needs_symbols) > 0 AND f.status = ANY($2::text[])
            ORDER BY f.id
            FOR UPDATE OF f
            """,
            [project.id, reexaminedStatuses]
        )
        let needs = try rows.map { try $0.decode("needs_symbols", as: [String].self) }
        let facts = try facts(Array(Set(needs.joined())), project: project, on: connection)
        var changes: [ItemChange] = []
        var updates: (ids: [String], statuses: [String], before: [String?], reasons: [String?]) = ([], [], [], [])
        for (row, needed) in zip(rows, needs) {
            let id: Int64 = try row.decode("id")
            let status = FindingStatus(rawValue: try row.decode("status")) ?? .proposed
            let verdict = verdict(needed, facts: facts, project: project)
            var change = ItemChange(
                id: id, number: try row.decode("number"), title: try row.decode("title"),
                screen: try row.decodeIfPresent("screen"), from: status,
                to: status, reason: nil, gate: verdict.gate
            )
            let before: String? = try row.decodeIfPresent("status_before_block")
            switch SDKTransition(
                verdict: verdict, status: status, reason: try row.decodeIfPresent("reason"),
                statusBeforeBlock: before.flatMap(FindingStatus.init(rawValue:)))
            {
            case .unchanged:
                continue
            case .newReason(let reason):
                // Still blocked; the reason follows what is missing now, without an event of its own.
                updates.ids.append(String(id))
                updates.statuses.append(status.rawValue)
                updates.before.append(before)
                updates.reasons.append(reason)
                continue
            case .block(let reason):
                change.to = .blocked
                change.reason = reason
                updates.before.append(status.rawValue)
                updates.reasons.append(reason)
            case .unblock(let to):
                change.to = to
                updates.before.append(nil)
                updates.reasons.append(nil)
            }
            updates.ids.append(String(id))
            updates.statuses.append(change.to.rawValue)
            changes.append(change)
        }
        guard !updates.ids.isEmpty else { return [] }
        // Text arrays carry no NULL from here: an empty string stands for it.
        try connection.query(
            """
            UPDATE findings f SET status = c.status, status_before_block = nullif(c.before, ''),
                reason = nullif(c.reason, ''), updated_at = now(),
                reported_after_verified = \(FindingStore.reportedAfterVerified(keptAt: "c.status"))
            FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS c(id, status, before, reason)
            WHERE f.id = c.id
            """,
            [updates.ids, updates.statuses, updates.before.map { $0 ?? "" }, updates.reasons.map { $0 ?? "" }]
        )
        try EventLog.append(
            changes.map { change in
                NewEvent(
                    projectID: project.id, project: project.name, kind: .findingStatus, subject: change.title,
                    from: change.from.rawValue, to: change.to.rawValue,
                    reason: change.to == .blocked
                        ? change.reason
                        : cause + (change.gate.map { "; needs if #available(iOS \($0), *)" } ?? ""),
                    actor: actor, findingID: change.id
                )
            },
            on: connection
        )
        return changes
    }

    /// Moves the project to `version` of the SDK and re-examines its items, in one transaction.
    public static func setSDK(
        project name: String,
        to version: SDKVersion,
        actor: String,
        on connection: PostgresConnection
    ) throws -> ProjectUpdate {
        try ProjectStore.update(name: name, sdk: version.description, actor: actor, on: connection)
    }

    /// Records what the team's SDK check found and re-examines the project's items, in one transaction. The same
    /// document as the checker's latest run changes nothing. The request's commit and commit time are recorded on the
    /// run, but an SDK check is never refused as stale: it says what an SDK declares, which no commit's age changes.
    /// The request's upload is not read: `report` is its parse.
    public static func ingestCheck(
        _ request: IngestRequest,
        report: SDKCheckReport,
        hook: IngestHook? = nil,
        on connection: PostgresConnection
    ) throws -> SDKCheckResult {
        let (digest, actor) = (request.digest, request.actor)
        return try ScanStore.withLockedProject(request.project, on: connection) { project, connection in
            try hook?.before(connection)
            let checked = report.sdk ?? SDKVersion(project.sdk) ?? SDKVersion(0)
            var latest: [String: SDKCheckSymbol] = [:]
            for symbol in report.symbols { latest[symbol.symbol] = symbol }
            let found = latest.values.filter(\.found).count
            // A check has no scope: its runs keep the column's default, the whole project.
            let latestRun = try connection.query(
                """
                SELECT \(ScanStore.runColumns), digest FROM scan_runs WHERE project_id = $1 AND tool = $2
                ORDER BY id DESC LIMIT 1
                """,
                [project.id, report.tool]
            )
            if let run = try ScanStore.repeatedRun(among: latestRun, tool: report.tool, digest: digest, scope: "") {
                try hook?.after(connection, run, true)
                return SDKCheckResult(
                    run: run, isRepeat: true, checkedSDK: checked, projectSDK: project.sdk,
                    found: found,
                    symbols: latest.count, itemChanges: []
                )
            }
            guard
                let runRow = try connection.query(
                    """
                    INSERT INTO scan_runs (project_id, format, tool, tool_version, commit_sha, digest, actor, commit_time)
                    VALUES ($1, \(ScanFormat.sdkCheck.sql), $2, $3, $4, $5, $6, $7)
                    RETURNING \(ScanStore.runColumns)
                    """,
                    [project.id, report.tool, report.toolVersion, request.commit, digest, actor, request.commitTime]
                ).first
            else { throw StoreError.invalid("the check was not recorded") }
            let run = try ScanRun(row: runRow)
            let symbols = latest.keys.sorted()
            try connection.query(
                """
                INSERT INTO sdk_checks (project_id, symbol, checked_sdk, found, checked_run)
                SELECT $1, u.symbol, $4, u.found, $5 FROM unnest($2::text[], $3::boolean[]) AS u(symbol, found)
                ON CONFLICT (project_id, symbol, checked_sdk) DO UPDATE
                SET found = excluded.found, checked_run = excluded.checked_run
                """,
                [
                    project.id, symbols, symbols.map { latest[$0]?.found == true ? "t" : "f" }, checked.description,
                    run.id,
                ]
            )
            // What the declarations say of when a symbol appeared is kept whatever SDK was checked.
            let dated = symbols.compactMap { symbol in latest[symbol]?.availableFrom.map { (symbol, $0.description) } }
            try connection.query(
                """
                INSERT INTO project_symbols (project_id, symbol, sdk)
                SELECT $1, u.symbol, u.sdk FROM unnest($2::text[], $3::text[]) AS u(symbol, sdk)
                ON CONFLICT (project_id, symbol) DO UPDATE SET sdk = excluded.sdk
                """,
                [project.id, dated.map(\.0), dated.map(\.1)]
            )
            try EventLog.append(
                [
                    NewEvent(
                        projectID: project.id, project: project.name, kind: .sdkChecked, subject: report.tool,
                        to: "\(found) of \(latest.count) symbols in the iOS \(checked) SDK", actor: actor
                    )
                ],
                on: connection
            )
            let changes = try reexamine(
                project, cause: "the SDK check found its symbols in the iOS \(checked) SDK", actor: actor,
                on: connection)
            try hook?.after(connection, run, false)
            return SDKCheckResult(
                run: run, isRepeat: false, checkedSDK: checked, projectSDK: project.sdk, found: found,
                symbols: latest.count,
                itemChanges: changes
            )
        }
    }

    /// The project's blocked items, one entry per missing symbol, by SDK (newest last, undeclared at the end),
    /// symbol, then item.
    public static func blocked(project name: String, on connection: PostgresConnection) throws -> [BlockedItem] {
        let project = try ProjectStore.require(name, on: connection)
        let items = try FindingStore.list(.query(FindingQuery(statuses: [.blocked])), project: project, on: connection)
        let facts = try facts(Array(Set(items.flatMap(\.needs))), project: project, on: connection)
        let sdk = SDKVersion(project.sdk) ?? SDKVersion(0)
        var entries: [BlockedItem] = []
        for item in items {
            let missing = item.needs.filter { facts[$0]?.isAvailable(in: sdk) != true }
            // A scanner finding blocked by hand names no symbol: listed under none.
            for symbol in missing.isEmpty ? [""] : missing {
                entries.append(BlockedItem(sdk: awaitedSDK(facts[symbol], sdk: sdk), symbol: symbol, finding: item))
            }
        }
        return entries.sorted { left, right in
            if left.sdk != right.sdk {
                guard let a = left.sdk else { return false }
                guard let b = right.sdk else { return true }
                return a < b
            }
            return left.symbol != right.symbol ? left.symbol < right.symbol : left.finding.id < right.finding.id
        }
    }

    /// The SDK that would bring a missing symbol: the one that introduced it, when newer than the project's. nil
    /// when none is known to: no SDK declares it, or the team's SDK check did not find it where the table says it is.
    static func awaitedSDK(_ facts: SymbolFacts?, sdk: SDKVersion) -> SDKVersion? {
        guard let introduced = facts?.introduced, introduced > sdk else { return nil }
        return introduced
    }

    /// `findings` with the availability gate of each that needs SDK symbols and has them all.
    static func withGates(_ findings: [Finding], project: Project, on connection: PostgresConnection) throws
        -> [Finding]
    {
        guard findings.contains(where: { !$0.needs.isEmpty }) else { return findings }
        let facts = try facts(Array(Set(findings.flatMap(\.needs))), project: project, on: connection)
        return findings.map { finding in
            var finding = finding
            if !finding.needs.isEmpty { finding.gate = verdict(finding.needs, facts: facts, project: project).gate }
            return finding
        }
    }
}
