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

    @Test(
        "answers every key of one lookup in order: versions, unknown projects, a revoked token; one lookup at a time"
    )
    func answersInOrder() throws {
        let configuration = try TestDatabase.makeDatabase()
        let connection = try PostgresConnection(configuration: configuration)
        try Migrator().migrate(connection)
        // A project named NULL: the array's elements are quoted.
        for name in ["app", "web", "NULL"] {
            _ = try ProjectStore.create(name: name, sdk: nil, deploymentTarget: nil, actor: "t", on: connection)
        }
        let active = try TokenStore.create(name: "a", role: .reader, actor: "t", on: connection).0.id
        let revoked = try TokenStore.create(name: "r", role: .reader, actor: "t", on: connection).0.id
        try TokenStore.revoke(name: "r", actor: "t", on: connection)
        let app = try StatusStore.version(project: "app", on: connection)
        let web = try StatusStore.version(project: "web", on: connection)
        let null = try StatusStore.version(project: "NULL", on: connection)
        #expect(app != nil && web != nil && null != nil)

        let lookup = StatusVersionLookup<Int>(configuration: configuration)
        let app0 = StatusLookupKey(project: "app", tokenID: nil)
        #expect(!lookup.submit([app0], tag: 0))  // not connected yet
        let deadline = ContinuousClock.now + .seconds(30)
        connect(lookup, deadline: deadline)
        #expect(lookup.isReady)
        #expect(!lookup.submit([app0, StatusLookupKey(project: "a\0b", tokenID: nil)], tag: 0))
        #expect(!lookup.submit([], tag: 0))
        let keys = [
            app0, StatusLookupKey(project: "web", tokenID: active), StatusLookupKey(project: "nope", tokenID: nil),
            StatusLookupKey(project: "app", tokenID: revoked), StatusLookupKey(project: "NULL", tokenID: nil),
            // No such project (no name has these characters), its quote and backslash escaped.
            StatusLookupKey(project: #"q"u\o,te{}"#, tokenID: active),
        ]
        #expect(lookup.submit(keys, tag: 1))
        // One lookup in flight at a time.
        #expect(lookup.isInFlight)
        #expect(!lookup.submit([app0], tag: 2))
        var answers: [(tag: Int, answers: [StatusLookupAnswer]?)] = []
        while answers.isEmpty, ContinuousClock.now < deadline {
            wait(lookup)
            answers += lookup.handleReadiness()
        }
        #expect(answers.map(\.tag) == [1])
        #expect(
            answers.first?.answers == [
                StatusLookupAnswer(version: app, isTokenActive: true),
                StatusLookupAnswer(version: web, isTokenActive: true),
                StatusLookupAnswer(version: nil, isTokenActive: true),
                StatusLookupAnswer(version: app, isTokenActive: false),
                StatusLookupAnswer(version: null, isTokenActive: true),
                StatusLookupAnswer(version: nil, isTokenActive: true),
            ])
        #expect(!lookup.isInFlight)
        #expect(lookup.submit([app0], tag: 3))
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
        if !lookup.submit([StatusLookupKey(project: "app", tokenID: nil)], tag: 7) { failed.append(7) }
        while failed.isEmpty, ContinuousClock.now < deadline {
            wait(lookup)
            failed += lookup.handleReadiness().filter { $0.answers == nil }.map(\.tag)
            failed += lookup.tick(now: .now)
        }
        #expect(failed == [7])
        #expect(!lookup.isReady)
        connect(lookup, deadline: deadline)
        #expect(lookup.isReady)
        #expect(lookup.submit([StatusLookupKey(project: "app", tokenID: nil)], tag: 8))
    }
}
