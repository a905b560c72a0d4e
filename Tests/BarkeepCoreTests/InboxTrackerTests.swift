import BarkeepCore
import Testing

@Suite("InboxTracker")
struct InboxTrackerTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant {
        start + .milliseconds(Int64((seconds * 1000).rounded()))
    }

    func file(_ name: String, size: Int64 = 100, modified: Int64 = 1_000) -> InboxTracker.Observation {
        InboxTracker.Observation(name: name, size: size, modified: modified)
    }

    // MARK: - Written in place

    @Test("a file written in place is complete only once it stayed unchanged for the settle time")
    func settlesInPlace() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file("scan.json"), at: at(0))
        #expect(tracker.candidates == ["scan.json"])
        #expect(tracker.completeFiles(at: at(0)) == [])
        #expect(tracker.completeFiles(at: at(4.999)) == [])
        tracker.observe(file("scan.json"), at: at(3))
        #expect(tracker.completeFiles(at: at(4.999)) == [])
        #expect(tracker.completeFiles(at: at(5)) == ["scan.json"])
        #expect(!tracker.isComplete("scan.json", at: at(4.999)) && tracker.isComplete("scan.json", at: at(5)))
        #expect(!tracker.isComplete("other.json", at: at(60)))
        #expect(tracker.completeFiles(at: at(60)) == ["scan.json"])
    }

    @Test(
        "a change of size or modification time restarts the settle time",
        arguments: [
            (Int64(200), Int64(1_000)),
            (Int64(100), Int64(2_000)),
            (Int64(50), Int64(1_000)),
            (Int64(200), Int64(2_000)),
        ]
    )
    func changeRestartsSettle(size: Int64, modified: Int64) {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file("scan.json"), at: at(0))
        tracker.observe(file("scan.json", size: size, modified: modified), at: at(4))
        #expect(tracker.completeFiles(at: at(5)) == [])
        #expect(tracker.completeFiles(at: at(8.999)) == [])
        #expect(tracker.nextDeadline() == at(9))
        #expect(tracker.completeFiles(at: at(9)) == ["scan.json"])
    }

    @Test("an empty file written in place waits for content however long it stays; renamed in, it is complete")
    func emptyFileWaits() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file("scan.json", size: 0), at: at(0))
        #expect(tracker.completeFiles(at: at(3600)) == [])
        #expect(tracker.nextDeadline() == nil)
        // The writer finally writes: from then on it settles like any file.
        tracker.observe(file("scan.json", size: 100, modified: 2_000), at: at(3600))
        #expect(tracker.nextDeadline() == at(3605))
        #expect(tracker.completeFiles(at: at(3605)) == ["scan.json"])
        // An empty file renamed in is what its writer meant: complete (and refused by the ingest).
        tracker.observeRename(file("empty.json", size: 0), at: at(3605))
        #expect(tracker.isComplete("empty.json", at: at(3605)))
    }

    @Test("a file that changes back to what it was still restarts: only the last look counts")
    func changeBackRestarts() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file("scan.json", size: 100), at: at(0))
        tracker.observe(file("scan.json", size: 200), at: at(2))
        tracker.observe(file("scan.json", size: 100), at: at(4))
        #expect(tracker.completeFiles(at: at(8)) == [])
        #expect(tracker.completeFiles(at: at(9)) == ["scan.json"])
    }

    @Test("a complete file that changes again must settle again")
    func completeThenChanged() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file("scan.json"), at: at(0))
        #expect(tracker.completeFiles(at: at(6)) == ["scan.json"])
        tracker.observe(file("scan.json", size: 300), at: at(6))
        #expect(tracker.completeFiles(at: at(10.999)) == [])
        #expect(tracker.completeFiles(at: at(11)) == ["scan.json"])
    }

    // MARK: - Renamed in

    @Test("a file renamed in is complete at once and has no deadline")
    func renamedInIsComplete() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observeRename(file("scan.json"), at: at(0))
        #expect(tracker.completeFiles(at: at(0)) == ["scan.json"])
        #expect(tracker.nextDeadline() == nil)
        tracker.observe(file("scan.json"), at: at(1))
        #expect(tracker.completeFiles(at: at(1)) == ["scan.json"])
        #expect(tracker.nextDeadline() == nil)
    }

    @Test(
        "a file renamed in that then changes must settle",
        arguments: [(Int64(200), Int64(1_000)), (Int64(100), Int64(2_000))]
    )
    func renamedThenChanged(size: Int64, modified: Int64) {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observeRename(file("scan.json"), at: at(0))
        tracker.observe(file("scan.json", size: size, modified: modified), at: at(2))
        #expect(tracker.completeFiles(at: at(2)) == [])
        #expect(tracker.completeFiles(at: at(6.999)) == [])
        #expect(tracker.nextDeadline() == at(7))
        #expect(tracker.completeFiles(at: at(7)) == ["scan.json"])
    }

    @Test("a file being written in place that is then renamed over is complete at once")
    func renameOverInPlace() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file("scan.json"), at: at(0))
        tracker.observeRename(file("scan.json", size: 500), at: at(1))
        #expect(tracker.completeFiles(at: at(1)) == ["scan.json"])
        #expect(tracker.nextDeadline() == nil)
    }

    // MARK: - Temporary names

    @Test(
        "temporary names are never candidates",
        arguments: [
            ".scan.json", ".", "..", ".hidden", "scan.json.tmp", "scan.tmp", "scan.json.part", "scan.part",
            "scan.json.partial", "scan.json.crdownload", "scan.json~", "~", ".tmp", ".part",
        ]
    )
    func temporaryNames(name: String) {
        #expect(InboxTracker.isTemporaryName(name))
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file(name), at: at(0))
        tracker.observeRename(file(name), at: at(0))
        #expect(tracker.candidates == [])
        #expect(tracker.completeFiles(at: at(3600)) == [])
        #expect(tracker.nextDeadline() == nil)
    }

    @Test(
        "other names are candidates",
        arguments: [
            "scan.json", "scan.sarif", "scan", "scan.tmp.json", "scan.part1", "scan.partials", "tmp", "part",
            "a.b.c", "scan~.json", "scan.json.", "scan.json ", "~scan",
        ]
    )
    func ordinaryNames(name: String) {
        #expect(!InboxTracker.isTemporaryName(name))
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file(name), at: at(0))
        #expect(tracker.candidates == [name])
    }

    // MARK: - Forgetting

    @Test("forget stops tracking one file, and forgetting an unknown name does nothing")
    func forget() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file("a.json"), at: at(0))
        tracker.observeRename(file("b.json"), at: at(0))
        tracker.observe(file("c.json"), at: at(1))
        tracker.forget("b.json")
        tracker.forget("missing.json")
        #expect(tracker.candidates.sorted() == ["a.json", "c.json"])
        #expect(tracker.completeFiles(at: at(10)) == ["a.json", "c.json"])
        tracker.forget("a.json")
        #expect(tracker.candidates == ["c.json"])
        #expect(tracker.nextDeadline() == at(6))
    }

    @Test("a forgotten file seen again starts over")
    func forgottenThenSeenAgain() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observeRename(file("a.json"), at: at(0))
        tracker.forget("a.json")
        tracker.observe(file("a.json"), at: at(1))
        #expect(tracker.completeFiles(at: at(1)) == [])
        #expect(tracker.completeFiles(at: at(6)) == ["a.json"])
    }

    @Test("keepOnly drops every file not present")
    func keepOnly() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file("a.json"), at: at(0))
        tracker.observe(file("b.json"), at: at(1))
        tracker.observeRename(file("c.json"), at: at(2))
        tracker.keepOnly(["b.json", "c.json", "unknown.json"])
        #expect(tracker.candidates.sorted() == ["b.json", "c.json"])
        #expect(tracker.completeFiles(at: at(2)) == ["c.json"])
        #expect(tracker.nextDeadline() == at(6))
        tracker.keepOnly([])
        #expect(tracker.candidates == [])
        #expect(tracker.completeFiles(at: at(100)) == [])
        #expect(tracker.nextDeadline() == nil)
    }

    // MARK: - Deadlines and order

    @Test("nextDeadline is the earliest settle end among files written in place")
    func nextDeadline() {
        var tracker = InboxTracker(settle: .seconds(5))
        #expect(tracker.nextDeadline() == nil)
        tracker.observe(file("late.json"), at: at(3))
        #expect(tracker.nextDeadline() == at(8))
        tracker.observe(file("early.json"), at: at(1))
        #expect(tracker.nextDeadline() == at(6))
        tracker.observeRename(file("renamed.json"), at: at(0))
        #expect(tracker.nextDeadline() == at(6))
        tracker.observe(file("early.json", size: 1), at: at(4))
        #expect(tracker.nextDeadline() == at(8))
        tracker.forget("late.json")
        #expect(tracker.nextDeadline() == at(9))
    }

    @Test("an unchanged look does not move the deadline")
    func unchangedLookKeepsDeadline() {
        var tracker = InboxTracker(settle: .seconds(5))
        tracker.observe(file("a.json"), at: at(0))
        tracker.observe(file("a.json"), at: at(4))
        #expect(tracker.nextDeadline() == at(5))
    }

    @Test("complete files come sorted by name")
    func sortedCompleteFiles() {
        var tracker = InboxTracker(settle: .seconds(5))
        for name in ["c.json", "a.json", "B.json", "b.json"] {
            tracker.observe(file(name), at: at(0))
        }
        tracker.observeRename(file("0.json"), at: at(0))
        #expect(tracker.completeFiles(at: at(0)) == ["0.json"])
        #expect(tracker.completeFiles(at: at(5)) == ["0.json", "B.json", "a.json", "b.json", "c.json"])
    }

    @Test("with a settle of zero a file is complete when first seen, and its deadline is that instant")
    func zeroSettle() {
        var tracker = InboxTracker(settle: .zero)
        #expect(tracker.settle == .zero)
        tracker.observe(file("a.json"), at: at(2))
        #expect(tracker.completeFiles(at: at(2)) == ["a.json"])
        #expect(tracker.nextDeadline() == at(2))
        tracker.observe(file("a.json", size: 1), at: at(3))
        #expect(tracker.completeFiles(at: at(3)) == ["a.json"])
    }
}
