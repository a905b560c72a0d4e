import BarkeepCore

/// Where a listing of findings stopped: the place of the last finding sent, in the listing's order (file, then line,
/// absent ones after the others, then the order they were created in), from which the next page goes on.
public struct FindingListPosition: Sendable, Equatable {
    /// The finding's file; nil for one without (an item).
    public var file: String?
    /// Its line; nil for one without (a project-level finding, an item).
    public var line: Int?
    /// Its row id, which orders findings of the same file and line.
    public var id: Int64

    /// The position of a finding with these values.
    public init(file: String?, line: Int?, id: Int64) {
        self.file = file
        self.line = line
        self.id = id
    }
}

extension Finding {
    /// The finding's place in a listing (`FindingStore.pages`).
    public var listPosition: FindingListPosition { FindingListPosition(file: file, line: line, id: id) }
}

extension FindingStore {
    /// The findings `query` selects in `projectName`, in `list`'s order, a page at a time from just after `position`
    /// (nil: from the first): one cursor in one transaction, so that a long listing is sorted once, and no more than
    /// a page of it is ever held. `page` is called with at most `pageSize` findings (with their gates) and whether
    /// they are the last; it returns false to stop, which ends the transaction without reading the rest. A listing
    /// resumed from a position in a later transaction goes on from there in the data as it is then. A screen, rule
    /// or owner the project does not know is `notFound`, before any page.
    public static func pages(
        project projectName: String,
        query: FindingQuery,
        after position: FindingListPosition?,
        pageSize: Int,
        on connection: PostgresConnection,
        _ page: ([Finding], _ isLast: Bool) throws -> Bool
    ) throws {
        try connection.transaction { connection in
            let project = try ProjectStore.require(projectName, on: connection)
            let selection = try FindingSelection(.query(query), project: project, on: connection)
            var parameters = selection.parameters
            var condition = selection.condition
            if let position {
                // The listing's order (file, line, id; NULLs last) as one row comparison without NULLs.
                let first = parameters.count + 1
                parameters += [position.file == nil, position.file ?? "", position.line == nil, position.line ?? 0]
                parameters.append(position.id)
                condition += """

                      AND (f.file IS NULL, coalesce(f.file, ''), f.line IS NULL, coalesce(f.line, 0), f.id)
                          > ($\(first)::boolean, $\(first + 1)::text COLLATE "C", $\(first + 2)::boolean,
                             $\(first + 3)::integer, $\(first + 4)::bigint)
                    """
            }
            try connection.forEachPage(
                """
                \(latest)
                SELECT \(columns) FROM \(from)
                WHERE \(condition)
                ORDER BY f.file, f.line, f.id
                """,
                parameters, pageSize: pageSize
            ) { rows, isLast in
                let findings = try SDKStore.withGates(rows.map(Finding.init(row:)), project: project, on: connection)
                return try page(findings, isLast)
            }
        }
    }
}

extension FindingStore {
    /// One page of the findings `query` selects in `projectName`, by number: at most `limit` of those numbered after
    /// `after` (nil: from the first), with `next`, the number to ask the following page after, when more follow
    /// (read as one row past the page). Keyset, not OFFSET: the project's `(project_id, number)` index gives the rows
    /// in order, so a page costs its own rows whatever the project's size. A screen, rule or owner the project does
    /// not know is `notFound`.
    public static func page(
        project projectName: String,
        query: FindingQuery,
        after: Int?,
        limit: Int,
        on connection: PostgresConnection
    ) throws -> (findings: [Finding], next: Int?) {
        try connection.transaction { connection in
            let project = try ProjectStore.require(projectName, on: connection)
            let selection = try FindingSelection(.query(query), project: project, on: connection)
            let first = selection.parameters.count + 1
            var rows = try connection.query(
                """
                \(latest)
                SELECT \(columns) FROM \(from)
                WHERE \(selection.condition)
                  AND f.number > $\(first)::integer
                ORDER BY f.number
                LIMIT $\(first + 1)::bigint
                """,
                selection.parameters + [after ?? 0, limit + 1]
            ).map(Finding.init(row:))
            let isCut = rows.count > limit
            if isCut { rows.removeLast() }
            let findings = try SDKStore.withGates(rows, project: project, on: connection)
            return (findings, isCut ? findings.last?.number : nil)
        }
    }
}
