import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `StatusVersionLookup` against a real PostgreSQL, driven as the event loop drives it: `tick`, then
/// `handleReadiness` whenever its socket is ready for what its registration asks.
@Suite("Status version lookups over a non-blocking connection")
struct StatusVersionLookupTests {
    /// Drives `lookup` until it is ready (or `deadline`), answering nothing.
    private func connect(_ lookup: StatusVersionLookup<Int>, deadline: ContinuousClock.Instant) {
        while !lookup.isReady, ContinuousClock.now < deadline {
            _ = lookup.tick(now: .now)
            _ = lookup.handleReadiness()
            wait(lookup)
        }
    }

    /// Waits up to 50 ms for the socket to be ready for what the lookup asks.
    private func wait(_ lookup: StatusVersionLookup<Int>) {
        guard let registration = lookup.registration else {
            usleep(10_000)
            return
        }
        let events = (registration.wantsRead ? POLLIN : 0) | (registration.wantsWrite ? POLLOUT : 0)
        var descriptor = pollfd(fd: registration.socket, events: Int16(events), revents: 0)
        _ = poll(&descriptor, 1, 50)
    }

    @Test("answers pipelined lookups in order: versions, an unknown project, a revoked token; refuses a NUL")
    func answersInOrder() throws {
        let configuration = try TestDatabase.makeDatabase()
        let connection = try PostgresConnection(configuration: configuration)
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "t", on: connection)
        _ = try ProjectStore.create(name: "web", sdk: nil, deploymentTarget: nil, actor: "t", on: connection)
        let active = try TokenStore.create(name: "a", role: .reader, actor: "t", on: connection).0.id
        let revoked = try TokenStore.create(name: "r", role: .reader, actor: "t", on: connection).0.id
        try TokenStore.revoke(name: "r", actor: "t", on: connection)
        let app = try StatusStore.version(project: "app", on: connection)
        let web = try StatusStore.version(project: "web", on: connection)

        let lookup = StatusVersionLookup<Int>(configuration: configuration)
        #expect(!lookup.submit(project: "app", checkingToken: nil, tag: 0))  // not connected yet
        let deadline = ContinuousClock.now + .seconds(30)
        connect(lookup, deadline: deadline)
        #expect(lookup.isReady)
        #expect(!lookup.submit(project: "a\0b", checkingToken: nil, tag: 0))
        let requests: [(String, Int64?)] = [
            ("app", nil), ("web", active), ("nope", nil), ("app", revoked), ("web", nil),
        ]
        for (tag, request) in requests.enumerated() {
            #expect(lookup.submit(project: request.0, checkingToken: request.1, tag: tag))
        }
        var answers: [(tag: Int, answer: StatusVersionLookup<Int>.Answer?)] = []
        while answers.count < requests.count, ContinuousClock.now < deadline {
            wait(lookup)
            answers += lookup.handleReadiness()
        }
        typealias Answer = StatusVersionLookup<Int>.Answer
        #expect(answers.map(\.tag) == [0, 1, 2, 3, 4])
        #expect(
            answers.map(\.answer) == [
                Answer(version: app, isTokenActive: true), Answer(version: web, isTokenActive: true),
                Answer(version: nil, isTokenActive: true), Answer(version: app, isTokenActive: false),
                Answer(version: web, isTokenActive: true),
            ])
        #expect(lookup.pendingCount == 0)
    }

    @Test("a dropped connection fails its pending lookups, then connects again")
    func dropAndReconnect() throws {
        let configuration = try TestDatabase.makeDatabase()
        let connection = try PostgresConnection(configuration: configuration)
        try Migrator().migrate(connection)
        let lookup = StatusVersionLookup<Int>(configuration: configuration.with(applicationName: "lookup-test"))
        let deadline = ContinuousClock.now + .seconds(30)
        connect(lookup, deadline: deadline)
        #expect(lookup.isReady)
        try connection.query(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'lookup-test' AND datname = current_database()
            """)
        // Sent before or after the loop notices: either refused now or answered nil later, never answered.
        var failed: [Int] = []
        if !lookup.submit(project: "app", checkingToken: nil, tag: 7) { failed.append(7) }
        while failed.isEmpty, ContinuousClock.now < deadline {
            wait(lookup)
            failed += lookup.handleReadiness().filter { $0.answer == nil }.map(\.tag)
            failed += lookup.tick(now: .now)
        }
        #expect(failed == [7])
        #expect(!lookup.isReady)
        connect(lookup, deadline: deadline)
        #expect(lookup.isReady)
        #expect(lookup.submit(project: "app", checkingToken: nil, tag: 8))
    }
}
