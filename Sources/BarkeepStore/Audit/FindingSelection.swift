import BarkeepCore

/// Which findings of a project a store call works on: some by number, or those a query selects.
public enum FindingSelector: Sendable, Equatable {
    /// These numbers; one the project does not have is `notFound`.
    case numbers([Int])
    /// What the query selects.
    case query(FindingQuery)
}

/// A `FindingSelector` as SQL: a condition on `f` (findings) and `s` (its screen, left-joined) whose parameters are
/// bound, never spelled: `$1` is the project's id, the rest follow. The one SQL builder of the filter language.
struct FindingSelection {
    /// The WHERE condition.
    private(set) var condition: String
    /// Its parameters, `$1` first; a statement using the selection appends its own after them.
    private(set) var parameters: [(any PostgresEncodable)?]

    /// Builds the selection for `selector` in `project`, after checking the names it holds: a number, screen, rule
    /// or owner the project does not know is `notFound`, an unknown step key `invalid`.
    init(_ selector: FindingSelector, project: Project, on connection: PostgresConnection) throws {
        condition = "f.project_id = $1"
        parameters = [project.id]
        switch selector {
        case .numbers(let numbers):
            let missing = try Self.missing(numbers, project: project, on: connection)
            if !missing.isEmpty { throw Self.notFound(missing, project: project) }
            add("f.number = ANY(\(bind(numbers.map(String.init)))::int[])")
        case .query(let query):
            try check(query, project: project, on: connection)
            try add(query, on: connection)
        }
    }

    /// Which of `numbers` the project has no finding for, in increasing order.
    static func missing(_ numbers: [Int], project: Project, on connection: PostgresConnection) throws -> [Int] {
        try connection.query(
            """
            SELECT n FROM unnest($2::int[]) AS n
            WHERE NOT EXISTS (SELECT 1 FROM findings WHERE project_id = $1 AND number = n) ORDER BY n
            """,
            [project.id, numbers.map(String.init)]
        ).map { try $0.decode(at: 0, as: Int.self) }
    }

    /// The error for numbers the project has no finding for.
    static func notFound(_ missing: [Int], project: Project) -> StoreError {
        .notFound("no finding \(missing.map(String.init).joined(separator: ", ")) in project '\(project.name)'")
    }

    /// Binds `value` as the next parameter and returns its placeholder.
    private mutating func bind(_ value: any PostgresEncodable) -> String {
        parameters.append(value)
        return "$\(parameters.count)"
    }

    private mutating func add(_ clause: String) {
        condition += "\n  AND " + clause
    }

    /// The findings of the screens matching `screens` (a condition on `x`) and of the components they use, as one
    /// list of screen ids: the index on the findings' screens reads those screens' rows only. Said as `s.key = …
    /// OR f.screen_id IN (components)`, the condition spans two tables, and PostgreSQL reads every finding of the
    /// project to test it (and, its estimate that large, compiles the plan with JIT): `SCREEN SHOW` of one screen of
    /// 100 findings took 690 ms in a project of 120,000.
    private static func ownedOrUsed(by screens: String) -> String {
        """
        f.screen_id IN (SELECT x.id FROM screens x WHERE x.project_id = $1 AND \(screens)
                        UNION ALL
                        SELECT u.component_id FROM screen_uses u JOIN screens x ON x.id = u.screen_id
                        WHERE x.project_id = $1 AND \(screens))
        """
    }

    /// The findings no screen owns, and those of the components no screen uses.
    private static let unmapped = """
        (f.screen_id IS NULL OR (s.kind = '\(ScreenKind.component.rawValue)'
                                 AND NOT EXISTS (SELECT 1 FROM screen_uses u WHERE u.component_id = f.screen_id)))
        """

