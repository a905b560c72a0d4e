import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// Sources against a real database: the lease that lets one daemon at a time run each source (claims that race,
/// renewal, expiry, release, pausing), the fencing check a run is recorded behind, the inbox file ledger, and the
/// settings' own life (add, conflict, list, remove).
@Suite("Source store")
struct SourceStoreTests {
    let configuration: PostgresConfiguration
    let connection: PostgresConnection

    init() throws {
        configuration = try TestDatabase.makeDatabase()
        connection = try PostgresConnection(configuration: configuration)
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
    }

    /// Long enough never to run out during a test.
    static let longLease = Duration.seconds(60)

    // MARK: - Helpers

    /// Adds an inbox source reading `directory` to `project`.
    @discardableResult
    func addInbox(_ directory: String, project: String = "app") throws -> Source {
        try SourceStore.add(
            .inbox(directory, format: "duo-scan", settleSeconds: 5), to: project, actor: "ana", on: connection)
    }

    /// Adds a repository source following `main` of `path`.
    @discardableResult
    func addRepo(_ path: String, everySeconds: Int = 600) throws -> Source {
        try SourceStore.add(
            .repo(
                path, format: "sarif", branch: "main", scanner: "scan {root}", everySeconds: everySeconds,
                timeoutSeconds: 60, maximumOutput: 1 << 20),
            to: "app", actor: "ana", on: connection)
    }

    /// Three sources: two inboxes and a repository; their ids.
    func addThree() throws -> [Int64] {
        [
            try addInbox("/srv/inbox/one").id, try addInbox("/srv/inbox/two").id,
            try addRepo("/srv/repo").id,
        ]
    }

    func claim(_ holder: String, lease: Duration = longLease) throws -> [Int64] {
        try SourceStore.claim(holder: holder, lease: lease, on: connection).map(\.id)
    }

    /// Each source's holder as stored (`-` for none), by id.
    func holders() throws -> [Int64: String] {
        var holders: [Int64: String] = [:]
        for row in try connection.query("SELECT id, coalesce(holder, '-') AS holder FROM sources") {
            holders[try row.decode("id")] = try row.decode("holder", as: String.self)
        }
        return holders
    }

    /// Whether `holder` passes the fencing check on the source, in a transaction as a run does.
    func passesFence(_ id: Int64, _ holder: String) throws -> Bool {
        do {
            let source = try connection.transaction { connection in
                try SourceStore.lockHeld(id, holder: holder, on: connection)
            }
            #expect(source.id == id && source.holder == holder)
            return true
        } catch let error as StoreError {
            #expect(error == .conflict("source \(id) is no longer held by \(holder)"))
            return false
        }
    }

    /// The kinds of the events of `source`, oldest first.
    func eventKinds(_ source: Source) throws -> [String] {
        try SourceStore.events(of: source, on: connection).map(\.kind)
    }

    /// The ledger's record of a file: `ok`, `failed: ERROR`, or nil when the source has not dealt with it.
    func ledger(_ name: String, _ stamp: String, _ sourceID: Int64, digest: String = "d1") throws -> String? {
        try SourceStore.file(name, stamp: stamp, digest: digest, of: sourceID, on: connection).map { record in
            record.isSuccess ? "ok" : "failed: \(record.error ?? "-")"
        }
    }

    func count(_ sql: String, _ parameters: [(any PostgresEncodable)?] = []) throws -> Int {
        try connection.queryValue(sql, parameters, as: Int.self) ?? -1
    }

    // MARK: - Claims that race

