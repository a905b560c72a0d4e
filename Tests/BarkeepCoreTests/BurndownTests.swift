import BarkeepCore
import Foundation
import Testing

@Suite("Burndown")
struct BurndownTests {
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

    @Test("time never runs backwards: a change dated before one replayed earlier counts at that one's time")
    func monotonic() throws {
        let later = try #require(CommitTime.parse("2024-03-20T09:00:00Z"))
        let earlier = try #require(CommitTime.parse("2022-11-24T10:00:00Z"))
        let changes = [
            Burndown.Change(
                kind: EventKind.findingNew.rawValue, findingID: 1, to: FindingStatus.proposed.rawValue,
                subject: "DUO001:A.swift:1", at: later),
            Burndown.Change(
                kind: EventKind.scanIngested.rawValue, findingID: nil, to: "new=1", subject: "run 1", at: later),
            // A run of an older commit, forced in afterwards.
            Burndown.Change(
                kind: EventKind.findingNew.rawValue, findingID: 2, to: FindingStatus.proposed.rawValue,
                subject: "DUO001:A.swift:2", at: earlier),
            Burndown.Change(
                kind: EventKind.scanIngested.rawValue, findingID: nil, to: "new=1", subject: "run 2", at: earlier),
        ]
        let days = Burndown.points(changes, by: .day)
        #expect(days.map(\.label) == ["2024-03-20"])
        #expect(days.map(\.needsWork) == [2])
        let runs = Burndown.points(changes, by: .run)
        #expect(runs.map(\.at) == [later, later])
    }

    @Test("the granularities are named for messages from the one list")
    func names() {
        #expect(Burndown.Granularity.names == "run, day or week")
    }
}
