import BarkeepCore

/// What a change of many findings did, or would do, to one of them.
public struct FindingChange: Sendable {
    /// What happened to the finding.
    public enum Outcome: String, Sendable, CaseIterable {
        /// It changed (an event was appended).
        case changed
        /// A dry run: it would change.
        case wouldChange = "would-change"
        /// It already was so; nothing changed.
        case unchanged
        /// FindingLifecycle does not allow the change; it was left alone.
        case refused
    }

    /// The finding: as it is after the change, or as it is now (a dry run, a refusal, no change).
    public var finding: Finding
    /// What happened.
    public var outcome: Outcome
    /// The value before: a status, or an assignee (nil: no one).
    public var from: String?
    /// The value asked for, or (an item the SDK keeps blocked) the one it gets.
    public var to: String?
    /// Why it was refused.
    public var refusal: TransitionRefusal?
}

/// The result of a change of many findings: one entry per selected finding, by file and line.
public struct BulkChange: Sendable {
    /// One entry per selected finding.
    public var changes: [FindingChange]
    /// Whether nothing was written.
    public var isDryRun: Bool

    /// Creates a result.
    public init(changes: [FindingChange], isDryRun: Bool) {
        self.changes = changes
        self.isDryRun = isDryRun
    }

    /// How many entries had `outcome`.
    public func count(_ outcome: FindingChange.Outcome) -> Int {
        changes.count { $0.outcome == outcome }
    }
}

/// A status a person's verdict stores on a finding, and the event it writes.
struct StatusWrite: Sendable {
    /// The finding's row.
    var id: Int64
    /// Its status before: the event's `from`.
    var from: FindingStatus
    /// The status stored: the one asked for, or blocked (the SDK still lacks what the finding needs).
    var status: FindingStatus
    /// The reason stored: the one given, or why it stays blocked.
    var reason: String?
    /// Blocked: the status asked for, which it gets when the SDK arrives.
    var before: FindingStatus?
    /// Who.
    var actor: String
}

extension FindingStore {
    /// The subject of a finding's events: `RULE:file:line`, or an item's title.
    static let subject = """
        CASE WHEN f.rule IS NULL THEN f.title
             ELSE f.rule || ':' || coalesce(f.file, '') || ':' || coalesce(f.line::text, '') END
        """

