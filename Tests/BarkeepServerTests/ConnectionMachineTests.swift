import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepTestSupport
import Foundation
import Testing

@testable import BarkeepServer

/// Drives one `ConnectionMachine` as the event loop does, without a socket: bytes in, actions performed, replies read.
struct MachineDriver {
    var machine: ConnectionMachine<CommandTable.SessionView>
    var now = ContinuousClock.now
    /// Upload bytes the simulated server can still hold.
    var uploadRoom = Int.max
    /// Whether a command completes as soon as it is executed (with `OK <name> <arguments>`).
    var completesAtOnce = true
    /// Whether the client reads its replies when the machine says the output is full.
    var readsWhenFull = true
    /// The actions performed, in order: `execute NAME args [payload]`, `begin N`, `end`.
    var log: [String] = []
    /// The command running, when `completesAtOnce` is false.
    var running: CommandTable.Resolved?
    /// Bytes written to the client so far.
    var written: [UInt8] = []
    /// The pages the running command's streamed reply has still to send (each a record line), and how many it sent;
    /// the machine gets each when it asks (`fetchPage`) and the final line after the last.
    var pages: [String] = []
    var pagesSent = 0
    /// Pages asked for, in all.
    var pagesFetched = 0
    /// Whether a page is given as soon as the machine asks for it (otherwise `deliverPage` gives it).
    var pagesComeAtOnce = true

    /// The commands the tests send: ECHO (any role), UPLOAD with a payload (writer), SECRET (admin), and PING and
    /// QUIT from the basic table.
    static let table = CommandTable.basic.adding([
        Command("ECHO", positional: 0...1, arguments: [.other], minimumRole: nil) { _ in .done(CommandResult(.ok("")))
        },
        Command("UPLOAD", positional: 2...2, arguments: [.other], minimumRole: .writer, takesPayload: true) { _ in
            .done(CommandResult(.ok("")))
        },
        Command("SECRET", minimumRole: .admin) { _ in .done(CommandResult(.ok(""))) },
    ])

    init(
        maximumLineLength: Int = 64,
        maximumPendingOutput: Int = 1 << 20,
        maximumPayload: Int = 1 << 10,
        role: Role? = .writer,
        table: CommandTable = Self.table,
        handshakeDeadline: ContinuousClock.Instant? = nil
    ) {
        let session = Session(isLocal: false, uid: nil, peerName: "test", role: role, actor: "test")
        machine = ConnectionMachine(
            commands: CommandTable.SessionView(table: table, session: session, maximumPayload: maximumPayload),
            limits: ConnectionLimits(
                maximumLineLength: maximumLineLength, maximumPendingOutput: maximumPendingOutput,
                uploadTimeout: .seconds(30)),
            now: now,
            handshakeDeadline: handshakeDeadline
        )
    }

    /// The client sends `text`.
    mutating func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// The client sends `bytes`.
    mutating func send(_ bytes: [UInt8]) {
        machine.receive(bytes[...], now: now)
        run()
    }

    /// Performs the machine's actions until it waits.
    mutating func run() {
        while true {
            switch machine.nextAction(now: now, uploadRoom: uploadRoom) {
            case .execute(let resolved, let payload):
                let words = [resolved.command.name] + resolved.request.arguments
                log.append(
                    "execute " + words.joined(separator: " ")
                        + (payload.map { " [\(String(decoding: $0, as: UTF8.self))]" } ?? ""))
                if completesAtOnce {
                    machine.complete(.ok(words.joined(separator: " ")))
                    uploadRoom += machine.releaseUpload()
                } else {
                    running = resolved
                }
            case .beginUpload(let reserved):
                uploadRoom -= reserved
                log.append("begin \(reserved)")
            case .endUpload:
                log.append("end")
            case .fetchPage:
                pagesFetched += 1
                if pagesComeAtOnce { deliverPage() }
            case .write:
                guard readsWhenFull else { return }
                readReplies()
            case .handshake:
                log.append("handshake")
                return
            case .read:
                log.append("read")
                return
            case .closeSilently(let reason):
                log.append("close \(reason)")
                return
            case .requestEvents(let projectID, let after):
                log.append("events \(projectID) after \(after)")
            case .abandon:
                log.append("abandon")
                return
            case .wait:
                return
            }
        }
    }

