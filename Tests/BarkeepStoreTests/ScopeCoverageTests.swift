import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Testing

/// A scan's scope is decided twice: by Core's `SyncPlanner.isInside` (which findings a scan may fix) and by the
/// schema's `barkeep_covers` (which run last saw a finding). The two must agree on every path, or a finding's last
/// run would name a run that could not have fixed it.
@Suite("Scope coverage: SyncPlanner.isInside and barkeep_covers")
struct ScopeCoverageTests {
    /// (scope, file, covered).
    static let table: [(scope: String, file: String, isCovered: Bool)] = [
        // The empty scope covers everything, even an empty path.
        ("", "Sources/Inbox.swift", true),
        ("", "", true),
        // A directory covers what is under it, and itself.
        ("Sources", "Sources/Inbox.swift", true),
        ("Sources", "Sources/Deep/Nested/View.swift", true),
        ("Sources", "Sources", true),
        // A prefix that stops inside a name is not a directory boundary.
        ("Sources", "SourcesExtra/View.swift", false),
        ("Sources/In", "Sources/Inbox.swift", false),
        ("Sources/Inbox", "Sources/Inbox.swift", false),
        // A file scope covers that file only.
        ("Sources/Inbox.swift", "Sources/Inbox.swift", true),
        ("Sources/Inbox.swift", "Sources/Inbox.swiftx", false),
        // A trailing slash is a raw prefix, and does not cover the directory's own name.
        ("Sources/", "Sources/Inbox.swift", true),
        ("Sources/", "Sources", false),
        ("Sources/", "SourcesExtra/View.swift", false),
        ("Sources//", "Sources/Inbox.swift", false),
        ("/", "/abs/path.swift", true),
        ("/", "relative.swift", false),
        // Case matters.
        ("sources", "Sources/Inbox.swift", false),
        // Elsewhere, or a parent of the scope.
        ("Tests", "Sources/Inbox.swift", false),
        ("Sources/Inbox", "Sources", false),
        // Unicode: compared byte for byte, so a precomposed and a decomposed name differ, and a combining mark
        // after the separator does not hide the boundary.
        ("Écrans", "Écrans/Accueil.swift", true),
        ("Écrans", "Écrans-vieux/Accueil.swift", false),
        ("Écrans", "E\u{301}crans/Accueil.swift", false),
        ("E\u{301}crans", "Écrans/Accueil.swift", false),
        ("Sources/Cafe", "Sources/Cafe\u{301}/View.swift", false),
        ("Sources/Cafe\u{301}", "Sources/Cafe\u{301}/View.swift", true),
        ("Sources", "Sources/\u{301}View.swift", true),
        ("画面", "画面/一覧.swift", true),
        ("画面", "画面一覧.swift", false),
        ("🐶", "🐶/Bark.swift", true),
        ("🐶", "🐶🐶/Bark.swift", false),
    ]

    @Test("both sides agree with the table on the real PostgreSQL")
    func agreement() throws {
        let connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        let rows = try connection.query(
            """
            SELECT barkeep_covers(t.scope, t.file) AS covered FROM unnest($1::text[], $2::text[])
            WITH ORDINALITY AS t(scope, file, position) ORDER BY t.position
            """,
            [Self.table.map(\.scope), Self.table.map(\.file)]
        )
        let covered = try rows.map { try $0.decode("covered", as: Bool.self) }
        try #require(covered.count == Self.table.count)
        for (index, row) in Self.table.enumerated() {
            let context = Comment(rawValue: "scope \(row.scope.debugDescription), file \(row.file.debugDescription)")
            #expect(SyncPlanner.isInside(row.file, scope: row.scope) == row.isCovered, context)
            #expect(covered[index] == row.isCovered, context)
        }
    }
}
