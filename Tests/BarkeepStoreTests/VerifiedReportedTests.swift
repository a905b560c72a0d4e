import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// A finding a person marked verified that a later scan still reports (Schema/0022, `ScanStore.markVerifiedReported`):
/// its status stays, it is marked once with a `finding.persisted` event, STATUS counts it, and the mark goes when
/// it leaves verified.
@Suite("Verified but still reported")
struct VerifiedReportedTests {
    private let connection: PostgresConnection

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
    }

    /// Ingests findings (file, line, snippet) of rule DUO001 as the next run.
    @discardableResult
    private func ingest(_ findings: [(String, Int, String)]) throws -> IngestResult {
        let report = ScanReport(
            format: .duoScan, tool: "duo_scan", toolVersion: "1.2.2",
            findings: findings.map {
                ScanFinding(rule: "DUO001", severity: "high", file: $0.0, line: $0.1, snippet: $0.2)
            })
        return try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: "\(report)".utf8), format: .duoScan, project: "app",
                actor: "ci"), scan: report, on: connection)
    }

    private func set(_ number: Int, _ status: FindingStatus, reason: String? = nil) throws {
        _ = try FindingStore.setStatus(
            project: "app", number: number, to: status, reason: reason, role: .writer, actor: "dana", on: connection)
    }

    private func finding(_ number: Int) throws -> Finding {
        try FindingStore.show(project: "app", number: number, on: connection).0
    }

    /// The `finding.persisted` events of finding `number`: their reasons.
    private func persisted(_ number: Int) throws -> [String] {
        try FindingStore.show(project: "app", number: number, on: connection).1
            .filter { $0.kind == EventKind.findingPersisted.rawValue }.map { $0.reason ?? "" }
    }

    private func count() throws -> Int {
        try StatusStore.status(project: "app", on: connection).verifiedReported
    }

    @Test("verified, then reported by the next runs: marked once, by the first, with one event; the status stays")
    func markedOnce() throws {
        try ingest([("A.swift", 1, "a"), ("A.swift", 2, "b"), ("A.swift", 3, "c")])
        for number in [1, 2] {
            try set(number, .applied)
            try set(number, .verified)
        }
        // Verified after the run that reported them: nothing contradicts it yet.
        #expect(try !finding(1).isReportedAfterVerified && (try count()) == 0)

        // Run 2 still reports 1 (moved: its row is rewritten) and 2 (unchanged: its row is not), not 3.
        try ingest([("A.swift", 5, "a"), ("A.swift", 6, "b")])
        for number in [1, 2] {
            let shown = try finding(number)
            #expect(shown.status == .verified && shown.isReportedAfterVerified && shown.lastSeenRun == 2)
            #expect(try persisted(number) == ["run 2"])
        }
        #expect(try finding(3).status == .fixed && (try count()) == 2)

        // Run 3 reports them again: no second event; the latest run that reported them is 3.
        try ingest([("A.swift", 5, "a"), ("A.swift", 6, "b"), ("B.swift", 1, "new")])
        #expect(try persisted(1) == ["run 2"] && (try persisted(2)) == ["run 2"])
        #expect(try finding(2).lastSeenRun == 3 && (try finding(2)).isReportedAfterVerified)
        #expect(try count() == 2)
    }

    @Test("the mark goes when the finding leaves verified, stays with a new reason, and comes back with a new event")
    func markLifecycle() throws {
        try ingest([("A.swift", 1, "a"), ("A.swift", 2, "b")])
        for number in [1, 2] {
            try set(number, .applied)
            try set(number, .verified)
        }
        try ingest([("A.swift", 1, "a"), ("A.swift", 2, "b"), ("C.swift", 1, "c")])
        #expect(try count() == 2)

        // A new reason keeps it verified and marked.
        try set(1, .verified, reason: "checked on the device again")
        #expect(try finding(1).isReportedAfterVerified && (try count()) == 2)

        // Reworked: no longer marked; verified anew, not marked until a scan reports it again, then a new event.
        try set(1, .applied)
        #expect(try !finding(1).isReportedAfterVerified && (try count()) == 1)
        try set(1, .verified)
        #expect(try !finding(1).isReportedAfterVerified)
        try ingest([("A.swift", 1, "a"), ("A.swift", 2, "b"), ("C.swift", 2, "d")])
        #expect(try persisted(1) == ["run 2", "run 3"] && (try finding(1)).isReportedAfterVerified)

        // A verdict with a reason clears it; a scan that no longer reports one fixes it, clearing it too.
        try set(1, .falsePositive, reason: "the scanner misreads the idiom check")
        try ingest([("C.swift", 2, "d")])
        let fixed = try finding(2)
        #expect(fixed.status == .fixed && !fixed.isReportedAfterVerified)
        #expect(try count() == 0)
        // The schema refuses a mark on a finding that is not verified, whoever writes it.
        #expect(throws: (any Error).self) {
            try connection.query("UPDATE findings SET reported_after_verified = true WHERE status <> 'verified'")
        }
    }

    @Test("a verified finding edited in place (pass 2) is still reported")
    func changedInPlace() throws {
        try ingest([("A.swift", 10, "if idiom == .pad {")])
        try set(1, .applied)
        try set(1, .verified)
        let result = try ingest([("A.swift", 11, "if idiom == .pad || wide {")])
        #expect(result.counts.changed == 1)
        #expect(try finding(1).isReportedAfterVerified && (try persisted(1)) == ["run 2"])
    }
}