    private mutating func add(_ query: FindingQuery, on connection: PostgresConnection) throws {
        if let statuses = query.statuses {
            add("f.status = ANY(\(bind(statuses.map(\.rawValue)))::text[])")
        }
        if let isBlocked = query.isBlocked {
            add("f.status \(isBlocked ? "=" : "<>") '\(FindingStatus.blocked.rawValue)'")
        }
        if let severities = query.severities {
            add("f.severity = ANY(\(bind(severities.map(\.rawValue)))::text[])")
        }
        if let rules = query.rules {
            add("f.rule = ANY(\(bind(rules))::text[])")
        }
        if let screens = query.screens {
            var choices: [String] = []
            let keys = screens.filter { $0 != AuditArea.unmapped }
            if !keys.isEmpty {
                let placeholder = bind(keys)
                choices.append(Self.ownedOrUsed(by: "x.key = ANY(\(placeholder)::text[])"))
            }
            if screens.contains(AuditArea.unmapped) { choices.append(Self.unmapped) }
            add("(" + choices.joined(separator: "\n       OR ") + ")")
        }
        if let owner = query.owner {
            if ScreenOwner.isNobody(owner) {
                // The screens of the owner table's nobody row: screens (not components or the app area) no one owns.
                add(Self.ownedOrUsed(by: "x.kind = \(ScreenKind.screen.sql) AND x.owner IS NULL"))
            } else {
                let placeholder = bind(owner)
                add(Self.ownedOrUsed(by: "x.owner = \(placeholder)"))
            }
        }
        switch query.assignee {
        case .unassigned: add("f.assignee IS NULL")
        case .name(let name): add("f.assignee = \(bind(name))")
        case nil: break
        }
        if let source = query.source {
            add("f.source = \(bind(source.rawValue))")
        }
        if let step = query.step {
            let number: Int
            switch step {
            case .number(let value): number = value
            case .key(let key): number = try ItemStore.step(key)
            }
            add("coalesce(f.step, (SELECT r.step FROM rules r WHERE r.id = f.rule)) = \(bind(number))::int")
        }
        if let file = query.file {
            // A range on the C-collated file (byte order), not a function of it: an index on it can answer.
            let (exact, directory) = FindingQuery.fileMatch(file)
            let under =
                "(f.file >= \(bind(directory)) AND f.file < \(bind(FindingQuery.upperBound(ofDirectory: directory))))"
            add(exact.map { "(f.file = \(bind($0)) OR \(under))" } ?? under)
        }
        if let run = query.newInRun {
            add("f.first_seen_run = (SELECT r.id FROM scan_runs r WHERE r.project_id = $1 AND r.number = \(bind(run)))")
        }
    }

    /// Refuses the names of `query` that `project` does not know, naming them all.
    private func check(_ query: FindingQuery, project: Project, on connection: PostgresConnection) throws {
        if let keys = query.screens?.filter({ $0 != AuditArea.unmapped }), !keys.isEmpty {
            let unknown = try connection.query(
                """
                SELECT k FROM unnest($2::text[]) WITH ORDINALITY AS w (k, i)
                WHERE NOT EXISTS (SELECT 1 FROM screens WHERE project_id = $1 AND key = k) ORDER BY i
                """,
                [project.id, keys]
            ).map { try $0.decode(at: 0, as: String.self) }
            if !unknown.isEmpty {
                throw try ScreenStore.notFound(
                    unknown, projectID: project.id, projectName: project.name, on: connection)
            }
        }
        if let rules = query.rules {
            let unknown = try connection.query(
                """
                SELECT r FROM unnest($2::text[]) WITH ORDINALITY AS w (r, i)
                WHERE NOT EXISTS (SELECT 1 FROM rules WHERE id = r)
                  AND NOT EXISTS (SELECT 1 FROM findings WHERE project_id = $1 AND rule = r)
                ORDER BY i
                """,
                [project.id, rules]
            ).map { try $0.decode(at: 0, as: String.self) }
            if !unknown.isEmpty {
                throw StoreError.notFound(
                    "no rule \(Self.quoted(unknown)): neither a known rule nor one of project '\(project.name)''s")
            }
        }
        if let run = query.newInRun,
            try connection.queryValue(
                "SELECT EXISTS (SELECT 1 FROM scan_runs WHERE project_id = $1 AND number = $2)", [project.id, run],
                as: Bool.self) != true
        {
            throw StoreError.notFound("no run \(run) in project '\(project.name)'")
        }
        if let owner = query.owner, !ScreenOwner.isNobody(owner),
            try connection.queryValue(
                "SELECT EXISTS (SELECT 1 FROM screens WHERE project_id = $1 AND owner = $2)", [project.id, owner],
                as: Bool.self) != true
        {
            throw StoreError.notFound(
                "no screen of project '\(project.name)' is owned by \(ValueExcerpt.quoted(owner))")
        }
    }

    /// The first few of `names`, each quoted short (ValueExcerpt), and how many more there are.
    private static func quoted(_ names: [String]) -> String {
        let shown = names.prefix(5).map(ValueExcerpt.quoted).joined(separator: ", ")
        return names.count > 5 ? shown + " and \(names.count - 5) more" : shown
    }
}
