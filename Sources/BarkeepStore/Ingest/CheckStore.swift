import BarkeepCore
import BarkeepHashing
import Foundation

/// One scan to check against a project's tracked findings (CHECK): what `IngestRequest` says of an upload, less
/// what only an ingest needs, plus the base to compare with, the gate and whether the check is recorded.
public struct CheckRequest: Sendable {
    /// The document's bytes.
    public var upload: ScanUpload
    /// The format it is declared in: a scan's (duo-scan or SARIF).
    public var format: ScanFormat
    /// The project.
    public var project: String
    /// The commit scanned, if known: recorded on the event only.
    public var commit: String?
    /// The branch scanned, if known: recorded on the event only.
    public var branch: String?
    /// The tracked state to compare with.
    public var base: CheckBase
    /// The path prefix the scan covers; empty: the whole project.
    public var scope: String
    /// The severity at or above which a new or reopened finding fails the check.
    public var failOn: Severity
    /// Whether the check is recorded as a `scan.checked` event.
    public var isRecorded: Bool
    /// Who checks.
    public var actor: String
    /// The files renamed between the latest run's commit and the scanned one (pass 3 of the sync); empty: none known.
    public var renames: FileRenames
    /// Whether the answer has a row for each tracked finding the scan still reports; without them they are only
    /// counted (a pull request's comment or SARIF shows none, and a large app has tens of thousands).
    public var includesTracked: Bool

    /// A check of `upload` as `format` against `project`.
    public init(
        _ upload: ScanUpload, format: ScanFormat, project: String, commit: String? = nil, branch: String? = nil,
        base: CheckBase = .latest, scope: String = "", failOn: Severity = CheckGate.defaultFailOn,
        isRecorded: Bool = true, actor: String, renames: FileRenames = FileRenames(), includesTracked: Bool = true
    ) {
        self.upload = upload
        self.format = format
        self.project = project
        self.commit = commit
        self.branch = branch
        self.base = base
        self.scope = scope
        self.failOn = failOn
        self.isRecorded = isRecorded
        self.actor = actor
        self.renames = renames
        self.includesTracked = includesTracked
    }
}

/// One finding of a check's answer: a scanned finding and its class, or a tracked one the change fixes.
public struct CheckRow: Sendable, Equatable {
    /// Its class.
    public var kind: CheckClass
    /// The tracked finding's number; nil for a new one.
    public var number: Int?
    /// Barkeep's identity of it (a changed finding's: its new one).
    public var identity: String
    /// The rule.
    public var rule: String
    /// Its severity.
    public var severity: Severity
    /// The file.
    public var file: String
    /// The line (as scanned; a fixed finding's where it was last seen).
    public var line: Int?
    /// The code at the line.
    public var snippet: String?
    /// The scanner's message.
    public var message: String?
    /// The screen counting it (a new one's attributed now from the project's globs); nil: unmapped.
    public var screen: String?
    /// The checklist step of its rule (an item's own).
    public var step: Int?
    /// Its rule's readiness tier.
    public var tier: Int?
    /// The tracked finding's status (at the base); nil for a new one.
    public var status: FindingStatus?
    /// Why it has that status.
    public var reason: String?

    /// Creates a row.
    public init(
        kind: CheckClass, number: Int? = nil, identity: String, rule: String, severity: Severity, file: String,
        line: Int? = nil, snippet: String? = nil, message: String? = nil, screen: String? = nil, step: Int? = nil,
        tier: Int? = nil, status: FindingStatus? = nil, reason: String? = nil
    ) {
        self.kind = kind
        self.number = number
        self.identity = identity
        self.rule = rule
        self.severity = severity
        self.file = file
        self.line = line
        self.snippet = snippet
        self.message = message
        self.screen = screen
        self.step = step
        self.tier = tier
        self.status = status
        self.reason = reason
    }
}

/// What a check found.
public struct CheckOutcome: Sendable, Equatable {
    /// Every finding of the scan (the tracked ones only when the request `includesTracked`), then the tracked ones
    /// it fixes: new, reopened, changed, tracked, fixed, each by file, line and rule.
    public var rows: [CheckRow]
    /// How many of each class.
    public var counts: CheckCounts
    /// Whether the change passes the gate.
    public var result: CheckResult
    /// The base compared with.
    public var base: CheckBase
    /// The scanner whose findings were compared.
    public var tool: String
}