    @Test("two holders claiming at once: every source goes to exactly one of them")
    func concurrentClaims() throws {
        let ids = try addThree()
        // A third connection holds the rows so both claims start, and block, before either can win: they then
        // really race for the rows once it lets go.
        let blocker = try PostgresConnection(configuration: configuration)
        try blocker.query("BEGIN")
        try blocker.query("SELECT id FROM sources FOR UPDATE")
        let results = ClaimResults()
        let group = DispatchGroup()
        for holder in ["daemon-a", "daemon-b"] {
            DispatchQueue.global().async(group: group) { [configuration] in
                do {
                    let own = try PostgresConnection(configuration: configuration)
                    defer { own.close() }
                    let claimed = try SourceStore.claim(holder: holder, lease: Self.longLease, on: own)
                    results.set(holder, .success(claimed.map(\.id)))
                } catch {
                    results.set(holder, .failure(ClaimFailure(description: "\(error)")))
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        var waiting = 0
        while waiting < 2 && ContinuousClock.now < deadline {
            waiting = try count(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE sources%'
                """)
            if waiting < 2 { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(waiting == 2, "both claims should be waiting on the rows")
        try blocker.query("COMMIT")
        blocker.close()
        #expect(group.wait(timeout: .now() + 10) == .success)

        let a = try results.get("daemon-a").get()
        let b = try results.get("daemon-b").get()
        #expect(Set(a).isDisjoint(with: b), "a: \(a), b: \(b)")
        #expect((a + b).sorted() == ids)
        let stored = try holders()
        #expect(a.allSatisfy { stored[$0] == "daemon-a" } && b.allSatisfy { stored[$0] == "daemon-b" })
        // Neither steals from the other afterwards while the leases run.
        #expect(try claim("daemon-a") == a)
        #expect(try claim("daemon-b") == b)
    }

    // MARK: - Renewal, expiry, release

    @Test("a holder's renewal keeps its sources and moves its lease on; the other holder gets nothing")
    func renewalKeeps() throws {
        let ids = try addThree()
        let first = try SourceStore.claim(holder: "daemon-a", lease: Self.longLease, on: connection)
        #expect(first.map(\.id) == ids)
        #expect(first.allSatisfy { $0.holder == "daemon-a" })
        let before = try #require(first.first?.leaseUntil)
        #expect(before.timeIntervalSinceNow > 50 && before.timeIntervalSinceNow <= 61)

        #expect(try claim("daemon-b").isEmpty)
        Thread.sleep(forTimeInterval: 0.05)
        let renewed = try SourceStore.claim(holder: "daemon-a", lease: Self.longLease, on: connection)
        #expect(renewed.map(\.id) == ids)
        let after = try #require(renewed.first?.leaseUntil)
        #expect(after > before)
        #expect(try claim("daemon-b").isEmpty)
        #expect(try holders() == Dictionary(uniqueKeysWithValues: ids.map { ($0, "daemon-a") }))
        #expect(try passesFence(ids[0], "daemon-a"))
        #expect(try !passesFence(ids[0], "daemon-b"))
    }

    @Test("an expired lease fails the fence and is taken over by the other holder")
    func expiredLeaseTakenOver() throws {
        let ids = try addThree()
        let claimed = try SourceStore.claim(holder: "daemon-a", lease: .seconds(1), on: connection)
        #expect(claimed.map(\.id) == ids)
        let leaseUntil = try #require(claimed.first?.leaseUntil)
        #expect(leaseUntil.timeIntervalSinceNow > 0 && leaseUntil.timeIntervalSinceNow <= 1.1)
        #expect(try passesFence(ids[1], "daemon-a"))
        // Waits for the database's clock, which the lease is measured by, to pass the lease.
        let deadline = ContinuousClock.now + .seconds(5)
        while try count("SELECT count(*) FROM sources WHERE lease_until > now()") > 0 && ContinuousClock.now < deadline
        {
            Thread.sleep(forTimeInterval: 0.05)
        }
        // Run out, nobody else holding it yet: the old holder may not record a run, nor move the schedule.
        #expect(try !passesFence(ids[1], "daemon-a"))
        let due = try SourceStore.require(ids[0], on: connection).nextRunAt
        try SourceStore.reschedule(
            ids[0], holder: "daemon-a", delaySeconds: 3600, answersRequestsUntil: nil, on: connection)
        #expect(try SourceStore.require(ids[0], on: connection).nextRunAt == due)

        #expect(try claim("daemon-b") == ids)
        #expect(try holders() == Dictionary(uniqueKeysWithValues: ids.map { ($0, "daemon-b") }))
        #expect(try passesFence(ids[1], "daemon-b"))
        #expect(try !passesFence(ids[1], "daemon-a"))
        // The old holder waking up cannot take the sources back while the new lease runs.
        #expect(try claim("daemon-a").isEmpty)
        #expect(try holders().values.allSatisfy { $0 == "daemon-b" })

        // A holder that lost its lease cannot record a problem or move the schedule of the source either.
        let source = try SourceStore.require(ids[2], on: connection)
        #expect(throws: StoreError.conflict("source \(ids[2]) is no longer held by daemon-a")) {
            try SourceStore.recordProblem(ids[2], holder: "daemon-a", "repository gone", on: connection)
        }
        try SourceStore.reschedule(
            ids[2], holder: "daemon-a", delaySeconds: 3600, answersRequestsUntil: nil, on: connection)
        let unchanged = try SourceStore.require(ids[2], on: connection)
        #expect(unchanged.lastError == nil && unchanged.lastRunAt == nil)
        #expect(unchanged.nextRunAt == source.nextRunAt)
        #expect(try eventKinds(unchanged) == ["source.added"])
    }

    @Test("release gives every source of the holder up at once, and only its own")
    func releaseGivesUp() throws {
        let ids = try addThree()
        #expect(try claim("daemon-a") == ids)
        let late = try addInbox("/srv/inbox/late").id
        #expect(try claim("daemon-b") == [late])

        try SourceStore.release(holder: "daemon-a", on: connection)
        let released = try SourceStore.list(project: "app", on: connection)
        #expect(released.filter { ids.contains($0.id) }.allSatisfy { $0.holder == nil && $0.leaseUntil == nil })
        #expect(try holders()[late] == "daemon-b")
        #expect(try !passesFence(ids[0], "daemon-a"))
        // Taken up at once by the other holder, lease still running or not.
        #expect(try claim("daemon-b") == ids + [late])
    }

    // MARK: - Pausing

    @Test("pausing gives the lease up and keeps the source unclaimed until it is resumed")
    func pauseAndResume() throws {
        let ids = try addThree()
        #expect(try claim("daemon-a") == ids)
        let paused = try SourceStore.setPaused(ids[2], true, actor: "lead", on: connection)
        #expect(paused.isPaused && paused.holder == nil && paused.leaseUntil == nil)
        #expect(try !passesFence(ids[2], "daemon-a"))
        #expect(try claim("daemon-a") == [ids[0], ids[1]])
        #expect(try claim("daemon-b").isEmpty)
        try SourceStore.release(holder: "daemon-a", on: connection)
        #expect(try claim("daemon-b") == [ids[0], ids[1]])
        #expect(try holders()[ids[2]] == "-")

        // Pausing again changes nothing and records nothing.
        let again = try SourceStore.setPaused(ids[2], true, actor: "lead", on: connection)
        #expect(again.isPaused)
        #expect(try eventKinds(again) == ["source.added", "source.paused"])

        // Resumed: due at once and claimable again.
        Thread.sleep(forTimeInterval: 0.02)
        let resumed = try SourceStore.setPaused(ids[2], false, actor: "lead", on: connection)
        #expect(!resumed.isPaused && resumed.holder == nil)
        #expect(resumed.nextRunAt > paused.nextRunAt)
        #expect(abs(resumed.nextRunAt.timeIntervalSinceNow) < 5)
        #expect(try claim("daemon-b") == ids)
        #expect(try claim("daemon-a").isEmpty)
        let events = try SourceStore.events(of: resumed, on: connection)
        #expect(events.map(\.kind) == ["source.added", "source.paused", "source.resumed"])
        #expect(events.map(\.actor) == ["ana", "lead", "lead"])
        #expect(events.allSatisfy { $0.subject == "source \(ids[2])" && $0.project == "app" })
        #expect(events.first?.to == "repo /srv/repo branch main")
    }

    @Test("a claim gives up the lease of a source paused under its holder")
    func claimDropsPausedLease() throws {
        let ids = try addThree()
        #expect(try claim("daemon-a") == ids)
        // Paused behind the store's back (setPaused would give the lease up itself): still held until a claim.
        try connection.query("UPDATE sources SET is_paused = true WHERE id = $1", [ids[0]])
        #expect(try holders()[ids[0]] == "daemon-a")
        #expect(try !passesFence(ids[0], "daemon-a"))
        #expect(try claim("daemon-a") == [ids[1], ids[2]])
        #expect(try holders()[ids[0]] == "-")
        let row = try #require(try connection.query("SELECT lease_until FROM sources WHERE id = $1", [ids[0]]).first)
        #expect(row.values == [nil])
    }

    @Test("pause, resume, run and remove of an unknown source are notFound")
    func unknownSource() throws {
        _ = try addThree()
        let notFound = StoreError.notFound("no source 99")
        #expect(throws: notFound) { try SourceStore.setPaused(99, true, actor: "lead", on: connection) }
        #expect(throws: notFound) { try SourceStore.setPaused(99, false, actor: "lead", on: connection) }
        #expect(throws: notFound) { try SourceStore.requestRun(99, actor: "ci", on: connection) }
        #expect(throws: notFound) { try SourceStore.remove(99, actor: "lead", on: connection) }
        #expect(throws: notFound) { try SourceStore.require(99, on: connection) }
        #expect(try count("SELECT count(*) FROM events WHERE kind LIKE 'source.%'") == 3)
    }

    // MARK: - Runs

    @Test("a run recorded behind the fence: requested runs cleared, failures counted then forgotten")
    func recordedRuns() throws {
        let id = try addRepo("/srv/repo").id
        let requested = try SourceStore.requestRun(id, actor: "ci", on: connection)
        #expect(requested.isRunRequested)
        #expect(try claim("daemon-a") == [id])

        for (isSuccess, failures) in [(false, 1), (false, 2), (true, 0)] {
            let seen = try SourceStore.require(id, on: connection).nextRunAt
            try connection.transaction { connection in
                let locked = try SourceStore.lockHeld(id, holder: "daemon-a", on: connection)
                try SourceStore.recordRun(
                    locked,
                    SourceRunOutcome(
                        isSuccess: isSuccess, commit: isSuccess ? "abc123" : nil,
                        text: isSuccess ? "abc123: run 1" : "the scanner failed", nextRunDelay: 600,
                        answersRequestsUntil: seen),
                    on: connection)
            }
            let source = try SourceStore.require(id, on: connection)
            #expect(source.failures == failures)
            #expect(source.lastOutcome == SourceRunResult(isSuccess: isSuccess))
            #expect(source.lastError == (isSuccess ? nil : "the scanner failed"))
            #expect(!source.isRunRequested)
            #expect(abs(source.nextRunAt.timeIntervalSinceNow - 600) < 10)
        }
        let source = try SourceStore.require(id, on: connection)
        #expect(source.lastCommit == "abc123")
        let events = try SourceStore.events(of: source, on: connection)
        #expect(events.map(\.kind) == ["source.added", "source.requested", "source.run", "source.run", "source.run"])
        #expect(events[1].actor == "ci")
        #expect(events.dropFirst(2).map(\.to) == ["failed", "failed", "ok"])
        #expect(events.dropFirst(2).allSatisfy { $0.actor == "source:\(id)" })

        // A lasting problem is one event, not one per check.
        for _ in 0..<3 {
            try SourceStore.recordProblem(id, holder: "daemon-a", "repository unreadable", on: connection)
        }
        let troubled = try SourceStore.require(id, on: connection)
        #expect(troubled.lastError == "repository unreadable" && troubled.lastOutcome == .failed)
        #expect(try eventKinds(troubled).count == 6)

        // A run asked for forgets the backoff. A run answers the runs asked for before it started, not one asked for
        // while it went on: that one survives it, and is due at once.
        let asked = try SourceStore.requestRun(id, actor: "ci", on: connection)
        #expect(asked.isRunRequested && asked.failures == 0)
        Thread.sleep(forTimeInterval: 0.01)
        _ = try SourceStore.requestRun(id, actor: "ci", on: connection)
        // The first scan started with the first request; the second with the state the first left (as a new claim
        // would see it).
        for isAnswered in [false, true] {
            let seen = isAnswered ? try SourceStore.require(id, on: connection).nextRunAt : asked.nextRunAt
            try connection.transaction { connection in
                let locked = try SourceStore.lockHeld(id, holder: "daemon-a", on: connection)
                try SourceStore.recordRun(
                    locked,
                    SourceRunOutcome(
                        isSuccess: false, text: "the scanner failed", nextRunDelay: 600, answersRequestsUntil: seen),
                    on: connection)
            }
            let after = try SourceStore.require(id, on: connection)
            #expect(after.isRunRequested == !isAnswered)
            #expect(abs(after.nextRunAt.timeIntervalSinceNow - (isAnswered ? 600 : 0)) < 10)
        }
        // A scan that answers none (it started before any was asked for) leaves a request in place; so does a
        // reschedule.
        _ = try SourceStore.requestRun(id, actor: "ci", on: connection)
        try connection.transaction { connection in
            let locked = try SourceStore.lockHeld(id, holder: "daemon-a", on: connection)
            try SourceStore.recordRun(
                locked, SourceRunOutcome(isSuccess: true, text: "run 2", nextRunDelay: 600), on: connection)
        }
        #expect(try SourceStore.require(id, on: connection).isRunRequested)
        try SourceStore.reschedule(id, holder: "daemon-a", delaySeconds: 600, answersRequestsUntil: nil, on: connection)
        #expect(try SourceStore.require(id, on: connection).isRunRequested)
        try SourceStore.reschedule(
            id, holder: "daemon-a", delaySeconds: 600,
            answersRequestsUntil: try SourceStore.require(id, on: connection).nextRunAt, on: connection)
        #expect(try !SourceStore.require(id, on: connection).isRunRequested)
    }

    // MARK: - Inbox files

    @Test("the file ledger: a file is found again by name, stamp and digest until it leaves the inbox")
    func fileLedger() throws {
        let source = try addInbox("/srv/inbox/one")
        let other = try addInbox("/srv/inbox/two")
        #expect(try ledger("scan.json", "11:1700000000:42", source.id) == nil)
        try SourceStore.recordFile(
            "scan.json", stamp: "11:1700000000:42", digest: "d1", of: source.id, scanRun: nil, error: nil,
            on: connection)
        try SourceStore.recordFile(
            "bad.json", stamp: "12:1700000000:7", digest: "d2", of: source.id, scanRun: nil,
            error: "not valid JSON (BADARG)", on: connection)

        #expect(try ledger("scan.json", "11:1700000000:42", source.id) == "ok")
        #expect(try ledger("bad.json", "12:1700000000:7", source.id, digest: "d2") == "failed: not valid JSON (BADARG)")
        // Another file of the same name (another stamp or other bytes), or the same name in another source: not
        // dealt with.
        #expect(try ledger("scan.json", "13:1700000100:42", source.id) == nil)
        #expect(try ledger("scan.json", "11:1700000000:42", source.id, digest: "d9") == nil)
        #expect(try ledger("scan.json", "11:1700000000:42", other.id) == nil)

        // Once the file has left the inbox, the same file met again (moved back in) is a new drop; recording it
        // again replaces its record.
        try SourceStore.fileMoved("bad.json", stamp: "12:1700000000:7", of: source.id, on: connection)
        #expect(try ledger("bad.json", "12:1700000000:7", source.id, digest: "d2") == nil)
        try SourceStore.recordFile(
            "bad.json", stamp: "12:1700000000:7", digest: "d2", of: source.id, scanRun: nil, error: nil,
            on: connection)
        #expect(try ledger("bad.json", "12:1700000000:7", source.id, digest: "d2") == "ok")
        #expect(try count("SELECT count(*) FROM source_files WHERE source_id = $1", [source.id]) == 2)
        // The same name with a new stamp is a new file and is recorded.
        try SourceStore.recordFile(
            "scan.json", stamp: "13:1700000100:42", digest: "d1", of: source.id, scanRun: nil, error: nil,
            on: connection)
        #expect(try count("SELECT count(*) FROM source_files WHERE source_id = $1", [source.id]) == 3)

        // Removing the source removes its ledger, not the other source's.
        try SourceStore.recordFile(
            "scan.json", stamp: "11:1700000000:42", digest: "d1", of: other.id, scanRun: nil, error: nil,
            on: connection)
        try SourceStore.remove(source.id, actor: "lead", on: connection)
        #expect(try count("SELECT count(*) FROM source_files WHERE source_id = $1", [source.id]) == 0)
        #expect(try count("SELECT count(*) FROM source_files WHERE source_id = $1", [other.id]) == 1)
    }

    // MARK: - Settings

    @Test("add, list by project, and remove: the source is gone, its history stays")
    func addListRemove() throws {
        _ = try ProjectStore.create(name: "web", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        let inbox = try addInbox("/srv/inbox/one")
        let repo = try addRepo("/srv/repo", everySeconds: 30)
        let web = try addInbox("/srv/inbox/web", project: "web")

        #expect(inbox.settings == .inbox("/srv/inbox/one", format: "duo-scan", settleSeconds: 5))
        #expect(inbox.project == "app" && inbox.createdBy == "ana" && !inbox.isPaused && inbox.holder == nil)
        #expect(inbox.summary == "inbox /srv/inbox/one")
        #expect(
            repo.settings
                == .repo(
                    "/srv/repo", format: "sarif", branch: "main", scanner: "scan {root}", everySeconds: 30,
                    timeoutSeconds: 60, maximumOutput: 1 << 20))
        #expect(try SourceStore.list(project: "app", on: connection).map(\.id) == [inbox.id, repo.id])
        #expect(try SourceStore.list(project: "web", on: connection).map(\.id) == [web.id])
        #expect(try SourceStore.list(project: nil, on: connection).map(\.id) == [inbox.id, repo.id, web.id])
        #expect(throws: StoreError.notFound("no project named 'ghost'")) {
            try SourceStore.list(project: "ghost", on: connection)
        }

        try SourceStore.remove(repo.id, actor: "lead", on: connection)
        #expect(throws: StoreError.notFound("no source \(repo.id)")) {
            try SourceStore.require(repo.id, on: connection)
        }
        #expect(try SourceStore.list(project: nil, on: connection).map(\.id) == [inbox.id, web.id])
        let history = try SourceStore.events(of: repo, on: connection)
        #expect(history.map(\.kind) == ["source.added", "source.removed"])
        #expect(history.last?.from == "repo /srv/repo branch main" && history.last?.actor == "lead")
        #expect(throws: StoreError.notFound("no source \(repo.id)")) {
            try SourceStore.remove(repo.id, actor: "lead", on: connection)
        }
    }

    @Test("an inbox another source reads is a conflict naming that source, and nothing is stored")
    func inboxConflict() throws {
        let first = try addInbox("/srv/inbox/one")
        #expect(throws: StoreError.conflict("source \(first.id) already reads the inbox /srv/inbox/one")) {
            try addInbox("/srv/inbox/one")
        }
        #expect(try SourceStore.list(project: nil, on: connection).map(\.id) == [first.id])
        #expect(try count("SELECT count(*) FROM events WHERE kind = 'source.added'") == 1)
        // The connection is fit for the next statement.
        #expect(try addInbox("/srv/inbox/two").id > first.id)
    }

    @Test("settings the schema refuses are invalid, and nothing is stored")
    func outOfRangeSettings() throws {
        let refused: [SourceSettings] = [
            .inbox("relative/inbox", format: "duo-scan", settleSeconds: 5),
            .inbox("/srv/inbox", format: "duo-scan", settleSeconds: 3601),
            .inbox("/srv/inbox", format: "xml", settleSeconds: 5),
            .repo(
                "/srv/repo", format: "sarif", branch: "main", scanner: "scan", everySeconds: 5, timeoutSeconds: 60,
                maximumOutput: 1 << 20),
            .repo(
                "/srv/repo", format: "sarif", branch: "main", scanner: "scan", everySeconds: 600, timeoutSeconds: 60,
                maximumOutput: 512),
        ]
        for settings in refused {
            #expect(throws: StoreError.invalid("those source settings are out of range")) {
                try SourceStore.add(settings, to: "app", actor: "ana", on: connection)
            }
        }
        #expect(try count("SELECT count(*) FROM sources") == 0)
        #expect(try count("SELECT count(*) FROM events WHERE kind LIKE 'source.%'") == 0)
        #expect(throws: StoreError.notFound("no project named 'ghost'")) {
            try addInbox("/srv/inbox", project: "ghost")
        }
    }
}

/// What one claim of the race returned, by holder; written from the claiming threads.
private final class ClaimResults: Sendable {
    private let results = Mutex<[String: Result<[Int64], ClaimFailure>]>([:])

    func set(_ holder: String, _ result: Result<[Int64], ClaimFailure>) {
        results.withLock { $0[holder] = result }
    }

    func get(_ holder: String) -> Result<[Int64], ClaimFailure> {
        results.withLock { $0[holder] } ?? .failure(ClaimFailure(description: "\(holder) did not finish"))
    }
}

/// A claim that threw, as text.
private struct ClaimFailure: Error, CustomStringConvertible {
    var description: String
}
