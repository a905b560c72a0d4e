import BarkeepCore
import Foundation
import Testing

@testable import BarkeepServer

/// An event an HTTP machine under test streams: its kind a Core kind, its JSON made up.
struct StreamEvent: WatchEvent {
    var seq: Int64
    var kind: EventKind = .findingStatus

    func matches(_ filter: EventFilter) -> Bool {
        filter.matches(kind: kind.rawValue, screen: nil, screens: [], finding: nil)
    }

    var watchLine: String { "seq=\(seq) kind=\(kind.rawValue)" }

    var streamFrame: String { "id: \(seq)\nevent: \(kind.rawValue)\ndata: {\"seq\":\(seq)}\n\n" }
}

/// The event-stream state of `HTTPMachine` (docs/design/web-dashboard.md, section 6): Server-Sent Events framing,
/// replay then live with a cursor that never goes back, keep-alive comments, the backlog bound, and nothing read after.
@Suite("HTTP event stream")
struct HTTPEventStreamTests {
    static let streamRequest =
        "GET /api/v1/projects/p/events/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"

    /// A machine that received the stream request and was answered with a stream from `since`.
    static func streaming(
        since: Int64 = 0, filter: EventFilter = EventFilter(), limits: HTTPLimits = HTTPLimits(),
        lifetime: Duration? = nil, now: ContinuousClock.Instant
    ) -> HTTPMachine<StreamEvent> {
        var machine = HTTPMachine<StreamEvent>(limits: limits, now: now)
        machine.receive(Array(streamRequest.utf8)[...], now: now)
        guard case .execute = machine.nextAction(now: now) else { return machine }
        machine.complete(
            .eventStream(
                HTTPEventStream(
                    projectID: 7, project: "p", since: since, filter: filter, tokenName: "ci", lifetime: lifetime)),
            now: now)
        return machine
    }

    static func take(_ machine: inout HTTPMachine<StreamEvent>) -> String {
        let count = machine.withPendingOutput { $0.count }
        let text = machine.withPendingOutput { String(decoding: $0, as: UTF8.self) }
        machine.written(count)
        return text
    }

