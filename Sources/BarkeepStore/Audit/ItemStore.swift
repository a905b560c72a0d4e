import BarkeepCore

/// An audit item to add by hand.
public struct NewItem: Sendable, Equatable {
    /// The screen it belongs to.
    public var screen: String
    /// Its checklist step, 1 to 12; nil for an item outside the checklist (a failed pose's).
    public var step: Int?
    /// What to do.
    public var title: String
    /// The SDK symbols the fix needs.
    public var needs: [String]
    /// critical, high, medium, low or info.
    public var severity: String
    /// The SDK that declares the needed symbols the symbol table does not know; nil refuses unknown symbols.
    public var sdkForUnknown: SDKVersion?
    /// The pose whose failure created it: that pose passing on its screen verifies it.
    public var createdByPose: String?

    /// An item.
    public init(
        screen: String,
        step: Int?,
        title: String,
        needs: [String] = [],
        severity: String = "medium",
        sdkForUnknown: SDKVersion? = nil,
        createdByPose: String? = nil
    ) {
        self.screen = screen
        self.step = step
        self.title = title
        self.needs = needs
        self.severity = severity
        self.sdkForUnknown = sdkForUnknown
        self.createdByPose = createdByPose
    }
}

/// Audit items added by hand: findings with source `manual`, the same statuses, history and events as scanner
/// findings, blocked from the start when the project's SDK lacks a symbol they need.
public enum ItemStore {
    /// Adds an item to a project, in one transaction; returns it as a finding.
    public static func add(
        _ item: NewItem,
        to projectName: String,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Finding {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let inserted = try insert(item, project: project, actor: actor, on: connection)
            return try FindingStore.show(project: project.name, number: inserted.number, on: connection).0
        }
    }

    /// The number of a checklist step given by number (`5`) or key (`axis`); `invalid` for anything else.
    public static func step(_ text: String) throws -> Int {
        if let number = Int(text), ChecklistStep.numbers.contains(number) { return number }
        guard let step = ChecklistStep.keyed(text) else {
            throw StoreError.invalid(
                "unknown checklist step \(ValueExcerpt.quoted(text)): steps are \(ChecklistStep.numbers.lowerBound) to "
                    + "\(ChecklistStep.numbers.upperBound) or " + ChecklistStep.all.map(\.key).joined(separator: ", "))
        }
        return step.number
    }

    /// Inserts the item inside the caller's transaction (which holds the project's sync lock) and appends its
    /// event; returns its row's id and its number.
    static func insert(
        _ item: NewItem,
        project: Project,
        actor: String,
        on connection: PostgresConnection
    ) throws -> (id: Int64, number: Int) {
        guard
            let screenID = try connection.queryValue(
                "SELECT id FROM screens WHERE project_id = $1 AND key = $2",
                [project.id, item.screen],
                as: Int64.self
            )
        else {
            throw try ScreenStore.notFound(item.screen, project: project.name, on: connection)
        }
        var needs: [String] = []
        for symbol in item.needs where !needs.contains(symbol) { needs.append(symbol) }
        try declareUnknownSymbols(needs, sdk: item.sdkForUnknown, project: project, on: connection)
        let verdict = SDKStore.verdict(
            needs,
            facts: try SDKStore.facts(needs, project: project, on: connection),
            project: project
        )
        let status: FindingStatus = verdict.isBlocked ? .blocked : .proposed
        let reason: String? =
            if case .blocked(let reason, _) = verdict { reason } else { nil }
        guard
            let row = try connection.query(
                """
                WITH numbered AS (
                    UPDATE projects SET findings_numbered = findings_numbered + 1 WHERE id = $1
                    RETURNING findings_numbered
                )
                INSERT INTO findings (project_id, source, title, step, severity, screen_id, status, reason,
                                      status_before_block, needs_symbols, created_by_pose, number)
                SELECT $1, \(FindingSource.manual.sql), $2, $3, $4, $5, $6, $7, $8, $9, $10, findings_numbered FROM numbered
                RETURNING id, number
                """,
                [
                    project.id, item.title, item.step, item.severity, screenID, status.rawValue, reason,
                    verdict.isBlocked ? FindingStatus.proposed.rawValue : nil, needs, item.createdByPose,
                ]
            ).first
        else { throw StoreError.invalid("the item was not added") }
        let id: Int64 = try row.decode("id")
        try EventLog.append(
            [
                NewEvent(
                    projectID: project.id, project: project.name, kind: .findingNew, subject: item.title,
                    to: status.rawValue, reason: reason, actor: actor, findingID: id
                )
            ],
            on: connection
        )
        return (id, try row.decode("number"))
    }

    /// Refuses symbols neither the table nor the project knows, suggesting the nearest known names, unless `sdk`
    /// says which SDK declares them: then the project records that.
    static func declareUnknownSymbols(
        _ needs: [String],
        sdk: SDKVersion?,
        project: Project,
        on connection: PostgresConnection
    ) throws {
        let known = try SDKStore.facts(needs, project: project, on: connection)
        let unknown = needs.filter { known[$0] == nil }
        guard let sdk else {
            guard let first = unknown.first else { return }
            let names = try connection.query(
                """
                SELECT symbol FROM sdk_symbols
                UNION SELECT symbol FROM project_symbols WHERE project_id = $1
                UNION SELECT symbol FROM sdk_checks WHERE project_id = $1
                """,
                [project.id]
            ).map { try $0.decode("symbol", as: String.self) }
            throw StoreError.invalid(
                "unknown SDK symbol \(ValueExcerpt.quoted(first))"
                    + NameSuggestion.hint(NameSuggestion.closest(to: first, among: names))
                    + "; for a symbol the table lacks, name the SDK that declares it: --sdk VERSION, sdk=VERSION on "
                    + "the wire")
        }
        guard !unknown.isEmpty else {
            throw StoreError.invalid(
                "an SDK version (\(sdk)) is only for symbols the symbol table does not know, and it knows "
                    + needs.joined(separator: ", "))
        }
        try connection.query(
            """
            INSERT INTO project_symbols (project_id, symbol, sdk) SELECT $1, u, $3 FROM unnest($2::text[]) AS u
            ON CONFLICT (project_id, symbol) DO UPDATE SET sdk = excluded.sdk
            """,
            [project.id, unknown, sdk.description]
        )
    }
}
