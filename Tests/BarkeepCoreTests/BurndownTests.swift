import BarkeepCore
import Foundation
import Testing

@Suite("Burndown")
struct BurndownTests {
    /// A change of `kind` stored now, by the ingest of a run of `commit` (nil: by no run, or one without its time).
    private func change(_ kind: EventKind, _ id: Int64?, _ to: String, _ subject: String, commit: Date?)
        -> Burndown.Change
    {
        Burndown.Change(kind: kind.rawValue, findingID: id, to: to, subject: subject, at: Date(), runCommitTime: commit)
    }

    @Test(
        "days and ISO weeks are labelled in UTC; a week belongs to the year of its Thursday",
        arguments: [
            ("2024-03-19T23:59:59Z", "2024-03-19", "2024-W12"),
            ("2024-03-19T22:30:00-02:00", "2024-03-20", "2024-W12"),
            ("2021-01-03T12:00:00Z", "2021-01-03", "2020-W53"),
            ("2021-01-04T00:00:00Z", "2021-01-04", "2021-W01"),
            ("2024-12-30T08:00:00Z", "2024-12-30", "2025-W01"),
            ("1969-12-31T08:00:00Z", "1969-12-31", "1970-W01"),
            ("2022-11-24T18:05:40+08:00", "2022-11-24", "2022-W47"),
        ]
    )
    func labels(time: String, day: String, week: String) throws {
        let date = try #require(CommitTime.parse(time))
        #expect(Burndown.Granularity.day.label(of: date) == day)
        #expect(Burndown.Granularity.week.label(of: date) == week)
        #expect(Burndown.Granularity.run.label(of: date) == nil)
    }

    @Test("a run's changes count at its commit time; a verdict between two runs no later than the next run's commit")
    func countingTimes() throws {
        let first = try #require(CommitTime.parse("2022-11-24T10:00:00Z"))
        let second = try #require(CommitTime.parse("2024-03-19T09:00:00Z"))
        let today = Date()
        let changes = [
            change(.findingNew, 1, "proposed", "DUO001:A.swift:1", commit: first),
            change(.findingNew, 2, "proposed", "DUO001:A.swift:2", commit: first),
            change(.scanIngested, nil, "new=2", "run 1", commit: first),
            // Triage today, between two old commits ingested today.
            change(.findingStatus, 1, "declined", "DUO001:A.swift:1", commit: nil),
            change(.findingStatus, 2, "fixed", "DUO001:A.swift:2", commit: second),
            change(.scanIngested, nil, "fixed=1", "run 2", commit: second),
            // After the last run: when it was made.
            change(.findingNew, 3, "proposed", "Extend the header", commit: nil),
        ]
        let days = Burndown.points(changes, by: .day)
        #expect(days.map(\.label) == ["2022-11-24", "2024-03-19", Burndown.Granularity.day.label(of: today)])
        #expect(days.map(\.needsWork) == [2, 0, 1])
        let runs = Burndown.points(changes, by: .run)
        #expect(runs.map(\.label) == ["run 1", "run 2", "now"])
        #expect(runs.dropLast().map(\.at) == [first, second] && runs.last?.at ?? .distantPast >= today)
    }

    @Test("time never runs backwards: a run of an older commit forced in after newer work counts at that work's time")
    func monotonic() throws {
        let later = try #require(CommitTime.parse("2024-03-20T09:00:00Z"))
        let earlier = try #require(CommitTime.parse("2022-11-24T10:00:00Z"))
        let changes = [
            change(.findingNew, 1, "proposed", "DUO001:A.swift:1", commit: later),
            change(.scanIngested, nil, "new=1", "run 1", commit: later),
            change(.findingNew, 2, "proposed", "DUO001:A.swift:2", commit: earlier),
            change(.scanIngested, nil, "new=1", "run 2", commit: earlier),
        ]
        let days = Burndown.points(changes, by: .day)
        #expect(days.map(\.label) == ["2024-03-20"])
        #expect(days.map(\.needsWork) == [2])
        #expect(Burndown.points(changes, by: .run).map(\.at) == [later, later])
    }

    @Test("the granularities are named for messages from the one list")
    func names() {
        #expect(Burndown.Granularity.names == "run, day or week")
    }
}
