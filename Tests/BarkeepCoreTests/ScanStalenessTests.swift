import BarkeepCore
import Foundation
import Testing

@Suite("ScanStaleness")
struct ScanStalenessTests {
    private static func time(_ day: Int) -> Date { Date(timeIntervalSince1970: Double(day) * 86_400) }

    /// Runs 3, 2, 1 of one tool and scope (newest first), with commits c…3, c…2, c…1 committed on days 30, 20, 10.
    private static let history = [
        PriorScan(number: 3, commit: "cccccccc3333", commitTime: time(30)),
        PriorScan(number: 2, commit: "cccccccc2222", commitTime: time(20)),
        PriorScan(number: 1, commit: "cccccccc1111", commitTime: time(10)),
    ]

    /// What the rule says, shortly: nil, `ingested N` or `older than N`.
    private static func verdict(_ refusal: StaleScan?) -> String? {
        switch refusal {
        case nil: nil
        case .alreadyIngested(_, let run): "ingested \(run.number)"
        case .older(_, _, let latest, _, _): "older than \(latest.number)"
        case .unordered(_, let latest, _, _): "unordered after \(latest.number)"
        }
    }

    /// One row of the rule's table.
    struct Case: Sendable, CustomTestStringConvertible {
        var commit: String?
        var day: Int?
        var isForced = false
        var earlier: [PriorScan] = []
        var expected: String?
        var testDescription: String { "\(commit ?? "no commit") day \(day.map(String.init) ?? "none")" }
    }

    static let cases: [Case] = [
        Case(commit: "cccccccc2222", day: 20, expected: "ingested 2"),
        Case(commit: "cccccccc2222", day: nil, expected: "ingested 2"),
        Case(commit: "CCCCCCCC2222", day: nil, expected: "ingested 2"),
        Case(commit: "cccccccc2", day: nil, expected: "ingested 2"),  // an abbreviation of a stored id
        Case(commit: "cccccccc3333aaaa", day: nil, expected: "ingested 3"),  // a stored id abbreviates it
        Case(commit: "cccccccc3333", day: 30, expected: "ingested 3"),
        Case(commit: "cccccccc2222", day: 20, isForced: true, expected: nil),
        Case(commit: "dddddddd", day: 25, expected: "older than 3"),
        Case(commit: "dddddddd", day: 25, isForced: true, expected: nil),
        Case(commit: "dddddddd", day: 30, expected: nil),  // as old as the latest: not older
        Case(commit: "dddddddd", day: 31, expected: nil),
        // No time: it cannot be ordered against the runs whose time is known.
        Case(commit: "dddddddd", day: nil, expected: "unordered after 3"),
        Case(commit: "dddddddd", day: nil, isForced: true, expected: nil),
        Case(commit: nil, day: 1, expected: nil),  // no commit: applied as before
        Case(commit: "cccc", day: nil, expected: "unordered after 3"),  // too short to be an abbreviation
        Case(commit: "ccccccc", day: nil, expected: "ingested 3"),  // seven digits: the latest run with it
        // A later run without a commit or without a time does not turn the check off: the latest run with one counts.
        Case(
            commit: "dddddddd", day: 1, earlier: [PriorScan(number: 4, commit: nil, commitTime: nil)],
            expected: "older than 3"),
        Case(
            commit: "dddddddd", day: 1, earlier: [PriorScan(number: 4, commit: "eeeeeeee", commitTime: nil)],
            expected: "older than 3"),
        Case(
            commit: "dddddddd", day: 31, earlier: [PriorScan(number: 4, commit: "eeeeeeee", commitTime: nil)],
            expected: nil),
        // Only the latest timed run counts: after a forced old scan, what is newer than it goes in.
        Case(commit: "dddddddd", day: 15, earlier: [PriorScan(number: 4, commit: "ffffffff", commitTime: time(12))]),
    ]

    @Test("refuses a commit already ingested, or older than the latest run's; the rest passes", arguments: cases)
    func rule(_ row: Case) {
        let refusal = ScanStaleness.refusal(
            commit: row.commit, commitTime: row.day.map(Self.time), isForced: row.isForced,
            history: row.earlier + Self.history)
        #expect(Self.verdict(refusal) == row.expected)
    }

    @Test("the first run of a tool and scope is never refused, nor one after runs that never had a time")
    func firstRun() {
        #expect(
            ScanStaleness.refusal(commit: "dddddddd", commitTime: Self.time(1), isForced: false, history: []) == nil)
        let untimed = [PriorScan(number: 1, commit: "eeeeeeee", commitTime: nil)]
        #expect(ScanStaleness.refusal(commit: "dddddddd", commitTime: nil, isForced: false, history: untimed) == nil)
        #expect(
            ScanStaleness.refusal(commit: "dddddddd", commitTime: Self.time(1), isForced: false, history: untimed)
                == nil)
    }

    @Test(
        "the same commit: equal ignoring case, or an abbreviation of at least seven digits",
        arguments: [
            ("1caaf3c1", "1caaf3c1", true),
            ("1CAAF3C1", "1caaf3c1", true),
            ("1caaf3c", "1caaf3c1542f482290dfa9c3fa9c6702bc8097c9", true),
            ("1caaf3c1542f482290dfa9c3fa9c6702bc8097c9", "1caaf3c1", true),
            ("1caaf3", "1caaf3c1542f482290dfa9c3fa9c6702bc8097c9", false),
            ("1caaf3c2", "1caaf3c1542f482290dfa9c3fa9c6702bc8097c9", false),
            ("abcd", "abcd", true),
        ]
    )
    func sameCommit(first: String, second: String, expected: Bool) {
        #expect(ScanStaleness.isSameCommit(first, second) == expected)
    }

    @Test("the messages name the commits, the run, the tool and scope, and --force")
    func messages() {
        let ingested = ScanStaleness.refusal(
            commit: "1caaf3c1542f482290dfa9c3fa9c6702bc8097c9", commitTime: nil, isForced: false,
            history: [PriorScan(number: 3, commit: "1caaf3c1542f482290dfa9c3fa9c6702bc8097c9", commitTime: nil)])
        #expect(
            ingested?.message(tool: "duo_scan", scope: "")
                == "commit 1caaf3c1 was ingested as run 3 (duo_scan, whole project); --force to ingest it again")
        let older = ScanStaleness.refusal(
            commit: "abcdef0123", commitTime: Self.time(25), isForced: false, history: Self.history)
        #expect(
            older?.message(tool: "duo_scan", scope: "Sources/Inbox")
                == "commit abcdef01 (committed 1970-01-26T00:00:00Z) is older than commit cccccccc (committed "
                + "1970-01-31T00:00:00Z) of run 3, the latest run (duo_scan, scope Sources/Inbox); --force to ingest "
                + "it anyway")
        let unordered = ScanStaleness.refusal(
            commit: "abcdef0123", commitTime: nil, isForced: false, history: Self.history)
        #expect(
            unordered?.message(tool: "duo_scan", scope: "")
                == "commit abcdef01 came without its commit time, so it cannot be ordered against commit cccccccc "
                + "(committed 1970-01-31T00:00:00Z) of run 3, the latest run (duo_scan, whole project); give its "
                + "commit time (--commit-time, or ingest from its checkout), or --force to ingest it anyway")
    }
}
