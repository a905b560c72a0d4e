import BarkeepCore
import BarkeepHashing
import BarkeepTestSupport
import Testing

/// Pass 3 of the sync, renamed files, without a database.
@Suite("SyncPlanner, renamed files")
struct SyncPlannerRenamedTests {
    private func scan(_ items: [(String, Int, String)], rule: String = "DUO001") -> [IdentifiedFinding] {
        FindingIdentity.identify(
            items.map { ScanFinding(rule: rule, severity: "high", file: $0.0, line: $0.1, snippet: $0.2) },
            tool: "duo_scan", hasher: LibcryptoHasher()
        )
    }

    private func stored(_ finding: IdentifiedFinding, id: Int64, status: FindingStatus = .proposed) -> StoredFinding {
        StoredFinding(
            id: id, identity: finding.identity, rule: finding.finding.rule, status: status, line: finding.finding.line,
            file: finding.finding.file, normalizedSnippet: finding.normalizedSnippet, occurrence: finding.occurrence)
    }

    private let renames = FileRenames(["Old/A.swift": "New/A.swift"])

    @Test("a finding in a renamed file is the same finding at the new path: unchanged, moved and renamed")
    func renamed() {
        let before = scan([("Old/A.swift", 3, "UIScreen.main"), ("Old/A.swift", 9, "x")])
        let after = scan([("New/A.swift", 5, "UIScreen  .main"), ("New/A.swift", 9, "x")])
        let plan = SyncPlanner.plan(
            scan: after, stored: [stored(before[0], id: 1), stored(before[1], id: 2)], renames: renames)
        #expect(plan.counts == SyncCounts(unchanged: 2, moved: 2, renamed: 2))
        #expect(plan.renamed.map(\.id) == [1, 2] && plan.renamed.map(\.index) == [0, 1])
        #expect(plan.renamed[0].previousFile == "Old/A.swift" && plan.renamed[0].previousLine == 3)
        #expect(plan.new.isEmpty && plan.fixed.isEmpty && plan.changed.isEmpty)
        // Without renames: fixed and new, as before.
        let plain = SyncPlanner.plan(scan: after, stored: [stored(before[0], id: 1), stored(before[1], id: 2)])
        #expect(plain.counts == SyncCounts(new: 2, fixed: 2) && plain.renamed.isEmpty)
    }

    @Test(
        "every open status pairs, sticky verdicts included, and a verified one is still reported; fixed never pairs",
        arguments: FindingStatus.allCases)
    func statuses(status: FindingStatus) {
        let before = scan([("Old/A.swift", 3, "a")])
        let after = scan([("New/A.swift", 3, "a")])
        let plan = SyncPlanner.plan(scan: after, stored: [stored(before[0], id: 1, status: status)], renames: renames)
        if status == .fixed {
            #expect(plan.renamed.isEmpty && plan.counts == SyncCounts(new: 1))
        } else {
            #expect(plan.renamed.map(\.id) == [1] && plan.counts == SyncCounts(unchanged: 1, moved: 1, renamed: 1))
            #expect(plan.verifiedReported == (status == .verified ? [1] : []))
        }
    }

    @Test("only findings inside the scope pair; the new path is looked up, not the old")
    func scope() {
        let before = scan([("Old/A.swift", 3, "a")])
        let after = scan([("New/A.swift", 3, "a")])
        let outside = SyncPlanner.plan(
            scan: after, stored: [stored(before[0], id: 1)], scope: "New", renames: renames)
        #expect(outside.renamed.isEmpty && outside.counts == SyncCounts(new: 1))
        let inside = SyncPlanner.plan(
            scan: after, stored: [stored(before[0], id: 1)], scope: "Old/", renames: renames)
        #expect(inside.renamed.map(\.id) == [1])
        let reversed = SyncPlanner.plan(
            scan: after, stored: [stored(before[0], id: 1)], renames: FileRenames(["New/A.swift": "Old/A.swift"]))
        #expect(reversed.renamed.isEmpty)
    }

    @Test("rule, normalized snippet and occurrence must all be equal; a rename plus an edit stays fixed and new")
    func samePartsOnly() {
        let before = scan([("Old/A.swift", 3, "a"), ("Old/A.swift", 8, "a")])
        // The second occurrence only: it is occurrence 0 at the new path, so it pairs with the first stored one.
        let one = SyncPlanner.plan(
            scan: scan([("New/A.swift", 8, "a")]), stored: before.enumerated().map { stored($1, id: Int64($0 + 1)) },
            renames: renames)
        #expect(one.renamed.map(\.id) == [1] && one.counts.fixed == 1)
        let otherRule = SyncPlanner.plan(
            scan: scan([("New/A.swift", 3, "a")], rule: "DUO002"), stored: [stored(before[0], id: 1)],
            renames: renames)
        #expect(otherRule.renamed.isEmpty && otherRule.counts == SyncCounts(new: 1, fixed: 1))
        // Renamed and its flagged line edited: pass 3 needs the same snippet, pass 2 the same file.
        let edited = SyncPlanner.plan(
            scan: scan([("New/A.swift", 3, "a || b")]), stored: [stored(before[0], id: 1)], renames: renames)
        #expect(edited.renamed.isEmpty && edited.changed.isEmpty && edited.counts == SyncCounts(new: 1, fixed: 1))
    }