/// Checks a scan against a project's tracked findings without writing them: the same identity passes as a sync
/// (`StoredScan.plan`, which `ScanStore.ingest` calls too: passes 1, 3 and 2, with the request's renames), in a
/// read-only transaction, then at most one `scan.checked` event.
public enum CheckStore {
    /// Parses the request's upload as its format and checks it. A document that does not parse is
    /// `StoreError.invalid` with INGEST's words, an SDK check too (a check takes a scan), both before the project is
    /// looked up; an unknown project or base run is `notFound`. Nothing is written but the event, and not even
    /// that unless `isRecorded`.
    public static func check(_ request: CheckRequest, on connection: PostgresConnection) throws -> CheckOutcome {
        guard request.format != .sdkCheck else {
            throw StoreError.invalid("a check takes a scan (duo-scan or sarif), not an SDK check")
        }
        let table: ScanTable
        do throws(CoreError) {
            let bytes = request.upload.take()
            table =
                request.format == .sarif ? ScanTable(try SARIFParser.parse(bytes)) : try DuoScanParser.parseTable(bytes)
        } catch {
            throw StoreError.invalid("the \(request.format.rawValue) upload is not valid: \(error)")
        }
        return try check(request, table: table, on: connection)
    }

    /// Checks the parsed scan `table` (the request's upload and format are not read).
    public static func check(
        _ request: CheckRequest, table: ScanTable, on connection: PostgresConnection
    ) throws -> CheckOutcome {
        let scan = FindingIdentity.identify(table, hasher: LibcryptoHasher(), keepingDigests: true)
        let (project, outcome) = try connection.transaction { connection in
            // One snapshot for every read, and no write: a check takes no lock and blocks no ingest.
            try connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            let project = try ProjectStore.require(request.project, on: connection)
            return (project, try plan(scan, request: request, project: project, on: connection))
        }
        if request.isRecorded {
            try connection.transaction { connection in
                try EventLog.append(
                    [
                        NewEvent(
                            projectID: project.id, project: project.name, kind: .scanChecked, subject: project.name,
                            to: outcome.counts.eventText(result: outcome.result),
                            reason: eventReason(request, base: outcome.base), actor: request.actor)
                    ], on: connection)
                try connection.query(
                    """
                    DELETE FROM events WHERE seq IN (
                        SELECT seq FROM events
                        WHERE project_id = $1 AND kind = \(EventKind.scanChecked.sql) AND at < now() - make_interval(days => $2)
                        ORDER BY at LIMIT $3)
                    """,
                    [project.id, CheckRetention.days, CheckRetention.deletedPerCheck])
            }
        }
        return outcome
    }

    /// A `scan.checked` event's reason: `base=latest commit=SHA branch=NAME`, the commit and branch when given.
    static func eventReason(_ request: CheckRequest, base: CheckBase) -> String {
        var words = ["base=\(base.text)"]
        if let commit = request.commit { words.append("commit=\(commit)") }
        if let branch = request.branch { words.append("branch=\(branch)") }
        return words.joined(separator: " ")
    }

