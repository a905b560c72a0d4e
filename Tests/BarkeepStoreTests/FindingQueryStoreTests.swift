import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// The filter language's SQL against a real database, and what uses it: bulk status changes, assignment, comments.
@Suite("Finding queries and bulk triage")
struct FindingQueryStoreTests {
    let connection: PostgresConnection

    /// The scan's findings; tests name them by their place here, 1 to 7 (and the item 8), whatever their numbers.
    static let scan: [(rule: String, severity: String, file: String, line: Int)] = [
        ("DUO003", "medium", "Sources/Inbox/List.swift", 3),
        ("DUO007", "medium", "Sources/Inbox/List.swift", 7),
        ("DUO003", "low", "Sources/Inbox/Row.swift", 2),
        ("DUO001", "high", "Sources/Settings/Main.swift", 1),
        ("DUO003", "critical", "Sources/Settings/Main.swift", 5),
        ("DUO013", "info", "Sources/Other.swift", 1),
        ("DUO003", "low", "Sources/Lonely/Cell.swift", 4),
    ]

    /// A project `app` with the scan above; screens Inbox (ana's; uses the component Row) and Settings (sam's),
    /// a component Cell used by none, and one item on Inbox (number 8, step 5).
    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        let findings = Self.scan.map { finding in
            #"{"rule":"\#(finding.rule)","severity":"\#(finding.severity)","file":"\#(finding.file)","#
                + #""line":\#(finding.line),"snippet":"code \#(finding.line) \#(finding.file)"}"#
        }
        let bytes = Array(#"{"tool":"duo_scan","findings":[\#(findings.joined(separator: ","))]}"#.utf8)
        _ = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: bytes), format: .duoScan, project: "app", actor: "ci"),
            scan: try DuoScanParser.parse(bytes), on: connection)
        for (key, kind, owner, glob) in [
            ("Inbox", ScreenKind.screen, "ana", "Sources/Inbox/List.swift"),
            ("Row", .component, nil, "Sources/Inbox/Row.swift"), ("Settings", .screen, "sam", "Sources/Settings/**"),
            ("Cell", .component, "ana", "Sources/Lonely/**"),
        ] {
            _ = try ScreenStore.add(
                project: "app", key: key, kind: kind, title: nil, owner: owner, paths: [glob], actor: "ana",
                on: connection)
        }
        _ = try ScreenStore.setUses(
            project: "app", screen: "Inbox", component: "Row", isRemoving: false, actor: "ana", on: connection)
        _ = try ItemStore.add(
            NewItem(screen: "Inbox", step: 5, title: "Follow the axis"), to: "app", actor: "ana", on: connection)
    }

    /// The place in `scan` (1 to 7; the item 8) of `finding`.
    static func place(_ finding: Finding) -> Int {
        (scan.firstIndex { $0.file == finding.file && $0.line == finding.line } ?? 7) + 1
    }

    /// The number of the finding at `place`.
    func number(_ place: Int) throws -> Int {
        let all = try FindingStore.list(project: "app", query: FindingQuery(), on: connection)
        return try #require(all.first { Self.place($0) == place }).number
    }

    /// The places of the findings `keywords` select, parsed by Core as the server parses them.
    func numbers(_ keywords: [(key: String, value: String)]) throws -> [Int] {
        try FindingStore.list(project: "app", query: FindingQuery.parse(keywords: keywords), on: connection)
            .map(Self.place).sorted()
    }

    /// The store's selector of the findings at `places`.
    func selector(_ places: [Int]) throws -> FindingSelector {
        .numbers(try places.map(number))
    }

    @Test(
        "each filter and some combinations select what they say",
        arguments: [
            ([], [1, 2, 3, 4, 5, 6, 7, 8]),
            ([("rule", "DUO003")], [1, 3, 5, 7]),
            ([("rule", "DUO003,DUO001")], [1, 3, 4, 5, 7]),
            ([("severity", "low,critical")], [3, 5, 7]),
            // A screen counts the findings of the components it uses.
            ([("screen", "Inbox")], [1, 2, 3, 8]),
            ([("screen", "Row")], [3]),
            ([("screen", "Settings,Inbox")], [1, 2, 3, 4, 5, 8]),
            // Unmapped: no screen's, and the findings of components used by none.
            ([("screen", "unmapped")], [6, 7]),
            ([("screen", "unmapped,Settings")], [4, 5, 6, 7]),
            ([("owner", "ana")], [1, 2, 3, 7, 8]),
            ([("owner", "sam")], [4, 5]),
            ([("source", "manual")], [8]),
            ([("source", "scanner"), ("screen", "Inbox")], [1, 2, 3]),
            ([("step", "5")], [8]),
            ([("step", "axis")], [8]),
            ([("file", "Sources/Inbox/")], [1, 2, 3]),
            ([("file", "Sources/Inbox/List.swift")], [1, 2]),
            // A path without a trailing slash: the file, and the files under it as a directory.
            ([("file", "Sources/Inbox")], [1, 2, 3]),
            ([("file", "Sources")], [1, 2, 3, 4, 5, 6, 7]),
            ([("file", "Sources/In")], []),
            ([("file", "sources/inbox")], []),
            // No screen (not component or area) is unowned here: nobody's findings are none, not NOTFOUND.
            ([("owner", "nobody")], []),
            // The scan's findings are all new in run 1; the item has no run.
            ([("new-in", "1")], [1, 2, 3, 4, 5, 6, 7]),
            ([("assignee", "none")], [1, 2, 3, 4, 5, 6, 7, 8]),
            ([("assignee", "ana")], []),
            ([("blocked", "yes")], []),
            ([("blocked", "no"), ("severity", "medium")], [1, 2, 8]),
            ([("status", "fixed")], []),
            ([("rule", "DUO003"), ("severity", "low"), ("owner", "ana")], [3, 7]),
        ] as [([(key: String, value: String)], [Int])])
    func filters(_ keywords: [(key: String, value: String)], _ expected: [Int]) throws {
        #expect(try numbers(keywords) == expected, "\(keywords)")
    }

    @Test("an unknown screen, rule, owner or number is NOTFOUND, an unknown step key invalid, never an empty list")
    func unknownNames() throws {
        for (keywords, message) in [
            ([("screen", "Inbox,Nope,Gone")], "no screen 'Nope', 'Gone' in project 'app'"),
            ([("rule", "DUO003,DUO999")], "no rule 'DUO999': neither a known rule nor one of project 'app''s"),
            ([("owner", "zoe")], "no screen of project 'app' is owned by 'zoe'"),
            ([("screen", "inbox")], "no screen 'inbox' in project 'app' (did you mean 'Inbox'?)"),
            ([("new-in", "2")], "no run 2 in project 'app'"),
            ([("screen", "Setings")], "no screen 'Setings' in project 'app' (did you mean 'Settings'?)"),
        ] {
            #expect(throws: StoreError.notFound(message)) { try numbers(keywords) }
        }
        // A rule of the reference data that the project has no finding of is known: an empty list.
        #expect(try numbers([("rule", "DUO021")]) == [])
        #expect(throws: StoreError.self) { try numbers([("step", "sideways")]) }
        #expect(throws: StoreError.notFound("no finding 9, 11 in project 'app'")) {
            try FindingStore.setStatus(
                project: "app", of: .numbers([1, 9, 11]), to: .approved, reason: nil, role: .writer, actor: "ana",
                isDryRun: true, on: connection)
        }
    }

    @Test("file= without a slash is the file and the files under it, byte for byte; owner=nobody the unowned screens'")
    func filesAndNobody() throws {
        _ = try ProjectStore.create(name: "edge", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        let files = [
            "Tests", "Tests/A.swift", "Tests.swift", "Tests0/B.swift", "TestsX/C.swift", "tests/D.swift",
            "Tests/\u{E9}/E.swift", "Tests-/F.swift", "Shared/G.swift",
        ]
        let findings = files.enumerated().map { index, file in
            #"{"rule":"DUO003","severity":"low","file":"\#(file)","line":\#(index + 1),"snippet":"s\#(index)"}"#
        }
        let bytes = Array(#"{"tool":"duo_scan","findings":[\#(findings.joined(separator: ","))]}"#.utf8)
        _ = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: bytes), format: .duoScan, project: "edge", actor: "ci"),
            scan: try DuoScanParser.parse(bytes), on: connection)
        for (key, kind, owner, glob) in [
            ("TestsScreen", ScreenKind.screen, nil, "Tests/**"), ("Other", .screen, "ana", "tests/**"),
            ("Shared", .component, nil, "Shared/**"), ("Loose", .component, nil, "Tests0/**"),
        ] as [(String, ScreenKind, String?, String)] {
            _ = try ScreenStore.add(
                project: "edge", key: key, kind: kind, title: nil, owner: owner, paths: [glob], actor: "ana",
                on: connection)
        }
        _ = try ScreenStore.setUses(
            project: "edge", screen: "TestsScreen", component: "Shared", isRemoving: false, actor: "ana",
            on: connection)
        func selected(_ keywords: [(key: String, value: String)]) throws -> [String] {
            try FindingStore.list(project: "edge", query: FindingQuery.parse(keywords: keywords), on: connection)
                .compactMap(\.file).sorted()
        }
        #expect(try selected([("file", "Tests")]) == ["Tests", "Tests/A.swift", "Tests/\u{E9}/E.swift"])
        #expect(try selected([("file", "Tests/")]) == ["Tests/A.swift", "Tests/\u{E9}/E.swift"])
        #expect(try selected([("file", "Tests/A.swift")]) == ["Tests/A.swift"])
        #expect(try selected([("file", "Tests.swift")]) == ["Tests.swift"])
        // The screens nobody owns and the components they use; not an unused unowned component (unmapped).
        #expect(try selected([("owner", "nobody")]) == ["Shared/G.swift", "Tests/A.swift", "Tests/\u{E9}/E.swift"])
        #expect(try selected([("owner", "NOBODY")]) == ["Shared/G.swift", "Tests/A.swift", "Tests/\u{E9}/E.swift"])
        #expect(try selected([("owner", "ana")]) == ["tests/D.swift"])
    }

    @Test("bulk set: a dry run changes nothing; then every finding changes in one go, an event each; refusals stay")
    func bulkSet() throws {
        let inbox = FindingQuery(statuses: FindingQuery.defaultStatuses, screens: ["Inbox"])
        // Finding 2 approved first: its event says so.
        _ = try FindingStore.setStatus(
            project: "app", number: try number(2), to: .approved, reason: nil, role: .writer, actor: "ana",
            on: connection)
        let before = try EventLog.head(on: connection)

        let dry = try FindingStore.setStatus(
            project: "app", of: .query(inbox), to: .applied, reason: nil, role: .writer, actor: "ana", isDryRun: true,
            on: connection)
        #expect(dry.isDryRun && dry.count(.wouldChange) == 4 && dry.count(.changed) == 0)
        #expect(try EventLog.head(on: connection) == before)
        #expect(try numbers([("status", "applied")]) == [])

        let done = try FindingStore.setStatus(
            project: "app", of: .query(inbox), to: .applied, reason: nil, role: .writer, actor: "ana",
            isDryRun: false, on: connection)
        #expect(done.count(.changed) == 4)
        #expect(done.changes.allSatisfy { $0.finding.status == .applied })
        #expect(done.changes.first { Self.place($0.finding) == 2 }?.from == "approved")
        #expect(try numbers([("status", "applied")]) == [1, 2, 3, 8])
        let events = try EventLog.events(after: before, limit: 100, on: connection)
        #expect(events.map(\.kind) == Array(repeating: "finding.status", count: 4))
        #expect(events.allSatisfy { $0.to == "applied" && $0.actor == "ana" })

        // Again: unchanged. Verified needs applied first: the proposed ones are refused and left alone.
        let again = try FindingStore.setStatus(
            project: "app", of: try selector([1, 2]), to: .applied, reason: nil, role: .writer, actor: "ana",
            isDryRun: false, on: connection)
        #expect(again.count(.unchanged) == 2)
        let verified = try FindingStore.setStatus(
            project: "app", of: try selector([1, 4, 5]), to: .verified, reason: nil, role: .writer, actor: "ana",
            isDryRun: false, on: connection)
        #expect(verified.count(.changed) == 1 && verified.count(.refused) == 2)
        #expect(verified.changes.filter { $0.outcome == .refused }.map { Self.place($0.finding) } == [4, 5])
        #expect(verified.changes.compactMap(\.refusal).allSatisfy { $0.kind == .conflict })
        #expect(try numbers([("status", "proposed"), ("screen", "Settings")]) == [4, 5])
    }

    @Test("assign: to a name and back to no one, an event each with from and to; unchanged when already so")
    func assign() throws {
        let before = try EventLog.head(on: connection)
        let dry = try FindingStore.assign(
            project: "app", of: .query(FindingQuery(rules: ["DUO003"])), to: "ana", actor: "sam", isDryRun: true,
            on: connection)
        #expect(dry.count(.wouldChange) == 4)
        #expect(try numbers([("assignee", "ana")]) == [])
        let done = try FindingStore.assign(
            project: "app", of: .query(FindingQuery(rules: ["DUO003"])), to: "ana", actor: "sam", isDryRun: false,
            on: connection)
        #expect(done.count(.changed) == 4 && done.changes.allSatisfy { $0.finding.assignee == "ana" })
        #expect(try numbers([("assignee", "ana")]) == [1, 3, 5, 7])
        #expect(try numbers([("assignee", "none")]) == [2, 4, 6, 8])
        let back = try FindingStore.assign(
            project: "app", of: try selector([1, 2]), to: nil, actor: "sam", isDryRun: false, on: connection)
        #expect(back.count(.changed) == 1 && back.count(.unchanged) == 1)
        let events = try EventLog.events(after: before, limit: 100, on: connection)
        #expect(events.map(\.kind) == Array(repeating: EventKind.findingAssigned.rawValue, count: 5))
        #expect(events.last.map { [$0.from, $0.to] } == ["ana", nil])
        #expect(events.first.map { [$0.from, $0.to] } == [nil, "ana"])
        #expect(throws: StoreError.invalid(Assignee.rule(for: "none"))) {
            try FindingStore.assign(
                project: "app", of: try selector([1]), to: "none", actor: "sam", isDryRun: false, on: connection)
        }
    }

    @Test("comment: an event in the finding's history, the finding unchanged; bounded; unknown finding NOTFOUND")
    func comment() throws {
        let event = try FindingStore.comment(
            project: "app", number: try number(3), text: "Row is shared: fix it once", actor: "token:ana",
            on: connection)
        #expect(event.kind == EventKind.findingComment.rawValue && event.reason == "Row is shared: fix it once")
        #expect(event.subject == "DUO003:Sources/Inbox/Row.swift:2")
        let (finding, history) = try FindingStore.show(project: "app", number: try number(3), on: connection)
        #expect(finding.status == .proposed && history.last?.reason == "Row is shared: fix it once")
        #expect(throws: StoreError.self) {
            try FindingStore.comment(
                project: "app", number: try number(3), text: String(repeating: "x", count: 4097), actor: "a",
                on: connection)
        }
        #expect(throws: StoreError.notFound("no finding 99 in project 'app'")) {
            try FindingStore.comment(project: "app", number: 99, text: "hi", actor: "a", on: connection)
        }
    }

    @Test("the schema's assignee check is Core's rule")
    func assigneeColumn() throws {
        for name in [
            "ana", "ci@github", "a.b_c-d", "none", "NONE", "ana maría", "_x", String(repeating: "a", count: 65),
        ] {
            let stored = Result {
                try connection.query("UPDATE findings SET assignee = $1 WHERE number = 1", [name])
            }
            #expect(((try? stored.get()) != nil) == Assignee.isValid(name), "\(name)")
        }
    }
}
