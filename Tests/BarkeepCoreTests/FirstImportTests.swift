import BarkeepCore
import Foundation
import Testing

@Suite("FirstImport")
struct FirstImportTests {
    @Test(
        "a scan is a first import when no stored finding of its tool lies inside its scope",
        arguments: [
            ([String](), "", true),
            ([String](), "App/", true),
            (["App/A.swift"], "", false),
            (["App/A.swift"], "App/", false),
            (["App/A.swift"], "Lib/", true),
            (["App/A.swift", "Lib/B.swift"], "Lib/", false),
            (["Application/A.swift"], "App/", true),
        ]
    )
    func rule(storedFiles: [String], scope: String, isFirst: Bool) {
        #expect(FirstImport.isFirstImport(storedFiles: storedFiles, scope: scope) == isFirst)
    }

    @Test(
        "the new count is read from a run's counts",
        arguments: [
            ("new=12 fixed=3 reopened=0", 12),
            ("fixed=3 new=0", 0),
            ("fixed=3", nil),
            ("new=x", nil),
            ("", nil),
        ] as [(String, Int?)]
    )
    func newCount(counts: String, count: Int?) {
        #expect(SyncCounts.newCount(inEventText: counts) == count)
        // What the store writes reads back.
        let written = SyncCounts(new: 7, fixed: 1, reopened: 2, unchanged: 3, moved: 1, changed: 0).eventText
        #expect(written == "new=7 fixed=1 reopened=2 unchanged=3 moved=1 changed=0 renamed=0")
        #expect(SyncCounts.newCount(inEventText: written) == 7)
    }

    @Test("the burndown counts a first import's findings as proposed, and moves them by their events' from")
    func burndown() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let changes = [
            Burndown.Change(
                kind: EventKind.scanIngested.rawValue, findingID: nil, to: "new=3 fixed=0", subject: "run 1",
                at: start, reason: FirstImport.reason),
            Burndown.Change(
                kind: EventKind.findingStatus.rawValue, findingID: 7, to: FindingStatus.blocked.rawValue,
                subject: "DUO001:A.swift:1", at: start + 60, from: FindingStatus.proposed.rawValue),
            Burndown.Change(
                kind: EventKind.findingStatus.rawValue, findingID: 8, to: FindingStatus.declined.rawValue,
                subject: "DUO001:A.swift:2", at: start + 120, from: FindingStatus.proposed.rawValue),
            Burndown.Change(
                kind: EventKind.findingNew.rawValue, findingID: 9, to: FindingStatus.proposed.rawValue,
                subject: "DUO001:B.swift:1", at: start + 180),
            Burndown.Change(
                kind: EventKind.scanIngested.rawValue, findingID: nil, to: "new=1 fixed=0", subject: "run 2",
                at: start + 180),
        ]
        let points = Burndown.points(changes, by: .run)
        #expect(points.map(\.label) == ["run 1", "run 2"])
        #expect(points.map(\.needsWork) == [3, 3])
        #expect(points.map(\.blocked) == [0, 1])
    }
}