    /// Sets the status of the findings `selector` picks, as a person holding `role`, in one transaction under the
    /// project's sync lock, with a `finding.status` event each. Findings FindingLifecycle does not let move are
    /// left alone and reported `refused`; those already so, `unchanged`. An item whose SDK symbols the project
    /// still lacks stays blocked, remembering the status asked for. `isDryRun` writes nothing.
    public static func setStatus(
        project projectName: String,
        of selector: FindingSelector,
        to status: FindingStatus,
        reason: String?,
        role: Role,
        actor: String,
        isDryRun: Bool,
        on connection: PostgresConnection
    ) throws -> BulkChange {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            // The project's sync lock (taken above, as an ingest takes it): a sync running now finishes first, and
            // cannot then undo these verdicts.
            let findings = try list(selector, project: project, on: connection)
            let facts = try facts(for: findings, statuses: [status], project: project, on: connection)
            var changes: [FindingChange] = []
            var asked: [StatusWrite] = []
            var stillBlocked: [StatusWrite] = []
            for finding in findings {
                let (change, write) = decide(
                    finding, to: status, reason: reason, role: role, actor: actor, facts: facts, project: project,
                    isDryRun: isDryRun)
                if let write {
                    if write.before == nil { asked.append(write) } else { stillBlocked.append(write) }
                }
                changes.append(change)
            }
            // The events in the order they always had: the statuses asked for, then the findings left blocked.
            let changed = asked + stillBlocked
            guard !isDryRun, !changed.isEmpty else { return BulkChange(changes: changes, isDryRun: isDryRun) }

            try store(changed, project: project, on: connection)
            try appendStatusEvents(changed, project: project, on: connection)
            return BulkChange(
                changes: try refreshed(changes, project: project, on: connection), isDryRun: false)
        }
    }

    /// What a person's verdict does to `finding` as it is now: the change (outcome, from, to, refusal) and, when it
    /// changes the finding (and this is no dry run, or is: `write` says what would be stored), what to store. The
    /// one home of a verdict's rules, for a bulk FINDING SET and a group commit of single ones alike. `facts`: what
    /// the project knows of the symbols the finding needs (unused for a sticky status).
    static func decide(
        _ finding: Finding,
        to status: FindingStatus,
        reason: String?,
        role: Role,
        actor: String,
        facts: [String: SymbolFacts],
        project: Project,
        isDryRun: Bool
    ) -> (change: FindingChange, write: StatusWrite?) {
        let label =
            "finding \(finding.number)" + (finding.status == .blocked ? " (\(finding.reason ?? "blocked"))" : "")
        var change = FindingChange(finding: finding, outcome: .unchanged, from: finding.status.rawValue)
        change.to = status.rawValue
        change.refusal = FindingLifecycle.refusal(
            from: finding.status, to: status, source: FindingSource(rawValue: finding.source) ?? .manual,
            reason: reason, by: .person(role), label: label)
        if change.refusal != nil {
            change.outcome = .refused
            return (change, nil)
        }
        var why: String?
        // Re-opening an item whose SDK symbols the project still lacks leaves it blocked, remembering the status
        // asked for: it becomes that when the SDK arrives.
        if !status.isSticky && !finding.needs.isEmpty,
            case .blocked(let blockedWhy, _) = SDKStore.verdict(finding.needs, facts: facts, project: project)
        {
            why = blockedWhy
            change.to = FindingStatus.blocked.rawValue
        }
        guard finding.status.rawValue != change.to || finding.reason != (why ?? reason) else { return (change, nil) }
        change.outcome = isDryRun ? .wouldChange : .changed
        let write =
            why.map {
                StatusWrite(
                    id: finding.id, from: finding.status, status: .blocked, reason: $0, before: status, actor: actor)
            }
            ?? StatusWrite(
                id: finding.id, from: finding.status, status: status, reason: reason, before: nil, actor: actor)
        return (change, write)
    }

    /// What the SDK facts of `findings` are, when a verdict to `statuses` may need them (a sticky status never does).
    static func facts(
        for findings: [Finding], statuses: [FindingStatus], project: Project, on connection: PostgresConnection
    ) throws -> [String: SymbolFacts] {
        guard statuses.contains(where: { !$0.isSticky }) else { return [:] }
        return try SDKStore.facts(Array(Set(findings.flatMap(\.needs))), project: project, on: connection)
    }

    /// Stores statuses set by people, one row each (a finding at most once). Leaving the open statuses, a
    /// finding's last sighting stops being derived: it is recorded.
    static func store(_ writes: [StatusWrite], project: Project, on connection: PostgresConnection) throws {
        guard !writes.isEmpty else { return }
        // Text arrays carry no NULL from here: an empty string stands for it (a reason is never empty).
        try connection.query(
            """
            \(latest)
            UPDATE findings f SET status = c.status, reason = nullif(c.reason, ''),
                status_before_block = nullif(c.before, ''), updated_at = now(),
                last_seen_run = \(lastSeenRun), reported_after_verified = \(reportedAfterVerified(keptAt: "c.status"))
            FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) AS c(id, status, reason, before)
            WHERE f.id = c.id
            """,
            [
                project.id, writes.map { String($0.id) }, writes.map(\.status.rawValue), writes.map { $0.reason ?? "" },
                writes.map { $0.before?.rawValue ?? "" },
            ]
        )
    }

    /// Appends a `finding.status` event per write, in their order: from the status before, to the one stored, the
    /// reason stored, by the write's actor.
    static func appendStatusEvents(_ writes: [StatusWrite], project: Project, on connection: PostgresConnection)
        throws
    {
        guard !writes.isEmpty else { return }
        try EventLog.appendSelect(
            """
            SELECT f.project_id, $2::text, f.id, '\(EventKind.findingStatus.rawValue)', \(subject), v.before, v.status,
                   nullif(v.reason, ''), v.actor
            FROM unnest($1::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])
                 WITH ORDINALITY AS v (id, before, status, reason, actor, i)
            JOIN findings f ON f.id = v.id
            ORDER BY v.i
            """,
            [
                writes.map { String($0.id) }, project.name, writes.map(\.from.rawValue), writes.map(\.status.rawValue),
                writes.map { $0.reason ?? "" }, writes.map(\.actor),
            ],
            on: connection)
    }

    /// `changes` with the findings that changed read again, as they are now.
    private static func refreshed(
        _ changes: [FindingChange],
        project: Project,
        on connection: PostgresConnection
    ) throws -> [FindingChange] {
        let numbers = changes.filter { $0.outcome == .changed }.map(\.finding.number)
        guard !numbers.isEmpty else { return changes }
        let now = Dictionary(
            try list(.numbers(numbers), project: project, on: connection).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        return changes.map { change in
            var change = change
            if change.outcome == .changed, let finding = now[change.finding.id] { change.finding = finding }
            return change
        }
    }

    /// Assigns the findings `selector` picks to `assignee` (nil: no one), in one transaction under the project's
    /// sync lock, with a `finding.assigned` event each (`from` and `to` the names, absent for no one). A name
    /// Core's Assignee refuses is `invalid`. `isDryRun` writes nothing.
    public static func assign(
        project projectName: String,
        of selector: FindingSelector,
        to assignee: String?,
        actor: String,
        isDryRun: Bool,
        on connection: PostgresConnection
    ) throws -> BulkChange {
        if let assignee, !Assignee.isValid(assignee) { throw StoreError.invalid(Assignee.rule(for: assignee)) }
        return try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let changes = try list(selector, project: project, on: connection).map { finding in
                FindingChange(
                    finding: finding,
                    outcome: finding.assignee == assignee ? .unchanged : isDryRun ? .wouldChange : .changed,
                    from: finding.assignee, to: assignee)
            }
            let changed = changes.filter { $0.outcome == .changed }.map(\.finding)
            guard !changed.isEmpty else { return BulkChange(changes: changes, isDryRun: isDryRun) }
            let ids = changed.map { String($0.id) }
            try connection.query(
                "UPDATE findings SET assignee = $2, updated_at = now() WHERE id = ANY($1::bigint[])", [ids, assignee])
            // No one travels as '' in the text array (a name is never empty) and is stored as NULL.
            try EventLog.appendSelect(
                """
                SELECT f.project_id, $2::text, f.id, $5::text, \(subject), nullif(v.before, ''), f.assignee, NULL,
                       $3::text
                FROM unnest($1::bigint[], $4::text[]) WITH ORDINALITY AS v (id, before, i) JOIN findings f ON f.id = v.id
                ORDER BY v.i
                """,
                [ids, project.name, actor, changed.map { $0.assignee ?? "" }, EventKind.findingAssigned.rawValue],
                on: connection)
            return BulkChange(changes: try refreshed(changes, project: project, on: connection), isDryRun: false)
        }
    }

    /// Adds a comment to finding `number`: a `finding.comment` event (the text its reason), which its history
    /// shows; the finding itself does not change. Returns the event. A text Core's FindingComment refuses is
    /// `invalid`; an unknown finding `notFound`.
    public static func comment(
        project projectName: String,
        number: Int,
        text: String,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Event {
        if let refusal = FindingComment.refusal(of: text) { throw StoreError.invalid(refusal) }
        return try connection.transaction { connection in
            let project = try ProjectStore.require(projectName, on: connection)
            guard
                let id = try connection.queryValue(
                    "SELECT id FROM findings WHERE project_id = $1 AND number = $2", [project.id, number],
                    as: Int64.self)
            else { throw StoreError.notFound("no finding \(number) in project '\(project.name)'") }
            try EventLog.appendSelect(
                """
                SELECT f.project_id, $2::text, f.id, $5::text, \(subject), NULL, NULL, $3::text, $4::text
                FROM findings f WHERE f.id = $1
                """,
                [id, project.name, text, actor, EventKind.findingComment.rawValue],
                on: connection)
            guard
                let event = try connection.query(
                    "SELECT \(EventLog.columns) FROM events WHERE finding_id = $1 ORDER BY seq DESC LIMIT 1", [id]
                ).map(Event.init(row:)).first
            else { throw StoreError.notFound("the comment on finding \(number) was not stored") }
            return event
        }
    }
}