    /// The plan of a sync of `scan`, as rows. Inside the read-only transaction.
    private static func plan(
        _ scan: IdentifiedScan, request: CheckRequest, project: Project, on connection: PostgresConnection
    ) throws -> CheckOutcome {
        let table = scan.table
        let scope = request.scope
        // At a base run: the findings first seen after it were not tracked then, and a fixed one seen at or after
        // it was still open then (the fixed findings are read with the others; at the latest run, pass 1 looks up
        // the few the scan reopens).
        let openThen = try baseAdjustment(request.base, tool: table.tool, project: project, on: connection)
        let stored = try StoredScan.read(
            projectID: project.id, scope: scope, includingFixed: openThen != nil, on: connection)
        var (sightings, _) = try stored.sightings(of: table.tool)
        if let openThen {
            sightings = sightings.compactMap { sighting in
                if openThen.later.contains(sighting.id) { return nil }
                var sighting = sighting
                if openThen.open.contains(sighting.id) { sighting.status = .proposed }
                return sighting
            }
        }
        let (plan, _) = try StoredScan.plan(
            HashedScan(scan), sightings: sightings,
            fixed: openThen == nil ? FixedLookup(projectID: project.id, tool: table.tool) : nil, scope: scope,
            renames: request.renames,
            adjustingUnseen: { finding in
                if openThen?.open.contains(finding.id) == true { finding.status = .proposed }
            }, on: connection)

        let statuses = Dictionary(sightings.map { ($0.id, $0.status) }, uniquingKeysWith: { first, _ in first })
        // A finding the scan still reports (seen again, or in a renamed file) is tracked; its row, and the read of
        // what it shows, only when asked for: a pull request's comment counts them.
        let isListed = { (match: SyncPlan.Match) in match.isReopened || request.includesTracked }
        let tracked = try trackedDetails(
            of: plan.matches.lazy.filter(isListed).map(\.id)
                + (request.includesTracked ? plan.renamed.map(\.id) : []) + plan.changed.map(\.id)
                + plan.fixed.map(\.id),
            on: connection)
        let rules = try ruleDetails(on: connection)
        let screens = try ScreenAttribution(projectID: project.id, on: connection)
        let screenKeys = try screenKeys(projectID: project.id, on: connection)

        var rows: [CheckRow] = []
        rows.reserveCapacity(scan.count + plan.fixed.count)
        func scanned(_ index: Int, _ kind: CheckClass, stored id: Int64?, isRenamed: Bool = false) -> CheckRow {
            let entry = table.rows[index]
            let rule = table.string(at: entry.rule) ?? ""
            let file = table.string(at: entry.file) ?? ""
            var row = CheckRow(
                kind: kind, identity: scan.identity(at: index).hex, rule: rule, severity: entry.severity, file: file,
                line: Int(entry.line), snippet: table.string(at: entry.snippet),
                message: entry.message == 0 ? nil : table.string(at: entry.message),
                step: rules[rule]?.step, tier: rules[rule]?.tier)
            if let id, let finding = tracked[id] {
                row.number = finding.number
                // A finding in a renamed file counts for the screen of its new path, as the sync re-attributes it.
                row.screen = isRenamed ? screens.screen(for: file).flatMap { screenKeys[$0] } : finding.screen
                row.status = statuses[id] ?? finding.status
                row.reason = finding.reason
                row.step = finding.step ?? row.step
            } else {
                row.screen = screens.screen(for: file).flatMap { screenKeys[$0] }
            }
            return row
        }
        for index in plan.new { rows.append(scanned(Int(index), .new, stored: nil)) }
        var unlisted = 0
        for match in plan.matches {
            guard isListed(match) else {
                unlisted += 1
                continue
            }
            rows.append(scanned(match.index, match.isReopened ? .reopened : .tracked, stored: match.id))
        }
        if request.includesTracked {
            for rename in plan.renamed {
                rows.append(scanned(rename.index, .tracked, stored: rename.id, isRenamed: true))
            }
        } else {
            unlisted += plan.renamed.count
        }
        for change in plan.changed { rows.append(scanned(change.index, .changed, stored: change.id)) }
        for fix in plan.fixed {
            guard let finding = tracked[fix.id] else { continue }
            rows.append(
                CheckRow(
                    kind: .fixed, number: finding.number, identity: finding.identity, rule: finding.rule,
                    severity: finding.severity, file: finding.file, line: finding.line, snippet: finding.snippet,
                    message: finding.message, screen: finding.screen, step: finding.step ?? rules[finding.rule]?.step,
                    tier: rules[finding.rule]?.tier, status: fix.previousStatus, reason: finding.reason))
        }
        let order = Dictionary(uniqueKeysWithValues: CheckClass.allCases.enumerated().map { ($1, $0) })
        let ranks = rows.map { order[$0.kind] ?? 0 }
        // Paths and rules in byte order, as everywhere in the sync (docs/sync.md), not Swift's canonical order. The
        // rows' places are sorted, not the rows: a row is large, and a hundred thousand of them moved at each step
        // of the sort cost more than comparing them.
        let sorted = rows.indices.sorted { i, j in
            if ranks[i] != ranks[j] { return ranks[i] < ranks[j] }
            if rows[i].file != rows[j].file { return rows[i].file.utf8.lexicographicallyPrecedes(rows[j].file.utf8) }
            if rows[i].line != rows[j].line { return (rows[i].line ?? 0) < (rows[j].line ?? 0) }
            if rows[i].rule != rows[j].rule { return rows[i].rule.utf8.lexicographicallyPrecedes(rows[j].rule.utf8) }
            return rows[i].identity < rows[j].identity
        }
        rows = sorted.map { rows[$0] }
        var counts = CheckCounts()
        for row in rows { counts.count(row.kind) }
        counts.tracked += unlisted
        let result = CheckGate.result(
            added: rows.lazy.filter(\.kind.isAdded).map(\.severity), failOn: request.failOn)
        return CheckOutcome(rows: rows, counts: counts, result: result, base: request.base, tool: table.tool)
    }