    /// The running command finishes with `reply`.
    mutating func complete(_ reply: Reply, closesConnection: Bool = false, startsWatching: Bool = false) {
        running = nil
        machine.complete(
            reply, closesConnection: closesConnection,
            watch: startsWatching ? WatchMachine(projectID: 7, project: "p", since: 3, filter: EventFilter()) : nil)
        uploadRoom += machine.releaseUpload()
        run()
    }

    /// The running command streams `pages` (one record line each): the first comes now, the others when asked for.
    mutating func stream(_ pages: [String]) {
        running = nil
        self.pages = pages
        pagesSent = 0
        deliverPage()
        run()
    }

    /// The streamed reply's next page, or its final line when none is left.
    mutating func deliverPage() {
        guard !pages.isEmpty else {
            var final: [UInt8] = []
            Reply.encodeEnd(count: pagesSent, summary: nil, into: &final)
            machine.complete(.bytes(final))
            return
        }
        machine.receivePage(Array("* page=\(pages.removeFirst())\n".utf8))
        pagesSent += 1
    }

    /// The client reads every pending reply.
    mutating func readReplies() {
        let bytes = machine.withPendingOutput { Array($0) }
        machine.written(bytes.count)
        machine.compactOutput()
        written += bytes
    }

    /// Every reply so far, read or not, as text.
    var text: String {
        String(decoding: written + machine.withPendingOutput { Array($0) }, as: UTF8.self)
    }
}

@Suite("Connection machine")
struct ConnectionMachineTests {
    @Test("lines are framed whatever the chunks; LF and CRLF; PING answered from its bytes")
    func framing() {
        var driver = MachineDriver()
        for chunk in ["PI", "NG\r", "\nping  \n", "\tPing\n", "\n", "ECHO", " a\r\n"] { driver.send(chunk) }
        #expect(driver.text == "OK PONG\nOK PONG\nOK PONG\nOK ECHO a\n")
        #expect(driver.log == ["execute ECHO a"])
    }

    @Test("pipelined requests are answered in order, one command in flight at a time")
    func pipelining() {
        var driver = MachineDriver()
        driver.completesAtOnce = false
        driver.send("ECHO a\nPING\nECHO b\n")
        #expect(driver.log == ["execute ECHO a"])
        #expect(driver.machine.isRunning && !driver.machine.wantsInput)
        #expect(driver.text.isEmpty)
        driver.complete(.ok("a"))
        #expect(driver.log == ["execute ECHO a", "execute ECHO b"])
        #expect(driver.text == "OK a\nOK PONG\n")
        driver.complete(.ok("b"))
        #expect(driver.text == "OK a\nOK PONG\nOK b\n")
        #expect(driver.machine.wantsInput && !driver.machine.isFinished)
    }

    @Test("a reply encoded before is sent as it is, alone or after replies still unread, and others follow it")
    func encodedReplies() {
        var driver = MachineDriver()
        driver.completesAtOnce = false
        let kept = Array("* type=screen key=A\nOK count=1\n".utf8)
        driver.send("ECHO a\n")
        driver.complete(.bytes(kept))
        #expect(driver.text == "* type=screen key=A\nOK count=1\n")
        driver.readReplies()
        driver.send("PING\nECHO b\nPING\n")
        driver.complete(.bytes(kept))
        #expect(driver.text == "* type=screen key=A\nOK count=1\nOK PONG\n* type=screen key=A\nOK count=1\nOK PONG\n")
        #expect(kept == Array("* type=screen key=A\nOK count=1\n".utf8))
    }

    @Test("an upload's bytes are its payload, whatever they hold, and the stream goes on after them")
    func upload() {
        var driver = MachineDriver()
        driver.send("UPLOAD x 7\nab\n")
        #expect(driver.log == ["begin 7"] && driver.machine.isUploading)
        #expect(driver.uploadRoom == Int.max - 7)
        driver.send("PINGPING\n")
        #expect(driver.log == ["begin 7", "end", "execute UPLOAD x 7 [ab\nPING]"])
        #expect(driver.text == "OK UPLOAD x 7\nOK PONG\n")
        #expect(driver.uploadRoom == Int.max && driver.machine.reservedUpload == 0)
    }