    @Test("pass 3 runs before pass 2: a finding it pairs is not left for pass 2, which pairs what is left")
    func beforePass2() {
        let before = scan([("Old/A.swift", 3, "a"), ("B.swift", 10, "b")])
        let after = scan([("New/A.swift", 3, "a"), ("B.swift", 11, "b || c")])
        let plan = SyncPlanner.plan(
            scan: after, stored: [stored(before[0], id: 1), stored(before[1], id: 2)], renames: renames)
        #expect(plan.renamed.map(\.id) == [1] && plan.changed.map(\.id) == [2])
        #expect(plan.counts == SyncCounts(unchanged: 1, moved: 1, changed: 1, renamed: 1))
    }

    @Test("stored findings without their snippet and occurrence read pair with nothing")
    func withoutDetails() {
        let before = scan([("Old/A.swift", 3, "a")])[0]
        let bare = StoredFinding(
            id: 1, identity: before.identity, rule: "DUO001", status: .proposed, line: 3, file: "Old/A.swift")
        let plan = SyncPlanner.plan(scan: scan([("New/A.swift", 3, "a")]), stored: [bare], renames: renames)
        #expect(plan.renamed.isEmpty)
    }

    @Test("the plan is the same in any order of the scan and of the stored findings")
    func orderIndependence() {
        let renames = FileRenames(["a/1.swift": "b/1.swift", "a/2.swift": "b/2.swift"])
        let before = scan([("a/1.swift", 1, "x"), ("a/1.swift", 2, "x"), ("a/2.swift", 1, "x"), ("a/2.swift", 5, "y")])
        let items = [("b/1.swift", 1, "x"), ("b/1.swift", 2, "x"), ("b/2.swift", 1, "x"), ("b/2.swift", 7, "y")]
        let storedFindings = before.enumerated().map { stored($1, id: Int64($0 + 1)) }
        let forward = SyncPlanner.plan(scan: scan(items), stored: storedFindings, renames: renames)
        let backwardScan = scan(items.reversed())
        let backward = SyncPlanner.plan(scan: backwardScan, stored: storedFindings.reversed(), renames: renames)
        #expect(forward.counts == SyncCounts(unchanged: 4, moved: 4, renamed: 4) && backward.counts == forward.counts)
        #expect(forward.renamed.map(\.id) == [1, 2, 3, 4] && backward.renamed.map(\.id) == [1, 2, 3, 4])
        let forwardPairs = forward.renamed.map { [$0.id: scan(items)[$0.index].identity] }
        let backwardPairs = backward.renamed.map { [$0.id: backwardScan[$0.index].identity] }
        #expect(forwardPairs == backwardPairs)
    }

    @Test("two old paths renamed to one (a hand-built map): the lowest stored id pairs, in any order")
    func twoToOne() {
        let renames = FileRenames(["a/1.swift": "b/1.swift", "c/1.swift": "b/1.swift"])
        let before = scan([("a/1.swift", 1, "x"), ("c/1.swift", 1, "x")])
        let storedFindings = [stored(before[0], id: 2), stored(before[1], id: 1)]
        let after = scan([("b/1.swift", 1, "x")])
        for order in [storedFindings, storedFindings.reversed()] {
            let plan = SyncPlanner.plan(scan: after, stored: order, renames: renames)
            #expect(plan.renamed.map(\.id) == [1] && plan.fixed.map(\.id) == [2])
        }
    }

    @Test("the NetNewsWire history with its renames, planned alone, gives v3's answer run by run")
    func netNewsWireHistory() throws {
        let history = try ScanHistory(
            expectedPath: ScanHistory.netNewsWireV3Path, scansIn: ScanHistory.netNewsWireDirectory,
            renamesPath: ScanHistory.netNewsWireRenamesPath)
        #expect(history.runs.map(\.counts.renamed).reduce(0, +) == 7)
        var stored: [Int64: StoredFinding] = [:]
        for run in history.runs {
            let report = try DuoScanParser.parse(try Fixtures.bytes(run.path))
            let scan = FindingIdentity.identify(report.findings, tool: report.tool, hasher: LibcryptoHasher())
            let plan = SyncPlanner.plan(
                scan: scan, stored: stored.values.sorted { $0.id < $1.id }, renames: run.renames)
            func take(_ id: Int64, _ index: Int) {
                stored[id]?.identity = scan[index].identity
                stored[id]?.file = scan[index].finding.file
                stored[id]?.line = scan[index].finding.line
                stored[id]?.normalizedSnippet = scan[index].normalizedSnippet
                stored[id]?.occurrence = scan[index].occurrence
            }
            for index in plan.new.map({ Int($0) }) {
                let id = Int64(stored.count + 1)
                stored[id] = self.stored(scan[index], id: id)
            }
            for match in plan.matches {
                take(match.id, match.index)
                if match.isReopened { stored[match.id]?.status = .proposed }
            }
            for fix in plan.fixed { stored[fix.id]?.status = .fixed }
            for change in plan.changed { take(change.id, change.index) }
            for rename in plan.renamed { take(rename.id, rename.index) }
            let open = Set(stored.values.filter { $0.status != .fixed }.map(\.identity))
            #expect(plan.counts == run.counts, "\(run.path)")
            #expect(open == run.openIdentities && open.count == run.openAfter, "\(run.path)")
        }
    }
}
