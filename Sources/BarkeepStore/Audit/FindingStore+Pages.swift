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
