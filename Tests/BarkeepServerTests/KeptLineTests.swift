import BarkeepProtocol
import Foundation
import Testing

@testable import BarkeepServer

/// The commands of the kept-line tests: every request runs; `KEEP` may keep its reply; the stamp is the test's.
private final class StampBox {
    var stamp: KeptStamp?
}

private struct KeepingCommands: ConnectionCommands {
    typealias Event = TestEvent

    let box: StampBox

    func constantReply(for line: ArraySlice<UInt8>) -> [UInt8]? { nil }

    func resolve(_ request: Request) -> RequestResolution<Request> { .accepted(request, payloadSize: nil) }

    func mayKeepReply(_ resolved: Request) -> Bool { resolved.verb == "KEEP" }

    func keptStamp() -> KeptStamp? { box.stamp }
}

/// One connection's machine over `KeepingCommands`, driven as the loop drives it.
private struct KeepingConnection {
    let box = StampBox()
    var machine: ConnectionMachine<KeepingCommands>
    let now = ContinuousClock.now
    /// Requests executed, by their line's words.
    var executed: [String] = []
    var written = ""
    /// The reply each executed request gets (kept at the box's stamp when there is one).
    var reply = "OK count=1\n"

    init(maximumLineLength: Int = 64) {
        machine = ConnectionMachine(
            commands: KeepingCommands(box: box),
            limits: ConnectionLimits(
                maximumLineLength: maximumLineLength, maximumPendingOutput: 1 << 20, uploadTimeout: .seconds(30)),
            now: now)
    }

    /// Sends `text`, runs what it asks (each executed request answered `reply`, kept at the box's stamp when there
    /// is one) and reads what was written.
    mutating func send(_ text: String) {
        machine.receive(Array(text.utf8)[...], now: now)
        while true {
            switch machine.nextAction(now: now, uploadRoom: .max) {
            case .execute(let request, _):
                executed.append(([request.verb] + request.arguments).joined(separator: " "))
                let bytes = Array(reply.utf8)
                if let stamp = box.stamp { machine.keep(bytes, stamp: stamp) }
                machine.complete(.bytes(bytes))
            case .wait, .read:
                machine.withPendingOutput { written += String(decoding: $0, as: UTF8.self) }
                machine.written(machine.pendingOutputCount)
                machine.compactOutput()
                return
            default:
                continue
            }
        }
    }
}

/// A reply kept for a request line's exact bytes (`ConnectionMachine.keep`): sent again, with no request made, while
/// the stamp it was kept at holds, and for that line and session only.
@Suite("Replies kept for a connection's line")
struct KeptLineTests {
    @Test("the same line is answered from the kept reply while the stamp holds; another line, stamp or session runs")
    func keptWhileStampHolds() {
        var connection = KeepingConnection()
        connection.box.stamp = KeptStamp(epoch: 1, generation: 7)
        connection.send("KEEP app\n")
        #expect(connection.executed == ["KEEP app"])
        connection.reply = "OK count=2\n"
        // The same bytes, pipelined: not one request made, each answered with the kept reply.
        connection.send("KEEP app\nKEEP app\nKEEP app\n")
        #expect(connection.executed == ["KEEP app"])
        #expect(connection.written == String(repeating: "OK count=1\n", count: 4))
        #expect(connection.machine.takeKeptRepliesQueued() == 3)
        #expect(connection.machine.takeKeptRepliesQueued() == 0)
        // Other bytes (the same request spelled otherwise) run.
        connection.send("KEEP  app\n")
        #expect(connection.executed == ["KEEP app", "KEEP app"])
        // A write finished (the generation moved on): the line runs again, and what it then answers is kept.
        connection.box.stamp = KeptStamp(epoch: 1, generation: 8)
        connection.reply = "OK count=3\n"
        connection.send("KEEP app\n")
        connection.send("KEEP app\n")
        #expect(connection.executed.count == 3)
        #expect(connection.written.hasSuffix("OK count=3\nOK count=3\n"))
        // Sole mode left: nothing kept holds.
        connection.box.stamp = nil
        connection.send("KEEP app\nKEEP app\n")
        #expect(connection.executed.count == 5)
        // Sole again (a new epoch): kept anew. A new session forgets it even while the stamp holds.
        connection.box.stamp = KeptStamp(epoch: 3, generation: 8)
        connection.send("KEEP app\n")
        connection.send("KEEP app\n")
        #expect(connection.executed.count == 6)
        connection.machine.forgetKept()
        connection.send("KEEP app\n")
        #expect(connection.executed.count == 7)
    }

    @Test("the machine says when it let its kept line go, so the connection gives the reply's bytes back")
    func letGo() {
        var connection = KeepingConnection()
        connection.box.stamp = KeptStamp(epoch: 1, generation: 1)
        connection.send("KEEP app\n")
        #expect(connection.machine.hasKeptLine)
        connection.send("OTHER\n")  // another line does not test the stamp
        #expect(connection.machine.hasKeptLine)
        connection.box.stamp = nil  // sole mode left: the line's next use finds its stamp gone
        connection.send("KEEP app\n")
        #expect(!connection.machine.hasKeptLine)
        #expect(connection.executed == ["KEEP app", "OTHER", "KEEP app"])
    }

    @Test("a line longer than the longest kept is never answered from a kept reply")
    func longLineNotKept() {
        let limit = ConnectionMachine<KeepingCommands>.maximumKeptLine
        var connection = KeepingConnection(maximumLineLength: 4 * limit)
        connection.box.stamp = KeptStamp(epoch: 1, generation: 1)
        let long = "KEEP " + String(repeating: "x", count: limit)
        connection.send(long + "\n" + long + "\n")
        #expect(connection.executed.count == 2)
        let short = "KEEP " + String(repeating: "x", count: limit - 6)
        connection.send(short + "\n" + short + "\n")
        #expect(connection.executed.count == 3)
    }

    @Test("docs/operations.md states the largest reply kept for a line as the code has it")
    func documentedBound() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).joined(separator: " ")
        let line = ConnectionMachine<KeepingCommands>.maximumKeptLine
        #expect(EventLoop.maximumKeptLineReply % 1024 == 0 && line % 1024 == 0)
        #expect(text.contains("only lines of up to \(line / 1024) KiB and"))
        #expect(text.contains("replies of up to \(EventLoop.maximumKeptLineReply / 1024) KiB are kept so"))
        #expect(DashboardCommands.replies.maximumCost % (1 << 20) == 0)
        #expect(text.contains("the kept replies' cache (\(DashboardCommands.replies.maximumCost >> 20) MiB)"))
    }

    @Test("a command that may not keep its reply is never answered from one")
    func onlyKeepingCommands() {
        var connection = KeepingConnection()
        connection.box.stamp = KeptStamp(epoch: 1, generation: 1)
        connection.send("OTHER app\nOTHER app\n")
        #expect(connection.executed == ["OTHER app", "OTHER app"])
        #expect(connection.machine.takeKeptRepliesQueued() == 0)
    }
}
