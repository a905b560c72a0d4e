import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

@testable import BarkeepServer

/// Streamed replies (`FINDINGS`, `MINE`) against a real database: the bytes are those of the whole reply however the
/// client reads, through reads that give their database connection up and go on from where they stopped; a reader
/// that does not read starves no one of the pool.
@Suite("Streamed replies")
struct StreamedReplyTests {
    /// A project `app` of 1,500 scanner findings (five rules a line on 300 lines of 30 files, so that file and line
    /// repeat; a reply of about a megabyte, several times what the kernel's socket buffers hold) and 200 items
    /// without file or line; 600 of the findings assigned to `dana`, who owns the screen Inbox.
    static func seed(_ database: PostgresConfiguration) throws {
        let connection = try PostgresConnection(configuration: database)
        defer { connection.close() }
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        let rules = ["DUO001", "DUO003", "DUO007", "DUO013", "DUO020"]
        let advice = String(repeating: "Let the system place the bars on the side the device reports. ", count: 5)
        let findings = (0..<1500).map { index in
            #"{"rule":"\#(rules[index % 5])","severity":"low","file":"Sources/F\#(index / 50).swift","#
                + #""line":\#(index / 5 % 10 + 1),"snippet":"code \#(index)","advice":"\#(advice)\#(index)"}"#
        }
        let bytes = Array(#"{"tool":"duo_scan","findings":[\#(findings.joined(separator: ","))]}"#.utf8)
        _ = try Ingestor.ingest(
            IngestRequest(ScanUpload(bytes), format: .duoScan, project: "app", actor: "ci"), on: connection)
        _ = try ScreenStore.add(
            project: "app", key: "Inbox", kind: .screen, title: nil, owner: "dana", paths: ["Sources/F1*.swift"],
            actor: "test", on: connection)
        for index in 0..<200 {
            _ = try ItemStore.add(
                NewItem(screen: "Inbox", step: 1 + index % 12, title: "item \(index)"), to: "app", actor: "test",
                on: connection)
        }
        _ = try FindingStore.assign(
            project: "app", of: .numbers(Array(stride(from: 1, through: 1199, by: 2))),
            to: "dana", actor: "test", isDryRun: false, on: connection)
    }

    /// The reply `FINDINGS app [keywords]` had when it was built whole, from the store's listing.
    static func wholeFindings(_ database: PostgresConfiguration, _ query: FindingQuery) throws -> String {
        let connection = try PostgresConnection(configuration: database)
        defer { connection.close() }
        let findings = try FindingStore.list(project: "app", query: query, on: connection)
        return FindingsRequest.Reply(findings.map(FindingRecord.init), summary: nil).reply(version: 2).encoded
    }

    /// The reply `MINE app as=dana` had when it was built whole.
    static func wholeMine(_ database: PostgresConfiguration) throws -> String {
        let connection = try PostgresConnection(configuration: database)
        defer { connection.close() }
        let screens = try ScreenStore.list(project: "app", on: connection)
            .filter { ScreenOwner.matches($0.screen.owner, kind: $0.screen.kind, filter: "dana") }
            .map(ScreenRecord.init)
        let findings = try FindingStore.list(
            project: "app", query: FindingQuery(statuses: FindingQuery.defaultStatuses, assignee: .name("dana")),
            on: connection)
        let parts = MineParts(screens: screens, findings: findings.map(FindingRecord.init))
        return MineRequest.Reply(parts, summary: MineSummary(name: "dana")).reply(version: 2).encoded
    }

    /// Reads lines from `client` up to and including the final line, `pause` called after every `every` lines.
    static func readReply(_ client: LineClient, pausingEvery every: Int = .max, _ pause: () throws -> Void = {})
        throws -> String
    {
        var text = ""
        var lines = 0
        while let line = try client.readLine() {
            text += line + "\n"
            lines += 1
            if line.hasPrefix("OK") || line.hasPrefix("ERR") { return text }
            if lines % every == 0 { try pause() }
        }
        throw TestSupportError("the connection closed after \(lines) lines")
    }

    @Test("FINDINGS and MINE stream the bytes of the whole reply, also when the client pauses and the read lets go")
    func sameBytes() throws {
        // A small bound and a short hold: the reads give their connection up at every pause and go on after it.
        let running = try RunningServer.withDatabase(
            poolSize: 2, maximumPendingOutput: 8 << 10, streamHold: .milliseconds(100))
        let database = try #require(running.database)
        let pool = try #require(running.pool)
        try Self.seed(database)

        let client = try running.owner()
        client.shrinkReceiveBuffer()
        try client.send("FINDINGS app status=all\nPING\n")
        // Pauses every 100 lines (about 50 KB), far less than what the socket and the output bound hold: at each
        // pause before the read's end the server has a page it cannot write, so the read lets go however fast or
        // slow either side runs, and goes on in a new read once the client reads again.
        var pauses = 0
        let paused = try Self.readReply(client, pausingEvery: 100) {
            // The client stops reading until the read has let its database connection go.
            pauses += 1
            #expect(eventually(.seconds(30)) { pool.usage.busy == 0 })
        }
        #expect(paused == (try Self.wholeFindings(database, FindingQuery())))
        #expect(pauses >= 10 && running.server.statistics.streamReadsResumed >= 2)
        #expect(try client.readLine() == "OK PONG")

        // Read at once, with a filter; then MINE, whose screens lead its first page.
        try client.send("FINDINGS app severity=low\n")
        #expect(
            try Self.readReply(client)
                == (try Self.wholeFindings(
                    database, FindingQuery(statuses: FindingQuery.defaultStatuses, severities: [.low]))))
        try client.send("MINE app as=dana\n")
        let mine = try Self.readReply(client, pausingEvery: 250) {
            #expect(eventually(.seconds(30)) { pool.usage.busy == 0 })
        }
        #expect(mine == (try Self.wholeMine(database)))
        #expect(mine.hasPrefix("* type=screen key=Inbox") && mine.hasSuffix("OK name=dana count=601\n"))

        // A reply that fits in one page, and a refusal before any record, are as they always were.
        try client.send("FINDINGS app rule=DUO001 file=Sources/F3.swift\nFINDINGS app screen=Nope\n")
        #expect(try Self.readReply(client).hasSuffix("OK count=10\n"))
        #expect(try client.readLine()?.hasPrefix("ERR NOTFOUND no screen 'Nope'") == true)
    }

