import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Testing

/// `FindingStore.pages`: a listing read a page at a time through one cursor, and resumed from any position, is the
/// listing `FindingStore.list` gives, in its order (file in byte order, line, absent ones last, then creation).
@Suite("Finding pages")
struct FindingPagesTests {
    let connection: PostgresConnection

    /// A project `app` whose findings share files and lines (two rules on one line), differ only in case (`a.swift`
    /// sorts after `B.swift` in byte order), and include items without file or line.
    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        let places = [
            ("DUO003", "a.swift", 2), ("DUO001", "B.swift", 9), ("DUO003", "a.swift", 1), ("DUO007", "a.swift", 1),
            ("DUO013", "B.swift", 1), ("DUO003", "Z/c.swift", 4), ("DUO001", "a.swift", 1),
        ]
        let findings = places.map { rule, file, line in
            #"{"rule":"\#(rule)","severity":"low","file":"\#(file)","line":\#(line),"snippet":"s \#(rule)"}"#
        }
        let bytes = Array(#"{"tool":"duo_scan","findings":[\#(findings.joined(separator: ","))]}"#.utf8)
        _ = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: bytes), format: .duoScan, project: "app", actor: "ci"),
            scan: try DuoScanParser.parse(bytes), on: connection)
        _ = try ScreenStore.add(
            project: "app", key: "Inbox", kind: .screen, title: nil, owner: nil, paths: ["a.swift"], actor: "ana",
            on: connection)
        for title in ["First item", "Second item"] {
            _ = try ItemStore.add(
                NewItem(screen: "Inbox", step: 5, title: title), to: "app", actor: "ana", on: connection)
        }
    }

    /// Every page of the listing of `query` after `position`, `size` findings a page, read to the end.
    func pages(_ query: FindingQuery, after position: FindingListPosition?, size: Int) throws -> [[Finding]] {
        var pages: [[Finding]] = []
        try FindingStore.pages(project: "app", query: query, after: position, pageSize: size, on: connection) {
            page, isLast in
            #expect(page.count <= size && (isLast || page.count == size))
            pages.append(page)
            return true
        }
        return pages
    }

    @Test("read a page at a time, from the start and from every position, the listing is list's", arguments: [1, 2, 4])
    func pagesAreTheListing(size: Int) throws {
        for query in [FindingQuery(), FindingQuery(source: .scanner), FindingQuery(screens: ["Inbox"])] {
            let listing = try FindingStore.list(project: "app", query: query, on: connection)
            #expect(listing.count > 2)
            #expect(try pages(query, after: nil, size: size).joined().map(\.number) == listing.map(\.number))
            for index in listing.indices {
                let rest = try pages(query, after: listing[index].listPosition, size: size).joined()
                #expect(rest.map(\.number) == listing[(index + 1)...].map(\.number))
            }
        }
        // The items, without file or line, come last.
        let listing = try FindingStore.list(project: "app", query: FindingQuery(), on: connection)
        #expect(listing.suffix(2).allSatisfy { $0.file == nil && $0.line == nil })
        #expect(listing.first?.file == "B.swift")
    }

    @Test("a page's reader stops the listing by returning false; an unknown screen is not found before any page")
    func stopping() throws {
        var seen = 0
        try FindingStore.pages(project: "app", query: FindingQuery(), after: nil, pageSize: 2, on: connection) { _, _ in
            seen += 1
            return false
        }
        #expect(seen == 1 && !connection.isInTransaction)
        #expect(throws: StoreError.self) {
            try FindingStore.pages(
                project: "app", query: FindingQuery(screens: ["Nope"]), after: nil, pageSize: 2, on: connection
            ) { _, _ in
                Issue.record("a page of an unknown screen")
                return true
            }
        }
    }
}