    @Test("an upload over the limit, or past the server's room, is refused and its bytes skipped")
    func uploadLimits() {
        var driver = MachineDriver(maximumPayload: 8)
        driver.send("UPLOAD x 9\n123456789PING\n")
        #expect(driver.log == ["begin 0", "end"])
        #expect(driver.text == "ERR TOOLONG payload of 9 bytes is over the limit of 8\nOK PONG\n")

        var full = MachineDriver()
        full.uploadRoom = 4
        full.send("UPLOAD x 5\n12")
        full.send("345PING\n")
        #expect(full.log == ["begin 0", "end"])
        #expect(full.text == "ERR BUSY too many uploads in progress; retry later\nOK PONG\n")

        var unknownSize = MachineDriver()
        unknownSize.send("UPLOAD x many\nPING\n")
        #expect(unknownSize.text == "ERR BADARG UPLOAD ends with the payload's size in bytes\n")
        unknownSize.readReplies()
        #expect(unknownSize.machine.isFinished)
    }

    @Test("a refused upload is skipped too: wrong role, wrong arguments")
    func refusedUpload() {
        var reader = MachineDriver(role: .reader)
        reader.send("UPLOAD x 3\nabcPING\n")
        #expect(reader.log == ["begin 0", "end"])
        #expect(reader.text == "ERR FORBIDDEN UPLOAD needs the writer role\nOK PONG\n")
    }

    @Test("an upload that sends nothing for the timeout is dropped, answered and closed")
    func stalledUpload() {
        var driver = MachineDriver()
        let start = driver.now
        driver.send("UPLOAD x 5\nab")
        #expect(driver.machine.uploadDeadline == start + .seconds(30))
        driver.now = start + .seconds(20)
        driver.send("c")
        let early = driver.machine.expireUpload(now: start + .seconds(49))
        let due = driver.machine.expireUpload(now: start + .seconds(50))
        let released = driver.machine.releaseUpload()
        #expect(!early && due && released == 5)
        #expect(driver.text == "ERR BADARG the upload stalled: no bytes for 30 s\n")
        driver.readReplies()
        #expect(driver.machine.isFinished && driver.machine.framer.bufferedByteCount == 0)
    }

    @Test("a result that closes the connection (the last failed HELLO, QUIT) ends it: later requests go unanswered")
    func closingResult() {
        var driver = MachineDriver()
        driver.completesAtOnce = false
        let attempts = SessionCommands.maximumFailedHellos
        driver.send(String(repeating: "ECHO hello\n", count: attempts + 1) + "PING\n")
        for attempt in 1...attempts {
            #expect(driver.running != nil)
            driver.machine.commands.session = driver.machine.commands.session.applying(.failed)
            driver.complete(.error(.noAuth, "invalid"), closesConnection: attempt == attempts)
        }
        #expect(driver.machine.commands.session.failedHellos == attempts)
        #expect(driver.log.count == attempts && driver.running == nil)
        #expect(driver.text == String(repeating: "ERR NOAUTH invalid\n", count: attempts))
        driver.readReplies()
        #expect(driver.machine.isFinished)

    }

    @Test("a half-closed stream is answered, its partial line dropped, then closed")
    func halfClose() {
        var driver = MachineDriver()
        driver.completesAtOnce = false
        driver.send("ECHO a\nPING\nPIN")
        let keepsOpen = driver.machine.endInput()
        #expect(keepsOpen)
        driver.run()
        #expect(!driver.machine.isFinished && !driver.machine.wantsInput)
        driver.complete(.ok("a"))
        #expect(driver.text == "OK a\nOK PONG\n")
        driver.readReplies()
        #expect(driver.machine.isFinished)
    }

    @Test("an over-long line is answered TOOLONG and skipped to its end; the connection goes on")
    func overLongLine() {
        var driver = MachineDriver(maximumLineLength: 16)
        driver.send(String(repeating: "x", count: 20))
        #expect(driver.machine.framer.bufferedByteCount <= 17)
        driver.send(String(repeating: "y", count: 40) + "\nPING\n")
        #expect(driver.text == "ERR TOOLONG line longer than 16 bytes\nOK PONG\n")
    }