    @Test("the stream's head has no length and closes; retry first, then each event as id, event and data")
    func framing() {
        let now = ContinuousClock.now
        var machine = Self.streaming(since: 4, now: now)
        #expect(machine.isStreaming && machine.startedStream?.tokenName == "ci")
        #expect(machine.nextAction(now: now) == .requestEvents(projectID: 7, after: 4))
        #expect(machine.nextAction(now: now) == .wait)
        let head = Self.take(&machine)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.contains("Content-Type: text/event-stream; charset=utf-8\r\n"))
        #expect(head.contains("Cache-Control: no-store\r\n") && head.contains("Connection: close\r\n"))
        #expect(!head.contains("Content-Length"))
        #expect(head.hasSuffix("\r\n\r\nretry: 1000\n\n"))
        // The replay: an event at or below the cursor is never sent again; the page completes the replay.
        machine.receivePage(
            [StreamEvent(seq: 4), StreamEvent(seq: 5), StreamEvent(seq: 6)], isComplete: true, now: now)
        #expect(machine.nextAction(now: now) == .wait)
        #expect(
            Self.take(&machine)
                == "id: 5\nevent: finding.status\ndata: {\"seq\":5}\n\nid: 6\nevent: finding.status\ndata: {\"seq\":6}\n\n"
        )
        // Live: old events are not taken, new ones are.
        let result1 = machine.receiveLive(StreamEvent(seq: 6), now: now)
        #expect(!result1)
        let result2 = machine.receiveLive(StreamEvent(seq: 7), now: now)
        #expect(result2)
        #expect(machine.nextAction(now: now) == .wait)
        #expect(Self.take(&machine) == "id: 7\nevent: finding.status\ndata: {\"seq\":7}\n\n")
        #expect(machine.eventStream?.lastSent == 7)
    }

    @Test("a live event before the replay caught up waits for the replay; the filter moves the cursor past the rest")
    func replayThenLive() {
        let now = ContinuousClock.now
        var machine = Self.streaming(filter: EventFilter(kinds: [.findingStatus]), now: now)
        _ = machine.nextAction(now: now)
        _ = Self.take(&machine)
        let result3 = machine.receiveLive(StreamEvent(seq: 3), now: now)
        #expect(!result3)
        machine.receivePage(
            [StreamEvent(seq: 1), StreamEvent(seq: 2, kind: .findingAssigned), StreamEvent(seq: 3)], isComplete: false,
            now: now)
        #expect(machine.nextAction(now: now) == .requestEvents(projectID: 7, after: 3))
        machine.receivePage([], isComplete: true, now: now)
        #expect(machine.nextAction(now: now) == .wait)
        let text = Self.take(&machine)
        #expect(text.contains("id: 1\n") && !text.contains("id: 2\n") && text.contains("id: 3\n"))
    }

    @Test("a quiet stream sends a keep-alive comment every 15 s of silence; an event restarts the count")
    func keepAlive() {
        let start = ContinuousClock.now
        var machine = Self.streaming(now: start)
        machine.receivePage([], isComplete: true, now: start)
        _ = machine.nextAction(now: start)
        _ = Self.take(&machine)
        #expect(HTTPLimit.eventStreamKeepAliveSeconds == 15)
        #expect(machine.nextDeadline == start + .seconds(15))
        let result4 = machine.expire(now: start + .seconds(14))
        #expect(!result4)
        #expect(Self.take(&machine).isEmpty)
        let result5 = machine.expire(now: start + .seconds(15))
        #expect(result5)
        #expect(Self.take(&machine) == ": keep-alive\n\n")
        #expect(machine.nextDeadline == start + .seconds(30) && machine.isStreaming)
        let isTaken = machine.receiveLive(StreamEvent(seq: 1), now: start + .seconds(20))
        #expect(isTaken)
        #expect(machine.nextDeadline == start + .seconds(35))
    }

    @Test("a stream a cookie session opened closes when the session expires, between keep-alives")
    func sessionEnd() {
        let start = ContinuousClock.now
        var machine = Self.streaming(lifetime: .seconds(20), now: start)
        machine.receivePage([], isComplete: true, now: start)
        _ = machine.nextAction(now: start)
        _ = Self.take(&machine)
        #expect(machine.nextDeadline == start + .seconds(15))
        let kept = machine.expire(now: start + .seconds(15))
        #expect(kept && machine.isStreaming && !machine.isClosing)
        #expect(Self.take(&machine) == ": keep-alive\n\n")
        // The session ends before the next keep-alive is due: that is the deadline, and passing it closes.
        #expect(machine.nextDeadline == start + .seconds(20))
        let ended = machine.expire(now: start + .seconds(20))
        #expect(ended && machine.isClosing && machine.isFinished)
        // Without a lifetime (a Bearer token) the stream has only its keep-alive deadline.
        var bearer = Self.streaming(now: start)
        bearer.receivePage([], isComplete: true, now: start)
        _ = bearer.nextAction(now: start)
        _ = Self.take(&bearer)
        _ = bearer.expire(now: start + .seconds(15))
        #expect(bearer.nextDeadline == start + .seconds(30) && !bearer.isClosing)
    }

    @Test("a client that falls behind its backlog ends the stream: the loop writes what it can and closes")
    func behindEnds() {
        let now = ContinuousClock.now
        var limits = HTTPLimits()
        limits.maximumStreamBacklog = 300
        var machine = Self.streaming(limits: limits, now: now)
        _ = machine.nextAction(now: now)
        machine.receivePage([], isComplete: true, now: now)
        #expect(machine.nextAction(now: now) == .wait)
        for seq in 1...20 { _ = machine.receiveLive(StreamEvent(seq: Int64(seq)), now: now) }
        #expect(machine.nextAction(now: now) == .abandon)
        #expect(machine.isClosing && !machine.isStreaming && machine.startedStream?.projectID == 7)
        let result6 = machine.receiveLive(StreamEvent(seq: 21), now: now)
        #expect(!result6)
        // What was queued (the last whole event included) still goes out, then the connection is finished.
        #expect(Self.take(&machine).hasSuffix("id: 20\nevent: finding.status\ndata: {\"seq\":20}\n\n"))
        #expect(machine.isFinished)
    }

    @Test("nothing is read after the stream starts: pipelined and later requests never run")
    func nothingReadAfter() {
        let now = ContinuousClock.now
        var machine = HTTPMachine<StreamEvent>(now: now)
        let twice = Self.streamRequest + "GET /other HTTP/1.1\r\nHost: x\r\n\r\n"
        machine.receive(Array(twice.utf8)[...], now: now)
        guard case .execute = machine.nextAction(now: now) else {
            Issue.record("the stream request did not run")
            return
        }
        machine.complete(
            .eventStream(HTTPEventStream(projectID: 7, project: "p", since: 0, tokenName: nil)), now: now)
        #expect(machine.bufferedInputCount == 0 && machine.wantsInput)
        machine.receive(Array("GET /third HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...], now: now)
        #expect(machine.bufferedInputCount == 0)
        #expect(machine.nextAction(now: now) == .requestEvents(projectID: 7, after: 0))
        #expect(machine.nextAction(now: now) == .wait)
        #expect(machine.requestsAnswered == 1)
        // The client leaving ends the stream.
        machine.endInput()
        #expect(machine.isClosing)
        _ = Self.take(&machine)
        #expect(machine.isFinished)
    }

    @Test("a revoked token or a drain ends the stream after what is queued; HEAD or a draining server never streams")
    func ends() {
        let now = ContinuousClock.now
        var machine = Self.streaming(now: now)
        machine.receivePage([StreamEvent(seq: 1)], isComplete: true, now: now)
        machine.endStream()
        #expect(
            machine.isClosing && Self.take(&machine).hasSuffix("id: 1\nevent: finding.status\ndata: {\"seq\":1}\n\n"))
        #expect(machine.isFinished)

        var head = HTTPMachine<StreamEvent>(now: now)
        head.receive(Array(Self.streamRequest.replacingOccurrences(of: "GET", with: "HEAD").utf8)[...], now: now)
        _ = head.nextAction(now: now)
        head.complete(.eventStream(HTTPEventStream(projectID: 7, project: "p", since: 0, tokenName: nil)), now: now)
        #expect(!head.isStreaming && head.isClosing)
        let text = Self.take(&head)
        #expect(text.contains("Connection: close") && !text.contains("retry:"))

        var draining = HTTPMachine<StreamEvent>(now: now)
        draining.receive(Array(Self.streamRequest.utf8)[...], now: now)
        _ = draining.nextAction(now: now)
        draining.complete(
            .eventStream(HTTPEventStream(projectID: 7, project: "p", since: 0, tokenName: nil)), now: now,
            closesConnection: true)
        #expect(!draining.isStreaming && draining.isClosing)
    }

    @Test("the resume point: Last-Event-ID, else since, else now; a bad one is named")
    func resumePoint() throws {
        func head(_ target: String, _ fields: String = "") throws -> HTTPRequestHead {
            try HTTPRequestHead.parse(
                Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\(fields)".utf8)[...], maximumFields: 100,
                maximumBody: 0)
        }
        #expect(HTTPEventStream.resumePoint(of: try head("/s?since=3", "Last-Event-ID: 9\r\n")) == .success(9))
        #expect(HTTPEventStream.resumePoint(of: try head("/s?since=3")) == .success(3))
        #expect(HTTPEventStream.resumePoint(of: try head("/s")) == .success(nil))
        #expect(
            HTTPEventStream.resumePoint(of: try head("/s", "Last-Event-ID: x\r\n"))
                == .failure(.init(source: "Last-Event-ID")))
        #expect(HTTPEventStream.resumePoint(of: try head("/s?since=-1")) == .failure(.init(source: "since")))
    }
}