    @Test("RUNS streams the newest runs up to its limit, across reads that let go")
    func runs() throws {
        let running = try RunningServer.withDatabase(maximumPendingOutput: 4 << 10, streamHold: .milliseconds(100))
        let database = try #require(running.database)
        let pool = try #require(running.pool)
        let connection = try PostgresConnection(configuration: database)
        defer { connection.close() }
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        try connection.query(
            """
            INSERT INTO scan_runs (project_id, format, tool, digest, actor)
            SELECT p.id, 'duo-scan', 'tool' || i % 3, encode(sha256(int4send(i)), 'hex'), 'ci'
            FROM projects p, generate_series(1, 6000) AS i
            """)
        var whole: [Record] = []
        try ScanStore.runPages(of: "app", limit: 5000, after: nil, pageSize: 9000, on: connection) { runs, _ in
            whole = runs.map { RunRecord($0).record(version: ProtocolVersion.supported.upperBound) }
            return true
        }
        #expect(whole.count == 5000 && whole.first?["id"] == "6000")

        let client = try running.owner()
        client.shrinkReceiveBuffer()
        try client.send("RUNS app limit=5000\n")
        let reply = try Self.readReply(client, pausingEvery: 250) {
            #expect(eventually(.seconds(30)) { pool.usage.busy == 0 })
        }
        #expect(reply == Reply.records(whole).encoded)
        #expect(running.server.statistics.streamReadsResumed >= 1)
    }

    @Test("docs/operations.md states the page, the hold and the memory thresholds as the code has them")
    func documentedBounds() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        let page = StreamedReply.recordsPerPage
        #expect(text.contains("fetches \(page) records a page") && text.contains("two pages (\(page) records each"))
        let hold = ServerConfiguration(addresses: [], ownerUID: 0).streamHold
        #expect(text.contains("for at most \(hold.components.seconds) seconds, and"))
        #expect(
            text.contains("for at most \(Int(PageHandOff.pressureCheck.milliseconds)) ms once another command waits"))
        #expect(FreedMemory.largeBlock == 1 << 20 && text.contains("thresholds at 1 MiB"))
        #expect(FreedMemory.uploadThreshold == 1 << 20 && text.contains("After an upload of 1 MiB or more"))
    }

    @Test("a reader that does not read holds no database connection others wait for")
    func pausedReaderStarvesNoOne() throws {
        // One database connection and a hold far longer than the test: only the others' waiting makes the read let go.
        let running = try RunningServer.withDatabase(poolSize: 1, streamHold: .seconds(600))
        let database = try #require(running.database)
        try Self.seed(database)
        let reader = try running.owner()
        reader.shrinkReceiveBuffer()
        try reader.send("FINDINGS app status=all\n")
        #expect(eventually(.seconds(30)) { reader.hasUnreadBytes() })

        let other = try running.owner()
        let started = ContinuousClock.now
        #expect(try other.request("PROJECT LIST")?.hasPrefix("* name=app ") == true)
        #expect(try other.readLine() == "OK count=1")
        #expect(ContinuousClock.now - started < .seconds(10))

        // The paused reply goes on when read, to its end.
        #expect(try Self.readReply(reader) == (try Self.wholeFindings(database, FindingQuery())))
    }

    @Test("a reader that leaves mid-reply ends its read; the server serves on")
    func readerLeaves() throws {
        let running = try RunningServer.withDatabase(poolSize: 1, streamHold: .seconds(600))
        let pool = try #require(running.pool)
        try Self.seed(try #require(running.database))
        do {
            let reader = try running.owner()
            reader.shrinkReceiveBuffer()
            try reader.send("FINDINGS app status=all\n")
            #expect(eventually(.seconds(30)) { reader.hasUnreadBytes() && pool.usage.busy == 1 })
        }
        // The connection closed: its read stops at once, not after the hold.
        #expect(eventually(.seconds(30)) { pool.usage.busy == 0 })
        #expect(try running.owner().request("PROJECT LIST")?.hasPrefix("* name=app ") == true)
    }
}