    @Test("bad lines, unknown commands and missing roles are refused before any command runs")
    func refusals() {
        var driver = MachineDriver()
        driver.send("NOPE\nSECRET\nECHO \u{1}\n\nPING\n")
        let replies = driver.text.split(separator: "\n").map { String($0.prefix(13)) }
        #expect(replies == ["ERR UNKNOWN u", "ERR FORBIDDEN", "ERR BADLINE t", "OK PONG"])
        #expect(driver.log.isEmpty)
    }

    @Test("replies the client does not read stop the answering at the bound, and it resumes once they are read")
    func outputBound() {
        var driver = MachineDriver(maximumPendingOutput: 16)
        driver.readsWhenFull = false
        driver.send(String(repeating: "PING\n", count: 10))
        #expect(driver.machine.pendingOutputCount == 16 && driver.machine.isOutputFull && !driver.machine.wantsInput)
        driver.readsWhenFull = true
        driver.readReplies()
        driver.run()
        #expect(driver.text == String(repeating: "OK PONG\n", count: 10))
    }

    @Test("a streamed reply's pages are asked for one at a time, only while the unread output is below the bound")
    func streamedReply() {
        var driver = MachineDriver(maximumPendingOutput: 64)
        driver.completesAtOnce = false
        driver.readsWhenFull = false
        driver.send("ECHO a\nPING\n")
        let pages = (0..<40).map { String(format: "%03d", $0) }
        driver.stream(pages)
        // Each page is 11 bytes: pages are asked for until the unread output reaches 64, never beyond one page more.
        #expect(driver.machine.isStreaming && !driver.machine.wantsInput)
        #expect(driver.pagesFetched == 5 && driver.machine.pendingOutputCount == 66)
        #expect(driver.machine.isOutputFull)
        driver.run()
        #expect(driver.pagesFetched == 5)
        // The client reads: the stream goes on to its final line, then the pipelined PING is answered.
        driver.readsWhenFull = true
        driver.readReplies()
        driver.run()
        let expected = pages.map { "* page=\($0)\n" }.joined() + "OK count=40\nOK PONG\n"
        #expect(driver.text == expected)
        #expect(!driver.machine.isRunning && driver.machine.wantsInput)
    }

    @Test("a page is asked for once until it comes; a stream goes on while the connection drains, then it closes")
    func streamedReplyWhileClosing() {
        var driver = MachineDriver()
        driver.completesAtOnce = false
        driver.pagesComeAtOnce = false
        driver.send("ECHO a\n")
        driver.stream(["1", "2"])
        #expect(driver.pagesFetched == 1)
        driver.run()
        driver.run()
        #expect(driver.pagesFetched == 1)
        driver.machine.end()
        driver.deliverPage()
        driver.run()
        #expect(driver.pagesFetched == 2 && !driver.machine.isFinished)
        driver.deliverPage()
        driver.run()
        driver.readReplies()
        #expect(driver.text == "* page=1\n* page=2\nOK count=2\n")
        #expect(driver.machine.isFinished)
    }

    @Test("a streamed reply that breaks off: what was queued goes out, nothing more is said, and it closes")
    func streamBreaksOff() {
        var driver = MachineDriver()
        driver.completesAtOnce = false
        driver.pagesComeAtOnce = false
        driver.readsWhenFull = false
        driver.send("ECHO z\nECHO a\nPING\n")
        driver.complete(.ok("z"))
        driver.stream(["1", "2"])
        driver.machine.breakOff()
        // The earlier command's reply and the page already queued are still written; then the connection ends.
        #expect(!driver.machine.isFinished && !driver.machine.wantsInput)
        driver.run()
        driver.readReplies()
        #expect(driver.text == "OK z\n* page=1\n")
        #expect(driver.machine.isFinished && driver.log == ["execute ECHO z", "execute ECHO a"])
    }

    @Test("a watching connection answers PING and QUIT only, and its stream's end closes it at once")
    func watching() {
        var driver = MachineDriver()
        driver.completesAtOnce = false
        driver.send("ECHO w\n")
        driver.complete(.ok("watching"), startsWatching: true)
        #expect(driver.machine.isWatching && driver.log == ["execute ECHO w", "events 7 after 3"])
        driver.machine.receiveEvents([], isComplete: true)
        driver.send("PING\nECHO\nQUIT\nPING\n")
        // The words are PING's and QUIT's specs' (the machine spells them itself: the fuzz target compiles it alone).
        var pong: [UInt8] = []
        PingRequest.Reply().reply(version: ProtocolVersion.current).encode(into: &pong)
        var bye: [UInt8] = []
        QuitRequest.Reply().reply(version: ProtocolVersion.current).encode(into: &bye)
        #expect(
            driver.text
                == "OK watching\n\(String(decoding: pong, as: UTF8.self))ERR BADARG the connection is watching; "
                + "send PING or QUIT\n\(String(decoding: bye, as: UTF8.self))")
        driver.readReplies()
        #expect(driver.machine.isFinished)

