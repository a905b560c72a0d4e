import BarkeepCore

/// What to change of an item; nil fields stay as they are.
public struct ItemChanges: Sendable, Equatable {
    /// A new title.
    public var title: String?
    /// A new checklist step, given by number or key.
    public var step: String?
    /// A new severity.
    public var severity: String?
    /// The SDK symbols its fix needs, replacing those it had (an empty list: none).
    public var needs: [String]?
    /// The SDK declaring needed symbols the symbol table does not know.
    public var sdkForUnknown: SDKVersion?

    /// Changes to make.
    public init(
        title: String? = nil,
        step: String? = nil,
        severity: String? = nil,
        needs: [String]? = nil,
        sdkForUnknown: SDKVersion? = nil
    ) {
        self.title = title
        self.step = step
        self.severity = severity
        self.needs = needs
        self.sdkForUnknown = sdkForUnknown
    }

    /// Whether nothing is asked.
    public var isEmpty: Bool { title == nil && step == nil && severity == nil && needs == nil }
}

extension ItemStore {
    /// An item's row as an edit reads it.
    private typealias LockedItem = (
        id: Int64, title: String, step: Int?, severity: String, needs: [String], status: FindingStatus
    )

    /// Edits item `number` of the project, an `item.updated` event per field that changed (subject the field,
    /// `from` and `to` its values). New needs are checked as `ITEM ADD` checks them, and the item is blocked or
    /// unblocked at once when the project's SDK lacks or has them (a `finding.status` event). A scanner finding is
    /// `invalid`: the scanner owns what it reports.
    public static func update(
        project projectName: String,
        number: Int,
        _ changes: ItemChanges,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Finding {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let item = try lockedItem(number, project: project, on: connection)
            var events: [NewEvent] = []
            func changed(_ field: String, _ from: String?, _ to: String?) {
                guard from != to else { return }
                events.append(
                    NewEvent(
                        projectID: project.id, project: project.name, kind: .itemUpdated, subject: field,
                        from: from, to: to, actor: actor, findingID: item.id))
            }
            let step = try changes.step.map { try ItemStore.step($0) } ?? item.step
            changed("title", item.title, changes.title ?? item.title)
            changed("step", item.step.map(String.init), step.map(String.init))
            changed("severity", item.severity, changes.severity ?? item.severity)
            var needs = item.needs
            if let asked = changes.needs {
                needs = []
                for symbol in asked where !needs.contains(symbol) { needs.append(symbol) }
                try declareUnknownSymbols(needs, sdk: changes.sdkForUnknown, project: project, on: connection)
                changed("needs", item.needs.joined(separator: ","), needs.joined(separator: ","))
            }
            try connection.query(
                """
                UPDATE findings SET title = $2, step = $3, severity = $4, needs_symbols = $5, updated_at = now()
                WHERE id = $1
                """,
                [item.id, changes.title ?? item.title, step, changes.severity ?? item.severity, needs]
            )
            try EventLog.append(events, on: connection)
            if changes.needs != nil {
                try reblock(
                    item, title: changes.title ?? item.title, needs: needs, project: project, actor: actor,
                    on: connection)
            }
            return try FindingStore.show(project: project.name, number: number, on: connection).0
        }
    }

    /// Removes item `number` of the project, with an `item.removed` event (subject its title, `from` its status);
    /// the events of its history stay. An item a pose result maps to is `conflict`: the result would lose its
    /// evidence.
    public static func remove(
        project projectName: String,
        number: Int,
        actor: String,
        on connection: PostgresConnection
    ) throws {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let item = try lockedItem(number, project: project, on: connection)
            if let pose = try connection.query(
                """
                SELECT s.key, r.pose FROM pose_results r JOIN screens s ON s.id = r.screen_id
                WHERE r.finding_id = $1 ORDER BY r.id LIMIT 1
                """,
                [item.id]
            ).first {
                throw StoreError.conflict(
                    "item \(number) is the finding of pose \(try pose.decode("pose", as: String.self)) of "
                        + "\(try pose.decode("key", as: String.self)): verify the pose, or decline the item")
            }
            try EventLog.append(
                [
                    NewEvent(
                        projectID: project.id, project: project.name, kind: .itemRemoved, subject: item.title,
                        from: item.status.rawValue, actor: actor, findingID: item.id)
                ],
                on: connection)
            try connection.query("DELETE FROM findings WHERE id = $1", [item.id])
        }
    }

    /// The item as stored, locked for the rest of the transaction.
    private static func lockedItem(_ number: Int, project: Project, on connection: PostgresConnection) throws
        -> LockedItem
    {
        guard
            let row = try connection.query(
                """
                SELECT id, source, title, step, severity, needs_symbols, status FROM findings
                WHERE project_id = $1 AND number = $2 FOR UPDATE
                """,
                [project.id, number]
            ).first
        else { throw StoreError.notFound("no item \(number) in project '\(project.name)'") }
        guard try row.decode("source", as: String.self) == FindingSource.manual.rawValue else {
            throw StoreError.invalid(
                "finding \(number) comes from a scanner: only items added by hand are edited or removed; triage it "
                    + "with finding set")
        }
        return (
            try row.decode("id"), try row.decode("title"), try row.decodeIfPresent("step"), try row.decode("severity"),
            try row.decode("needs_symbols"), FindingStatus(rawValue: try row.decode("status")) ?? .proposed
        )
    }

    /// After the item's needs changed: blocked when the project's SDK lacks one, unblocked when it has them all.
    private static func reblock(
        _ item: LockedItem,
        title: String,
        needs: [String],
        project: Project,
        actor: String,
        on connection: PostgresConnection
    ) throws {
        let verdict = SDKStore.verdict(
            needs, facts: try SDKStore.facts(needs, project: project, on: connection), project: project)
        var next: (status: FindingStatus, reason: String?, before: FindingStatus?)?
        switch (verdict, item.status) {
        case (.blocked(let reason, _), .blocked):
            // Still blocked: the reason follows what is missing now.
            try connection.query("UPDATE findings SET reason = $2 WHERE id = $1", [item.id, reason])
        case (.blocked(let reason, _), let status) where SDKStore.reexaminedStatuses.contains(status.rawValue):
            next = (.blocked, reason, status)
        case (.available, .blocked):
            let before = try connection.queryValue(
                "SELECT status_before_block FROM findings WHERE id = $1", [item.id], as: String.self)
            next = (FindingStatus(rawValue: before ?? "") ?? .proposed, nil, nil)
        default:
            break
        }
        guard let next else { return }
        try connection.query(
            "UPDATE findings SET status = $2, reason = $3, status_before_block = $4 WHERE id = $1",
            [item.id, next.status.rawValue, next.reason, next.before?.rawValue])
        try EventLog.append(
            [
                NewEvent(
                    projectID: project.id, project: project.name, kind: .findingStatus, subject: title,
                    from: item.status.rawValue, to: next.status.rawValue,
                    reason: next.reason ?? "its needs changed", actor: actor, findingID: item.id)
            ],
            on: connection)
    }
}
