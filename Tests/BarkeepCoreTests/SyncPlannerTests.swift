import BarkeepCore
import BarkeepHashing
import BarkeepTestSupport
import Testing

/// The pure sync rules, without a database.
@Suite("SyncPlanner")
struct SyncPlannerTests {
    private func scan(_ items: [(String, Int, String)], rule: String = "DUO001") -> [IdentifiedFinding] {
        FindingIdentity.identify(
            items.map { ScanFinding(rule: rule, severity: "high", file: $0.0, line: $0.1, snippet: $0.2) },
            tool: "duo_scan", hasher: LibcryptoHasher()
        )
    }

    private func stored(_ finding: IdentifiedFinding, id: Int64, status: FindingStatus) -> StoredFinding {
        StoredFinding(
            id: id,
            identity: finding.identity,
            rule: finding.finding.rule,
            status: status,
            line: finding.finding.line,
            file: finding.finding.file
        )
    }

    @Test(
        "pass 1 over the findings not fixed, then the fixed ones looked up for the unmatched (reopen), is one pass over all",
        arguments: [1, 2, 3, 4, 5])
    func reopenAfterMatch(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let statuses = FindingStatus.allCases
        // 300 stored findings in every status, a third of them fixed; a scan keeping some, moving some, adding some.
        let previous = scan((0..<300).map { ("F\($0 % 7).swift", $0, "let v\($0) = UIScreen.main") })
        let findings = previous.enumerated().map { position, finding in
            stored(
                finding, id: Int64(position + 1),
                status: position % 3 == 0 ? .fixed : statuses[Int.random(in: 0..<statuses.count, using: &random)])
        }
        let kept = previous.enumerated().compactMap { position, finding -> (String, Int, String)? in
            guard Int.random(in: 0..<4, using: &random) != 0 else { return nil }
            let shift = Int.random(in: 0..<5, using: &random) == 0 ? 2 : 0
            return (finding.finding.file, position + shift, finding.finding.snippet)
        }
        let scanned = scan(
            kept + (0..<40).map { ("N\($0 % 3).swift", $0, "let n\($0) = UIScreen.main") }.shuffled(using: &random))
        let sightings = findings.map(StoredSighting.init)
        let whole = SyncPlanner.match(scan: scanned, stored: sightings)

        let open = sightings.filter { $0.status != .fixed }
        let fixed = sightings.filter { $0.status == .fixed }
        var split = SyncPlanner.match(scan: scanned, stored: open)
        SyncPlanner.reopen(&split, fixed: fixed, positionsFrom: open.count, in: scanned)
        #expect(split.plan.counts.reopened > 0)
        #expect(split.plan.counts == whole.plan.counts)
        #expect(split.plan.new == whole.plan.new)
        #expect(split.plan.verifiedReported == whole.plan.verifiedReported)
        // The same matches in the same order; positions differ (the lists differ), the rows they name do not.
        let all = open + fixed
        func rows(_ matches: [SyncPlan.Match]) -> [String] {
            matches.map { "\($0.id) \($0.index) \($0.isMoved) \($0.isReopened)" }
        }
        #expect(rows(split.plan.matches) == rows(whole.plan.matches))
        #expect(split.plan.matches.allSatisfy { all[$0.position].id == $0.id })
        #expect(split.unseen.map { open[$0].id } == whole.unseen.map { sightings[$0].id })
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
        let plain = FindingIdentity.digest(
            tool: "t", rule: "r", file: "f", normalizedSnippet: "s", occurrence: 0, hasher: LibcryptoHasher())
        #expect(plain == SHA256Digest.hex(of: "t\u{1F}r\u{1F}f\u{1F}s\u{1F}0".utf8))
        let parts = [("a\u{1F}b", "c"), ("a", "b\u{1F}c"), ("a\u{1B}/b", "c"), ("a\u{1B}", "\u{1F}b\u{1F}c")]
        let digests = parts.map {
            FindingIdentity.digest(
                tool: "t", rule: $0.0, file: $0.1, normalizedSnippet: "s", occurrence: 0, hasher: LibcryptoHasher())
        }
        #expect(Set(digests).count == parts.count)
        let both = FindingIdentity.identify(
            parts.map { ScanFinding(rule: $0.0, severity: "low", file: $0.1, line: 1, snippet: "s") }, tool: "t",
            hasher: LibcryptoHasher())
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

    @Test("a verified finding the scan reports, seen, moved or edited in place, is listed as still reported")
    func verifiedReported() {
        let items = scan([("A.swift", 3, "a"), ("A.swift", 5, "b"), ("A.swift", 9, "c"), ("A.swift", 20, "d")])
        let stored = [
            stored(items[0], id: 1, status: .verified), stored(items[1], id: 2, status: .verified),
            stored(items[2], id: 3, status: .approved), stored(items[3], id: 4, status: .verified),
        ]
        // 1 is seen where it was, 2 moved, 3 (approved) seen, 4 gone: fixed, not reported.
        let moved = scan([("A.swift", 3, "a"), ("A.swift", 7, "b"), ("A.swift", 9, "c")])
        let plan = SyncPlanner.plan(scan: moved, stored: stored)
        #expect(plan.verifiedReported == [1, 2])
        #expect(plan.fixed.map(\.id) == [4])
        // Edited in place (pass 2): still reported.
        let (changed, _, _) = replan(
            previous: [(10, "if idiom == .pad {")], status: .verified, scanned: [edit(11, "if idiom == .pad || x {")])
        #expect(changed.counts.changed == 1 && changed.verifiedReported == [1])
        // Fixed, reopened: not a verified finding reported.
        let reopened = SyncPlanner.plan(scan: [items[0]], stored: [self.stored(items[0], id: 1, status: .fixed)])
        #expect(reopened.counts.reopened == 1 && reopened.verifiedReported.isEmpty)
    }

    // MARK: - Pass 2: findings edited in place

    /// Plans a scan of `scanned` (line, snippet) against findings stored from a scan of `previous` (line, snippet),
    /// all of rule DUO001 in A.swift unless said, stored with ids 1, 2, … in `status`.
    private func replan(
        previous: [(Int, String)],
        status: FindingStatus = .proposed,
        scanned: [ScanFinding],
        scope: String = ""
    ) -> (plan: SyncPlan, stored: [StoredFinding], scan: [IdentifiedFinding]) {
        let stored = scan(previous.map { ("A.swift", $0.0, $0.1) }).enumerated().map { index, finding in
            self.stored(finding, id: Int64(index + 1), status: status)
        }
        let identified = FindingIdentity.identify(scanned, tool: "duo_scan", hasher: LibcryptoHasher())
        let plan = SyncPlanner.plan(scan: identified, stored: stored, scope: scope)
        return (plan, stored, identified)
    }

    private func edit(_ line: Int, _ snippet: String, rule: String = "DUO001", file: String = "A.swift")
        -> ScanFinding
    {
        ScanFinding(rule: rule, severity: "high", file: file, line: line, snippet: snippet)
    }

    @Test(
        "an edited line pairs with the finding last seen at most 3 lines away",
        arguments: [(10, 10, true), (10, 13, true), (10, 7, true), (10, 14, false), (10, 6, false), (2, 40, false)]
    )
    func changeDistance(oldLine: Int, newLine: Int, isChanged: Bool) throws {
        let (plan, stored, scan) = replan(
            previous: [(oldLine, "if idiom == .pad {")], scanned: [edit(newLine, "if idiom == .pad || wide {")])
        #expect(plan.counts == (isChanged ? SyncCounts(changed: 1) : SyncCounts(new: 1, fixed: 1)))
        guard isChanged else { return }
        let change = try #require(plan.changed.first)
        let finding = scan[change.index]
        #expect(change.id == stored[0].id && change.previousLine == oldLine && finding.finding.line == newLine)
        #expect(finding.normalizedSnippet == "ifidiom==.pad||wide{" && plan.new.isEmpty && plan.fixed.isEmpty)
    }

    @Test(
        "a finding of another rule or another file is never the same finding edited",
        arguments: [("DUO002", "A.swift"), ("DUO001", "B.swift"), ("DUO002", "B.swift")]
    )
    func changeNeedsRuleAndFile(rule: String, file: String) {
        let (plan, _, _) = replan(previous: [(10, "a")], scanned: [edit(10, "b", rule: rule, file: file)])
        #expect(plan.counts == SyncCounts(new: 1, fixed: 1) && plan.changed.isEmpty)
    }

    /// One case of greedy pairing: the stored findings (line, snippet), the scanned ones, and the pairs expected as
    /// `old>new` snippets.
    struct Pairing: Sendable, CustomTestStringConvertible {
        /// What the case shows.
        var testDescription: String
        /// The stored findings, all open.
        var old: [(Int, String)]
        /// The scanned findings.
        var new: [(Int, String)]
        /// The pairs expected.
        var pairs: Set<String>
    }

    /// The cases. Digest order of the snippets (DUO001, A.swift, occurrence 0): e < d < b < f < h < a < c < g.
    static let pairings = [
        Pairing(
            testDescription: "the nearest line first", old: [(10, "a")], new: [(12, "b"), (11, "c")], pairs: ["a>c"]),
        Pairing(
            testDescription: "distance before old line", old: [(10, "a"), (13, "b")], new: [(12, "c")],
            pairs: ["b>c"]),
        Pairing(
            testDescription: "then the lower old line", old: [(14, "a"), (10, "b")], new: [(12, "c")], pairs: ["b>c"]
        ),
        Pairing(
            testDescription: "then the lower new line", old: [(10, "a")], new: [(12, "b"), (8, "c")], pairs: ["a>c"]),
        Pairing(
            testDescription: "then the lower old identity", old: [(10, "a"), (10, "b")], new: [(11, "c")],
            pairs: ["b>c"]),
        Pairing(
            testDescription: "then the lower new identity", old: [(10, "a")], new: [(11, "d"), (11, "e")],
            pairs: ["a>e"]),
        Pairing(
            testDescription: "greedy, not the most pairs: each side pairs once",
            old: [(10, "a"), (13, "b")], new: [(12, "c"), (14, "d")], pairs: ["b>c"]),
        Pairing(
            testDescription: "two edits, two pairs", old: [(10, "a"), (20, "b")], new: [(21, "c"), (11, "d")],
            pairs: ["a>d", "b>c"]),
        Pairing(
            testDescription: "one stored finding, two edits: one pairs, one is new", old: [(10, "a")],
            new: [(10, "b"), (10, "c")], pairs: ["a>b"]),
    ]

    @Test("pairing is greedy by (distance, old line, new line, old identity, new identity)", arguments: pairings)
    func greedyPairing(_ pairing: Pairing) {
        // The identity ties of the table rely on this order of the digests.
        let ordered = ["e", "d", "b", "f", "h", "a", "c", "g"].map {
            FindingIdentity.digest(
                tool: "duo_scan", rule: "DUO001", file: "A.swift", normalizedSnippet: $0, occurrence: 0,
                hasher: LibcryptoHasher())
        }
        #expect(ordered == ordered.sorted())
        let (plan, stored, scan) = replan(previous: pairing.old, scanned: pairing.new.map { edit($0.0, $0.1) })
        let snippetOf = Dictionary(uniqueKeysWithValues: zip(stored.map(\.id), pairing.old.map(\.1)))
        let pairs = Set(plan.changed.map { "\(snippetOf[$0.id] ?? "?")>\(scan[$0.index].finding.snippet)" })
        #expect(pairs == pairing.pairs)
        #expect(plan.counts.changed == pairing.pairs.count)
        #expect(plan.counts.new == pairing.new.count - pairing.pairs.count)
        #expect(plan.counts.fixed == pairing.old.count - pairing.pairs.count)
    }

    @Test(
        "every status but fixed pairs and keeps its status; a fixed finding only reopens by its identity",
        arguments: FindingStatus.allCases
    )
    func changeByStatus(status: FindingStatus) {
        let (plan, _, _) = replan(previous: [(10, "a")], status: status, scanned: [edit(11, "b")])
        if status == .fixed {
            #expect(plan.counts == SyncCounts(new: 1))
        } else {
            // Nothing in the plan touches the status of a changed finding: a verdict stays as it is.
            #expect(plan.counts == SyncCounts(changed: 1) && plan.matches.isEmpty && plan.fixed.isEmpty)
        }
    }

    @Test(
        "only a stored finding inside the scan's scope can pair",
        arguments: [("", true), ("Sources", true), ("Sources/A.swift", true), ("Other", false), ("Sour", false)]
    )
    func changeInScope(scope: String, isChanged: Bool) {
        let stored = scan([("Sources/A.swift", 10, "a")]).map { self.stored($0, id: 1, status: .approved) }
        let scanned = FindingIdentity.identify(
            [edit(11, "b", file: "Sources/A.swift")], tool: "duo_scan", hasher: LibcryptoHasher())
        let plan = SyncPlanner.plan(scan: scanned, stored: stored, scope: scope)
        // Outside the scope the stored finding was not looked at: neither fixed nor paired.
        #expect(plan.counts == (isChanged ? SyncCounts(changed: 1) : SyncCounts(new: 1)))
    }

    @Test(
        "exact matches come first: a finding matched by its identity is no candidate, whatever its line",
        arguments: [
            // The stored finding's snippet is seen again far away: the edit next to its old place is new.
            ([(10, "a")], [(30, "a"), (10, "b")], SyncCounts(new: 1, unchanged: 1, moved: 1)),
            // Of two stored findings, the one seen again is matched and the other pairs with the edit.
            ([(10, "a"), (11, "b")], [(12, "a"), (11, "c")], SyncCounts(unchanged: 1, moved: 1, changed: 1)),
            // The same scan again: everything matches, nothing pairs.
            ([(10, "a"), (11, "b")], [(10, "a"), (11, "b")], SyncCounts(unchanged: 2)),
        ]
    )
    func exactMatchFirst(previous: [(Int, String)], scanned: [(Int, String)], counts: SyncCounts) {
        let (plan, _, _) = replan(previous: previous, scanned: scanned.map { edit($0.0, $0.1) })
        #expect(plan.counts == counts)
    }

    @Test("the NetNewsWire history, planned alone, gives pass 2's answer; without pairs, the exact-only answer")
    func netNewsWireHistory() throws {
        let pass2 = try ScanHistory(
            expectedPath: ScanHistory.netNewsWirePass2Path, scansIn: ScanHistory.netNewsWireDirectory)
        let exact = try ScanHistory(
            expectedPath: ScanHistory.netNewsWireExactPath, scansIn: ScanHistory.netNewsWireDirectory)
        #expect(pass2.runs.count == 14 && exact.runs.count == 14)
        var stored: [Int64: StoredFinding] = [:]
        for (run, exactRun) in zip(pass2.runs, exact.runs) {
            let report = try DuoScanParser.parse(try Fixtures.bytes(run.path))
            let scan = FindingIdentity.identify(report.findings, tool: report.tool, hasher: LibcryptoHasher())
            let plan = SyncPlanner.plan(scan: scan, stored: stored.values.sorted { $0.id < $1.id })
            for item in plan.new.map({ scan[Int($0)] }) {
                let id = Int64(stored.count + 1)
                stored[id] = StoredFinding(
                    id: id, identity: item.identity, rule: item.finding.rule, status: .proposed,
                    line: item.finding.line, file: item.finding.file)
            }
            for match in plan.matches {
                stored[match.id]?.line = scan[match.index].finding.line
                if match.isReopened { stored[match.id]?.status = .proposed }
            }
            for fix in plan.fixed { stored[fix.id]?.status = .fixed }
            for change in plan.changed {
                stored[change.id]?.identity = scan[change.index].identity
                stored[change.id]?.line = scan[change.index].finding.line
            }
            let open = Set(stored.values.filter { $0.status != .fixed }.map(\.identity))
            #expect(plan.counts == run.counts, "\(run.path)")
            #expect(open == run.openIdentities && open.count == run.openAfter, "\(run.path)")
            // Each changed finding is one that exact identity alone counted as fixed and new.
            var exactOnly = plan.counts
            exactOnly.new += exactOnly.changed
            exactOnly.fixed += exactOnly.changed
            exactOnly.changed = 0
            #expect(exactOnly == exactRun.counts, "\(run.path)")
        }
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