        var ended = MachineDriver()
        ended.completesAtOnce = false
        ended.send("ECHO w\n")
        ended.complete(.ok("watching"), startsWatching: true)
        let keepsOpen = ended.machine.endInput()
        #expect(!keepsOpen)
    }

    @Test("a TLS connection frames nothing before its handshake completes, then reads at once")
    func handshake() {
        let start = ContinuousClock.now
        var driver = MachineDriver(handshakeDeadline: start + .seconds(10))
        #expect(driver.machine.isHandshaking && driver.machine.wantsReadable && !driver.machine.wantsWritable)
        #expect(driver.machine.nextDeadline == start + .seconds(10))
        // Bytes given early (the loop never reads them then) are not framed.
        driver.send("PING\nECHO a\n")
        #expect(driver.text.isEmpty && driver.log.isEmpty)
        driver.machine.transportReady()
        driver.run()
        driver.machine.handshakeStepped(.wantWrite)
        driver.run()
        #expect(driver.log == ["handshake"] && driver.machine.wantsWritable && !driver.machine.wantsReadable)
        driver.machine.transportReady()
        driver.run()
        driver.machine.handshakeStepped(.done(0))
        #expect(!driver.machine.isHandshaking && driver.machine.nextDeadline == nil)
        driver.run()
        // (Bytes framed before it are answered first; in the server the framer is empty when the handshake ends.)
        #expect(driver.log == ["handshake", "handshake", "execute ECHO a", "read"])
        #expect(driver.text == "OK PONG\nOK ECHO a\n")
    }

    @Test(
        "a handshake that fails, loses its client or runs out of time closes silently",
        arguments: [
            (TransportOutcome.failed("wrong version number"), #"close failed("wrong version number")"#),
            (.closed, "close peerLeft"),
        ])
    func handshakeEnds(outcome: TransportOutcome, expected: String) {
        var driver = MachineDriver(handshakeDeadline: .now + .seconds(10))
        driver.machine.transportReady()
        driver.run()
        driver.machine.handshakeStepped(outcome)
        driver.send("PING\n")
        #expect(driver.log == ["handshake", expected] && driver.text.isEmpty)
        #expect(driver.machine.nextDeadline == nil)
    }

    @Test("a handshake past its deadline closes silently, once")
    func handshakeExpires() {
        let start = ContinuousClock.now
        var driver = MachineDriver(handshakeDeadline: start + .seconds(10))
        let early = driver.machine.expire(now: start + .seconds(9))
        let due = driver.machine.expire(now: start + .seconds(10))
        let again = driver.machine.expire(now: start + .seconds(11))
        #expect(!early && due && !again && driver.machine.nextDeadline == nil)
        driver.run()
        #expect(driver.log == ["close timedOut"] && driver.text.isEmpty)
    }

    @Test(
        "the machines and their pure types import no module unconditionally: the framer and http fuzz targets compile them alone"
    )
    func compilesAlone() throws {
        // The server files scripts/fuzz.sh compiles into the framer and http targets (`source_file BarkeepServer NAME`).
        let script = try String(contentsOf: SourceTree.root.appendingPathComponent("scripts/fuzz.sh"), encoding: .utf8)
        let names = script.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "source_file", words[1] == "BarkeepServer" else { return nil }
            return String(words[2])
        }
        #expect(names.contains("ConnectionMachine") && names.contains("TransportOutcome"), "\(names)")
        #expect(names.contains("HTTPMachine") && names.contains("HTTPRequestHead"), "\(names)")
        for name in names {
            let text = try SourceTree.text("\(name).swift", of: "BarkeepServer")
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }
            #expect(imports.isEmpty, "\(name): \(imports)")
        }
    }
}