    /// At a base run, the stored findings of `tool` first seen after it (`later`) and the fixed ones last seen at or
    /// after it (`open`: still open then); nil for the latest state. An unknown run is `notFound`.
    private static func baseAdjustment(
        _ base: CheckBase, tool: String, project: Project, on connection: PostgresConnection
    ) throws -> (later: Set<Int64>, open: Set<Int64>)? {
        guard case .run(let number) = base else { return nil }
        guard
            let runID = try connection.queryValue(
                "SELECT id FROM scan_runs WHERE project_id = $1 AND number = $2", [project.id, number], as: Int64.self)
        else { throw StoreError.notFound("no run \(number) in project '\(project.name)'") }
        var later: Set<Int64> = []
        var open: Set<Int64> = []
        for row in try connection.query(
            """
            SELECT id, first_seen_run > $3 AS later FROM findings
            WHERE project_id = $1 AND source = \(FindingSource.scanner.sql) AND tool = $2
              AND (first_seen_run > $3 OR (status = \(FindingStatus.fixed.sql) AND last_seen_run >= $3))
            """,
            [project.id, tool, runID]
        ) {
            let id: Int64 = try row.decode(at: 0)
            if try row.decode(at: 1, as: Bool.self) { later.insert(id) } else { open.insert(id) }
        }
        return (later, open)
    }

    /// A tracked finding as a check's row shows it.
    private struct TrackedFinding {
        var number: Int
        var identity: String
        var rule: String
        var severity: Severity
        var file: String
        var line: Int?
        var snippet: String?
        var message: String?
        var status: FindingStatus
        var reason: String?
        var screen: String?
        var step: Int?
    }

    /// The findings `ids`, by id, with what a row shows of them.
    private static func trackedDetails(of ids: [Int64], on connection: PostgresConnection) throws
        -> [Int64: TrackedFinding]
    {
        guard !ids.isEmpty else { return [:] }
        var found: [Int64: TrackedFinding] = [:]
        found.reserveCapacity(ids.count)
        for row in try connection.query(
            """
            SELECT f.id, f.number, f.identity, f.rule, f.severity, f.file, f.line, f.snippet, f.message, f.status,
                   f.reason, s.key, f.step
            FROM findings f LEFT JOIN screens s ON s.id = f.screen_id
            WHERE f.id = ANY ($1::bigint[])
            """,
            ["{" + ids.map(String.init).joined(separator: ",") + "}"]
        ) {
            found[try row.decode(at: 0)] = TrackedFinding(
                number: try row.decode(at: 1), identity: try row.decodeIfPresent(at: 2) ?? "",
                rule: try row.decodeIfPresent(at: 3) ?? "",
                severity: Severity(rawValue: try row.decode(at: 4)) ?? .info,
                file: try row.decodeIfPresent(at: 5) ?? "",
                line: try row.decodeIfPresent(at: 6), snippet: try row.decodeIfPresent(at: 7),
                message: try row.decodeIfPresent(at: 8),
                status: FindingStatus(rawValue: try row.decode(at: 9)) ?? .proposed,
                reason: try row.decodeIfPresent(at: 10),
                screen: try row.decodeIfPresent(at: 11), step: try row.decodeIfPresent(at: 12))
        }
        return found
    }

    /// Each rule's checklist step and readiness tier, as findings take them (FindingStore's columns).
    private static func ruleDetails(on connection: PostgresConnection) throws -> [String: (step: Int?, tier: Int?)] {
        var rules: [String: (step: Int?, tier: Int?)] = [:]
        for row in try connection.query("SELECT id, step, tier FROM rules") {
            rules[try row.decode(at: 0)] = (try row.decodeIfPresent(at: 1), try row.decodeIfPresent(at: 2))
        }
        return rules
    }

    /// The keys of the project's screens, by id.
    private static func screenKeys(projectID: Int64, on connection: PostgresConnection) throws -> [Int64: String] {
        var keys: [Int64: String] = [:]
        for row in try connection.query("SELECT id, key FROM screens WHERE project_id = $1", [projectID]) {
            keys[try row.decode(at: 0)] = try row.decode(at: 1)
        }
        return keys
    }
}
