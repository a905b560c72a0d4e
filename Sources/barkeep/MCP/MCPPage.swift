import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// A page of a list of screens a tool answers: at most `limit` rows from row `offset` (0 the first), so that a
/// project of hundreds of screens does not come back whole in one call. The reply says how many rows there are in
/// all and the `offset` of the next page.
struct MCPPage {
    /// The rows a page holds unless the call says `limit`: about 12 KB of `project_status` on a real app.
    static let defaultLimit = 25

    /// The most rows a page may hold.
    static let maximumLimit = 500

    /// The first row of the page (0: the first of all).
    let offset: Int
    /// At most this many rows.
    let limit: Int

    /// A page of `limit` rows from `offset`.
    init(offset: Int, limit: Int) {
        self.offset = offset
        self.limit = limit
    }

    /// What a tool that answers a page of screens takes besides its requests' fields: `offset`, `limit` and a
    /// `screens` glob (Core's KeyGlob), declared as fields so that the schema and the checks come from them.
    struct Arguments {
        /// The first row asked for; nil: 0.
        var offset: Int?
        /// At most this many rows; nil: the tool's default.
        var limit: Int?
        /// Only the screens whose key the glob matches.
        var screens: KeyGlob?

        /// No page asked for, filled by decoding.
        init() {}

        /// The page asked for, `defaultLimit` rows unless `limit` says.
        func page(defaultLimit: Int = MCPPage.defaultLimit) -> MCPPage {
            MCPPage(offset: offset ?? 0, limit: limit ?? defaultLimit)
        }

        /// The fields, for rows that are `rows` (`screen rows`).
        static func fields(_ rows: String, defaultLimit: Int = MCPPage.defaultLimit) -> [Field<Arguments>] {
            [
                Field(
                    "offset", \.offset,
                    "Skip this many \(rows) (default 0); the reply's page.next_offset is the next page's.",
                    check: { $0 < 0 ? ValueProblem(predicate: "must be 0 or more") : nil }
                ).withSchema(.integer(minimum: 0)),
                Field(
                    "limit", \.limit, "At most this many \(rows), after the order (default \(defaultLimit)).",
                    check: {
                        (1...maximumLimit).contains($0) ? nil : ValueProblem(predicate: "must be 1 to \(maximumLimit)")
                    }
                ).withSchema(.integer(minimum: 1, maximum: maximumLimit)),
                Field("screens", \.screens, "Only the screens whose key matches this glob (* and ?)."),
            ]
        }
    }

    /// The row after the page's last.
    var end: Int { offset + limit }

    /// The rows of `rows` (the page and what comes after it) on the page.
    func rows<Row>(of rows: [Row]) -> ArraySlice<Row> {
        rows.dropFirst(offset).prefix(limit)
    }

    /// The offset of the page after this one when there are `total` rows in all; nil after the last.
    func nextOffset(total: Int) -> Int? { end < total ? end : nil }

    /// `{"offset": 25, "limit": 25, "total": 150, "next_offset": 50}` (next_offset null after the last page).
    func json(total: Int) -> [String: Any] {
        [
            "offset": offset, "limit": limit, "total": total,
            "next_offset": nextOffset(total: total).map { $0 as Any } ?? NSNull(),
        ]
    }

    /// The schema of `json`.
    static var schema: [String: Any] {
        MCPSchema.object(
            [
                "offset": MCPSchema.integer("The first row of this page (0: the first)."),
                "limit": MCPSchema.integer("At most this many rows a page."),
                "total": MCPSchema.integer("How many rows there are in all, with the filters."),
                "next_offset": MCPSchema.types("integer", "null"),
            ], required: ["offset", "limit", "total", "next_offset"],
            description: "Which rows this reply holds; call again with offset: next_offset for the next page.")
    }

    /// `Screen rows 26 to 50 of 150; the next page is offset 50.`, or `3 screen rows in all, on this page.`: `row`
    /// names one row.
    func sentence(_ row: String, shown: Int, total: Int) -> String {
        if offset == 0 && shown == total { return "\(Output.count(total, row)) in all, on this page." }
        let rows = row.prefix(1).uppercased() + row.dropFirst() + "s"
        guard shown > 0 else { return "\(rows): none from offset \(offset) (\(total) in all)." }
        let next = nextOffset(total: total).map { "; the next page is offset \($0)" } ?? " (the last page)"
        return "\(rows) \(offset + 1) to \(offset + shown) of \(total)\(next)."
    }
}
