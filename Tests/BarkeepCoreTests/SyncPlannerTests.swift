import BarkeepCore
import Testing

/// The pure sync rules, without a database.
@Suite("SyncPlanner")
struct SyncPlannerTests {
    private func scan(_ items: [(String, Int, String)], rule: String = "DUO001") -> [IdentifiedFinding] {
        FindingIdentity.identify(
            items.map { ScanFinding(rule: rule, severity: "high", file: $0.0, line: $0.1, snippet: $0.2) },
            tool: "duo_scan"
        )
    }

    private func stored(_ finding: IdentifiedFinding, id: Int64, status: FindingStatus) -> StoredFinding {
        StoredFinding(
            id: id,
            identity: finding.identity,
            status: status,
            line: finding.finding.line,
            file: finding.finding.file
        )
    }

    @Test("white space does not change identity; the line never does; the occurrence does")
    func identity() {
        let a = scan([("A.swift", 1, "let x = UIScreen.main"), ("A.swift", 9, "let  x=UIScreen.main")])
        #expect(a[0].normalizedSnippet == "letx=UIScreen.main")
        #expect(a.map(\.occurrence) == [0, 1])
        #expect(a[0].identity != a[1].identity)
        let moved = scan([("A.swift", 40, "  let x = UIScreen.main")])
        #expect(moved[0].identity == a[0].identity)
    }

    @Test("a unit separator inside a part cannot merge two findings; ordinary parts are hashed as they are")
    func separatorInsideParts() {
        let plain = FindingIdentity.digest(tool: "t", rule: "r", file: "f", normalizedSnippet: "s", occurrence: 0)
        #expect(plain == SHA256.hexDigest(of: "t\u{1F}r\u{1F}f\u{1F}s\u{1F}0".utf8))
        let parts = [("a\u{1F}b", "c"), ("a", "b\u{1F}c"), ("a\u{1B}/b", "c"), ("a\u{1B}", "\u{1F}b\u{1F}c")]
        let digests = parts.map {
            FindingIdentity.digest(tool: "t", rule: $0.0, file: $0.1, normalizedSnippet: "s", occurrence: 0)
        }
        #expect(Set(digests).count == parts.count)
        let both = FindingIdentity.identify(
            parts.map { ScanFinding(rule: $0.0, severity: "low", file: $0.1, line: 1, snippet: "s") }, tool: "t")
        #expect(SyncPlanner.plan(scan: both, stored: []).counts.new == parts.count)
    }

    @Test(
        "each status when the finding is present again and when it is gone",
        arguments: [
            (FindingStatus.proposed, "unchanged", "fixed"), (.approved, "unchanged", "fixed"),
            (.applied, "unchanged", "fixed"), (.verified, "unchanged", "fixed"), (.blocked, "unchanged", "fixed"),
            (.declined, "unchanged", "nothing"), (.kept, "unchanged", "nothing"),
            (.falsePositive, "unchanged", "nothing"), (.fixed, "reopened", "nothing"),
        ]
    )
    func transitions(status: FindingStatus, whenPresent: String, whenGone: String) {
        let item = scan([("A.swift", 3, "x")])[0]
        let present = SyncPlanner.plan(scan: [item], stored: [stored(item, id: 1, status: status)])
        let outcome =
            present.counts.reopened == 1 ? "reopened" : present.counts.unchanged == 1 ? "unchanged" : "other"
        #expect(outcome == whenPresent)
        let gone = SyncPlanner.plan(scan: [], stored: [stored(item, id: 1, status: status)])
        #expect((gone.counts.fixed == 1 ? "fixed" : "nothing") == whenGone)
    }

    @Test(
        "scopes match at path-component boundaries",
        arguments: [
            ("Sources/Inbox/List.swift", "Sources/Inbox", true), ("Sources/InboxView.swift", "Sources/Inbox", false),
            ("Sources/InboxView.swift", "Sources/Inbox", false), ("Sources/InboxView.swift", "Sources/In", false),
            ("Sources/InboxView.swift", "Sources/Inbox", false), ("Sources/InboxView.swift", "Sources/", true),
            ("Sources/Inbox", "Sources/Inbox", true), ("Other/A.swift", "", true),
        ])
    func scope(file: String, scope: String, isInside: Bool) {
        #expect(SyncPlanner.isInside(file, scope: scope) == isInside)
    }

    @Test(
        "globs",
        arguments: [
            ("Sources/Inbox/**", "Sources/Inbox/List/Row.swift", true),
            ("Sources/Inbox/*", "Sources/Inbox/A.swift", true),
            ("Sources/Inbox/*", "Sources/Inbox/List/Row.swift", false),
            ("**/Inbox*.swift", "Sources/InboxView.swift", true),
            ("**/Inbox*.swift", "InboxView.swift", true), ("Sources/?.swift", "Sources/A.swift", true),
            ("Sources/?.swift", "Sources/AB.swift", false), ("Sources/A.swift", "Sources/A.swift", true),
            ("**/Inbox*.swift", "Sources/MyInboxView.swift", false),
            ("Sources/**/List.swift", "Sources/Inbox/TodoList.swift", false),
            ("Sources/**/List.swift", "Sources/List.swift", true),
            ("Sources/**/List.swift", "Sources/A/B/List.swift", true),
            ("**/Inbox/*", "Sources/OldInbox/A.swift", false), ("**/Inbox/*", "Sources/Inbox/A.swift", true),
        ])
    func globs(pattern: String, path: String, matches: Bool) {
        #expect(PathGlob(pattern).matches(path) == matches)
    }

    @Test("the most specific glob owns a file; no glob, no screen")
    func attribution() {
        let screens = ScreenAttribution([
            (1, "Sources/**"), (2, "Sources/Inbox/**"), (3, "Sources/Inbox/Compose*.swift"),
        ])
        #expect(screens.screen(for: "Sources/Inbox/ComposeView.swift") == 3)
        #expect(screens.screen(for: "Sources/Inbox/List.swift") == 2)
        #expect(screens.screen(for: "Sources/Settings.swift") == 1)
        #expect(screens.screen(for: "Tests/A.swift") == nil)
    }

    @Test("SARIF: pass results are not findings; a failed tool run is refused")
    func sarifKinds() throws {
        func document(_ result: String, success: Bool = true) -> [UInt8] {
            Array(
                """
                {"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},
                "invocations":[{"executionSuccessful":\(success)}],"results":[\(result)]}]}
                """.utf8
            )
        }
        let pass = #"{"ruleId":"R","kind":"pass","message":{"text":"ok"}}"#
        #expect(try SARIFParser.parse(document(pass)).findings.isEmpty)
        #expect(throws: CoreError.self) { try SARIFParser.parse(document("", success: false)) }
    }
}
