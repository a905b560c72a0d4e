import BarkeepProtocol
import Testing

@testable import BarkeepServer

/// An event without a Store: its kind is what filters choose from.
struct TestEvent: WatchEvent, Equatable {
    var seq: Int64
    var kind = "a"

    func matches(_ filter: Set<String>) -> Bool { filter.isEmpty || filter.contains(kind) }

    var watchLine: String { "seq=\(seq) kind=\(kind)" }
}

/// A command table whose WATCH streams carry `TestEvent`s: every request runs.
struct WatchingCommands: ConnectionCommands {
    typealias Event = TestEvent

    func constantReply(for line: ArraySlice<UInt8>) -> [UInt8]? { nil }

    func resolve(_ request: Request) -> RequestResolution<Request> { .accepted(request, payloadSize: nil) }
}

@Suite("Watch machine")
struct WatchMachineTests {
    /// A connection that sent WATCH and streams from `since`.
    static func watching(backlog: Int = 400, since: Int64 = 0, kinds: Set<String> = []) -> (
        ConnectionMachine<WatchingCommands>, ContinuousClock.Instant
    ) {
        let now = ContinuousClock.now
        var machine = ConnectionMachine(
            commands: WatchingCommands(),
            limits: ConnectionLimits(
                maximumLineLength: 64, maximumPendingOutput: 1 << 20, uploadTimeout: .seconds(30),
                maximumWatcherBacklog: backlog),
            now: now)
        machine.receive(Array("WATCH\n".utf8)[...], now: now)
        _ = machine.nextAction(now: now, uploadRoom: 0)
        machine.complete(
            .ok("watching"), watch: WatchMachine(projectID: 1, project: "p", since: since, filter: kinds))
        return (machine, now)
    }

    /// The output not written yet.
    static func pending(_ machine: ConnectionMachine<WatchingCommands>) -> String {
        machine.withPendingOutput { String(decoding: $0, as: UTF8.self) }
    }

    /// The machine's next action, in words.
    static func next(_ machine: inout ConnectionMachine<WatchingCommands>) -> String {
        switch machine.nextAction(now: .now, uploadRoom: 0) {
        case .requestEvents(let projectID, let after): "events \(projectID) after \(after)"
        case .write: "write"
        case .wait: "wait"
        case .abandon: "abandon"
        default: "other"
        }
    }

    @Test("replay pages are asked for one at a time after the cursor, which the filter's skips move on too")
    func replay() {
        var (machine, _) = Self.watching(since: 5, kinds: ["a"])
        #expect(Self.next(&machine) == "events 1 after 5")
        #expect(Self.next(&machine) == "wait")
        machine.receiveEvents(
            [TestEvent(seq: 4), TestEvent(seq: 6), TestEvent(seq: 7, kind: "b")], isComplete: false)
        #expect(machine.watch?.lastSent == 7)
        #expect(Self.next(&machine) == "events 1 after 7")
        // Live events wait until the replay caught up; then only newer ones are taken.
        let early = machine.receiveLiveEvent(TestEvent(seq: 8))
        machine.receiveEvents([TestEvent(seq: 8)], isComplete: true)
        let repeated = machine.receiveLiveEvent(TestEvent(seq: 8))
        let new = machine.receiveLiveEvent(TestEvent(seq: 9))
        let old = machine.receiveLiveEvent(TestEvent(seq: 2))
        #expect(!early && !repeated && new && !old && machine.watch?.lastSent == 9)
        #expect(Self.pending(machine) == "OK watching\nseq=6 kind=a\nseq=8 kind=a\nseq=9 kind=a\n")
        #expect(Self.next(&machine) == "wait")
    }

    @Test("a page is asked for only under a quarter of the backlog, after what the socket takes is written")
    func lowWater() {
        var (machine, _) = Self.watching(backlog: 400)
        #expect(Self.next(&machine) == "events 1 after 0")
        // 12 lines of 14 bytes and the OK: over 100, under 400.
        machine.receiveEvents((1...12).map { TestEvent(seq: $0) }, isComplete: false)
        #expect(Self.next(&machine) == "write")
        #expect(Self.next(&machine) == "wait")
        machine.written(machine.pendingOutputCount)
        #expect(Self.next(&machine) == "events 1 after 12")
    }

    @Test("a watcher past its backlog is told where to resume and dropped; an ended stream says why")
    func fallsBehind() {
        var (machine, _) = Self.watching(backlog: 100)
        #expect(Self.next(&machine) == "events 1 after 0")
        machine.receiveEvents((1...12).map { TestEvent(seq: $0) }, isComplete: true)
        #expect(Self.next(&machine) == "abandon")
        #expect(Self.pending(machine).hasSuffix("seq=12 kind=a\nERR BUSY watcher fell behind; resume with since=12\n"))
        let late = machine.receiveLiveEvent(TestEvent(seq: 13))
        #expect(machine.isClosing && !late)

        var (ended, _) = Self.watching()
        #expect(Self.next(&ended) == "events 1 after 0")
        ended.receiveEvents([], isComplete: true)
        let taken = ended.receiveLiveEvent(TestEvent(seq: 1))
        ended.endStream(.error(.notFound, "project 'p' was deleted"))
        #expect(taken && Self.next(&ended) == "wait")
        #expect(Self.pending(ended) == "OK watching\nseq=1 kind=a\nERR NOTFOUND project 'p' was deleted\n")
        ended.written(ended.pendingOutputCount)
        #expect(ended.isFinished)
    }
}
