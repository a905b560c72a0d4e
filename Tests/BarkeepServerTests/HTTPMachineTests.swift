import BarkeepCore
import BarkeepTestSupport
import BarkeepWeb
import Foundation
import Testing

@testable import BarkeepServer

/// Drives one `HTTPMachine` as the event loop would, without a socket: bytes in, requests run at once (answered
/// `200` with `METHOD TARGET BODY`), responses read as soon as they are written.
struct HTTPDriver {
    var machine: HTTPMachine<StreamEvent>
    var now = ContinuousClock.now
    /// The requests run, in order: `METHOD TARGET [BODY]`.
    var log: [String] = []
    /// Bytes written to the client so far.
    var written: [UInt8] = []
    /// Whether a request completes as soon as it runs.
    var completesAtOnce = true
    /// The most request bytes the machine held at any moment.
    var mostBuffered = 0
    /// How the application judges a head with a body (`authorize`); nil leaves it waiting. By default the body is
    /// admitted up to `limits.bodyBytes`, and a longer one refused `413`.
    var judge: (HTTPRequestHead) -> HTTPAdmission?
    /// The targets of the heads judged, in order.
    var judged: [String] = []

    init(limits: HTTPLimits = HTTPLimits()) {
        machine = HTTPMachine<StreamEvent>(limits: limits, now: now)
        judge = { _ in .body(limit: limits.bodyBytes, tooLarge: .refusal(413, "too large")) }
    }

    var text: String { String(decoding: written, as: UTF8.self) }

    /// The status codes of the responses written, in order.
    var statuses: [Int] {
        text.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }

    mutating func send(_ text: String) { send(Array(text.utf8)) }

    mutating func send(_ bytes: [UInt8]) {
        machine.receive(bytes[...], now: now)
        run()
    }

    /// Sends `bytes` `size` bytes at a time, as long as the machine reads.
    mutating func send(_ bytes: [UInt8], chunksOf size: Int) {
        var offset = 0
        while offset < bytes.count && machine.wantsInput {
            machine.receive(bytes[offset..<min(bytes.count, offset + size)], now: now)
            offset += size
            run()
        }
    }

    mutating func run() {
        running: while true {
            switch machine.nextAction(now: now) {
            case .authorize(let head):
                judged.append(head.target)
                guard let admission = judge(head) else { break running }
                machine.admit(admission, now: now)
            case .execute(let head, let body):
                mostBuffered = max(mostBuffered, machine.bufferedInputCount)
                let entry =
                    "\(head.method) \(head.target)" + (body.isEmpty ? "" : " \(String(decoding: body, as: UTF8.self))")
                log.append(entry)
                guard completesAtOnce else { break running }
                machine.complete(HTTPResponse(status: 200, body: Array(entry.utf8)), now: now)
            default:
                break running
            }
        }
        mostBuffered = max(mostBuffered, machine.bufferedInputCount)
        read()
    }

    mutating func read() {
        let count = machine.withPendingOutput { buffer in
            written.append(contentsOf: buffer)
            return buffer.count
        }
        machine.written(count)
    }
}

@Suite("HTTPMachine")
struct HTTPMachineTests {
    static let get = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
    /// The security fields every response carries, as encoded.
    static let security = HTTPResponse.securityFields.map { "\($0.name): \($0.value)\r\n" }.joined()

    @Test("a GET is run and answered with its length, and the connection stays open")
    func simpleGet() {
        var driver = HTTPDriver()
        driver.send(Self.get)
        #expect(driver.log == ["GET /a"])
        #expect(driver.text == "HTTP/1.1 200 OK\r\n\(Self.security)Content-Length: 6\r\n\r\nGET /a")
        #expect(!driver.machine.isClosing && driver.machine.wantsInput)
    }

    @Test("the head is parsed: lowercased names, trimmed values, decoded path and query")
    func parsedHead() throws {
        let bytes = Array("GET /p%20q/r?a=1+2&b=%C3%A9&c HTTP/1.1\r\nHOST:  x \r\nX-Thing:\tv\r\n".utf8)
        let head = try HTTPRequestHead.parse(bytes[...], maximumFields: 100, maximumBody: 10)
        #expect(head.pathSegments == ["p q", "r"])
        #expect(head.query.map { "\($0.name)=\($0.value)" } == ["a=1 2", "b=é", "c="])
        #expect(head.fields.map { "\($0.name)=\($0.value)" } == ["host=x", "x-thing=v"])
        #expect(head.minorVersion == 1 && head.keepsAlive && head.contentLength == 0)
    }

    static let pipelined =
        "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
        + "HEAD /3 HTTP/1.1\r\nHost: x\r\n\r\nDELETE /4 HTTP/1.1\nHost: x\nContent-Length: 0\n\n"
        + "GET /5 HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Close\r\n\r\nGET /6 HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test("pipelined requests are run one at a time, answered in order; Connection: close ends the connection")
    func pipelining() {
        var driver = HTTPDriver()
        driver.send(Self.pipelined)
        #expect(driver.log == ["GET /1", "POST /2 hello", "HEAD /3", "DELETE /4", "GET /5"])
        #expect(driver.statuses == [200, 200, 200, 200, 200])
        // HEAD keeps the length of the body it does not send; only the last response says close.
        #expect(
            driver.text.contains(
                "Content-Length: 7\r\n\r\nHTTP/1.1 200 OK\r\n\(Self.security)Content-Length: 9\r\n\r\nDELETE /4"))
        #expect(driver.text.components(separatedBy: "Connection: close").count == 2)
        #expect(driver.text.hasSuffix("Connection: close\r\n\r\nGET /5") && driver.machine.isFinished)
    }

    @Test("whole input and input byte by byte (or in any chunks) lead to the same requests and responses")
    func chunkedEqualsWhole() {
        let inputs = [
            Self.pipelined, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nBAD\r\n\r\n", "GET / HTTP/1.1\r\n Host: x\r\n\r\n",
            "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /b HTTP/1.0\r\n\r\nGET /c HTTP/1.1\r\n\r\n",
            "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n",
        ]
        for input in inputs {
            var whole = HTTPDriver()
            whole.send(input)
            for size in [1, 2, 7, 100] {
                var chunked = HTTPDriver()
                chunked.send(Array(input.utf8), chunksOf: size)
                #expect(chunked.log == whole.log && chunked.written == whole.written, "chunks of \(size)")
            }
        }
    }

    @Test(
        "each malformed head is refused with its status, once, with Connection: close, and nothing runs",
        arguments: [
            ("GET /a HTTP/1.1\r\n\r\n", 400),  // no Host
            ("GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400),
            ("GET /a HTTP/1.1\r\nHost: x\r\nX: a\r\n  folded\r\n\r\n", 400),  // obs-fold
            ("GET /a HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", 400),
            ("GET /a HTTP/1.1\r\nHost: x\r\nX: a\u{1}b\r\n\r\n", 400),
            ("GET /a HTTP/1.1\r\nHost x\r\n\r\n", 400),
            ("GET  /a HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET http://x/a HTTP/1.1\r\nHost: x\r\n\r\n", 400),  // absolute-form
            ("GET /a%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET /a%00 HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET /a%C3 HTTP/1.1\r\nHost: x\r\n\r\n", 400),  // not UTF-8
            ("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
            ("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
            ("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
            ("POST /a HTTP/1.1\r\nHost: x\r\n\r\n", 411),
            ("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", 413),
            ("PATCH /a HTTP/1.1\r\nHost: x\r\n\r\n", 501),
            ("CONNECT x:443 HTTP/1.1\r\nHost: x\r\n\r\n", 501),
            ("GET /a HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("GET /a FTP/1.1\r\nHost: x\r\n\r\n", 400),
        ])
    func refusals(input: String, status: Int) {
        var driver = HTTPDriver()
        driver.send(input + Self.get)
        #expect(driver.log.isEmpty && driver.statuses == [status], "\(driver.text)")
        #expect(driver.text.contains("Connection: close\r\n") && driver.machine.isFinished)
    }

    @Test("Content-Length values that agree are one length; 1.0 closes unless keep-alive")
    func lengthsAndVersions() {
        var driver = HTTPDriver()
        driver.send(
            "PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 2, 2\r\n\r\nokGET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
        )
        driver.send("GET /c HTTP/1.0\r\n\r\nGET /d HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(driver.log == ["PUT /a ok", "GET /b", "GET /c"] && driver.machine.isFinished)
    }

    @Test("the request line limit: its length passes, one more byte is 414, even before the line ends")
    func requestLineLimit() {
        var limits = HTTPLimits()
        limits.requestLineBytes = 32
        let line = "GET /" + String(repeating: "a", count: 32 - 14) + " HTTP/1.1"
        #expect(line.utf8.count == 32)
        var fits = HTTPDriver(limits: limits)
        fits.send(line + "\r\nHost: x\r\n\r\n")
        #expect(fits.statuses == [200])
        var over = HTTPDriver(limits: limits)
        over.send(Array(("GET /a" + String(repeating: "a", count: 100)).utf8), chunksOf: 1)
        #expect(over.statuses == [414] && over.machine.isFinished && over.mostBuffered <= 34)
    }

    @Test("the header section's size and field count: at the limit it passes, past it 431")
    func headerLimits() {
        var limits = HTTPLimits()
        limits.headerSectionBytes = 64
        limits.headerFieldCount = 3
        // "Host: x\r\n" (9) + "X: " + value + "\r\n" + "\r\n" = 64.
        let value = String(repeating: "v", count: 64 - 9 - 5 - 2)
        var fits = HTTPDriver(limits: limits)
        fits.send("GET /a HTTP/1.1\r\nHost: x\r\nX: \(value)\r\n\r\n")
        #expect(fits.statuses == [200])
        var over = HTTPDriver(limits: limits)
        over.send(Array("GET /a HTTP/1.1\r\nHost: x\r\nX: \(value)v\r\n\r\n".utf8), chunksOf: 1)
        #expect(over.statuses == [431] && over.log.isEmpty)
        var endless = HTTPDriver(limits: limits)
        endless.send(Array(("GET /a HTTP/1.1\r\n" + String(repeating: "X: y\r\n", count: 1000)).utf8), chunksOf: 5)
        #expect(endless.statuses == [431] && endless.mostBuffered <= limits.headBytes + 5)
        var many = HTTPDriver(limits: limits)
        many.send("GET /a HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n")
        #expect(many.statuses == [431])
    }

    @Test("a body over the limit is 413 before any of it is read; at the limit it runs")
    func bodyLimit() {
        var limits = HTTPLimits()
        limits.bodyBytes = 4
        var fits = HTTPDriver(limits: limits)
        fits.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd")
        #expect(fits.log == ["POST /a abcd"])
        var over = HTTPDriver(limits: limits)
        over.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n")
        #expect(over.statuses == [413] && over.machine.isFinished)
        var skipped = HTTPDriver(limits: limits)
        skipped.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")
        #expect(skipped.statuses == [413] && !skipped.machine.isClosing)
    }

    @Test("while a request runs nothing is read; the next head waits in the buffer, bounded")
    func noReadAhead() {
        var driver = HTTPDriver()
        driver.completesAtOnce = false
        driver.send(Self.get + Self.get)
        #expect(driver.log == ["GET /a"] && driver.machine.isRunning && !driver.machine.wantsInput)
        #expect(driver.machine.nextDeadline == nil && driver.machine.bufferedInputCount == Self.get.utf8.count)
        driver.machine.complete(HTTPResponse(status: 204), now: driver.now)
        driver.run()
        #expect(driver.log == ["GET /a", "GET /a"] && driver.statuses == [204])
    }

    @Test("the last request a connection answers says Connection: close")
    func requestsPerConnection() {
        var limits = HTTPLimits()
        limits.requestsPerConnection = 2
        var driver = HTTPDriver(limits: limits)
        driver.send(Self.get + Self.get + Self.get)
        #expect(driver.log.count == 2 && driver.machine.isFinished)
        #expect(driver.text.components(separatedBy: "Connection: close").count == 2)
    }

    @Test("a slow head is 408 at its deadline, once; the deadline counts from its first byte")
    func headDeadline() {
        var driver = HTTPDriver()
        let start = driver.now
        #expect(driver.machine.nextDeadline == start + .seconds(HTTPLimit.idleSeconds))
        driver.now = start + .seconds(5)
        driver.send("GET /a HTTP/1.1\r\n")
        #expect(driver.machine.nextDeadline == start + .seconds(5 + HTTPLimit.headSeconds))
        driver.now = start + .seconds(14)
        driver.send("Host: x\r\n")
        let early = driver.machine.expire(now: start + .seconds(14))
        let due = driver.machine.expire(now: start + .seconds(15))
        let again = driver.machine.expire(now: start + .seconds(16))
        driver.read()
        #expect(!early && due && !again && driver.statuses == [408] && driver.machine.isFinished)
        #expect(driver.machine.nextDeadline == nil)
    }

    @Test("a body that stalls is 408; an idle kept-alive connection closes silently, once")
    func bodyAndIdleDeadlines() {
        var driver = HTTPDriver()
        let start = driver.now
        driver.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nabc")
        #expect(driver.machine.nextDeadline == start + .seconds(HTTPLimit.bodyStallSeconds))
        let stalled = driver.machine.expire(now: start + .seconds(HTTPLimit.bodyStallSeconds))
        #expect(stalled)
        driver.read()
        #expect(driver.statuses == [408] && driver.machine.isFinished)

        var idle = HTTPDriver()
        idle.send(Self.get)
        let answered = idle.written.count
        let deadline = idle.now + .seconds(HTTPLimit.idleSeconds)
        #expect(idle.machine.nextDeadline == deadline)
        let due = idle.machine.expire(now: deadline)
        let again = idle.machine.expire(now: deadline + .seconds(1))
        #expect(due && !again)
        idle.read()
        #expect(idle.machine.isFinished && idle.written.count == answered)
    }

    @Test("a client that half-closes gets the answers to what it sent whole, then the close")
    func halfClose() {
        var driver = HTTPDriver()
        driver.machine.receive(Array((Self.get + "GET /b HT").utf8)[...], now: driver.now)
        driver.machine.endInput()
        driver.run()
        #expect(driver.log == ["GET /a"] && driver.machine.isFinished)
    }

    @Test("a response's field values cannot split its head")
    func responseFieldsStayOnOneLine() {
        var output: [UInt8] = []
        HTTPResponse(status: 200, fields: [HTTPField(name: "X", value: "a\r\nSet-Cookie: b")])
            .encode(closesConnection: false, omitsBody: false, into: &output)
        #expect(
            String(decoding: output, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nX: aSet-Cookie: b\r\n\(Self.security)Content-Length: 0\r\n\r\n")
    }

    @Test("every response carries the security fields once, refusals too; a response's own field replaces the default")
    func securityFields() {
        var refused = HTTPDriver()
        refused.send("GET /a HTTP/1.1\r\n\r\n")
        #expect(refused.statuses == [400] && refused.text.contains(Self.security))
        var output: [UInt8] = []
        HTTPResponse(status: 200, fields: [HTTPField(name: "content-security-policy", value: "default-src 'none'")])
            .encode(closesConnection: false, omitsBody: false, into: &output)
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.components(separatedBy: "ontent-security-policy").count == 2)
        #expect(text.contains("content-security-policy: default-src 'none'\r\n"))
        #expect(text.contains("X-Content-Type-Options: nosniff\r\n") && text.contains("Cache-Control: no-store\r\n"))
    }

    @Test("the machine's security fields are the pages' (PageSecurity.headers): the fuzzed machine keeps its own copy")
    func securityFieldsArePageSecurity() {
        #expect(HTTPResponse.securityFields.map(\.name) == PageSecurity.headers.map(\.name))
        #expect(HTTPResponse.securityFields.map(\.value) == PageSecurity.headers.map(\.value))
    }

    @Test("a body over the limit but within twice it is answered 413 and skipped: the next request is served")
    func discardsRefusedBody() {
        var limits = HTTPLimits()
        limits.bodyBytes = 10
        var driver = HTTPDriver(limits: limits)
        let body = String(repeating: "b", count: 20)
        driver.send(
            "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n\(body.prefix(7))")
        #expect(driver.statuses == [413] && !driver.machine.isClosing && driver.machine.wantsInput)
        driver.send(String(body.dropFirst(7)) + Self.get)
        #expect(driver.log == ["GET /a"] && driver.statuses == [413, 200])
        #expect(!driver.text.contains("Connection: close") && !driver.machine.isClosing)
        // Past twice the limit, or on a connection that closes anyway, the refusal closes.
        var far = HTTPDriver(limits: limits)
        far.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 21\r\n\r\n")
        #expect(far.statuses == [413] && far.machine.isFinished && far.text.contains("Connection: close"))
        var closing = HTTPDriver(limits: limits)
        closing.send("POST /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 12\r\n\r\n")
        #expect(closing.machine.isFinished)
        // A body that stalls while skipped ends the connection without a second answer.
        var stalled = HTTPDriver(limits: limits)
        stalled.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\nbb")
        let deadline = stalled.machine.nextDeadline ?? stalled.now
        let expired = stalled.machine.expire(now: deadline)
        #expect(expired && stalled.machine.isClosing && stalled.statuses == [413])
    }

    @Test(
        "Expect: 100-continue: 100 Continue once the head is accepted, then the final answer; refused, no 100 and close"
    )
    func expectContinue() {
        var limits = HTTPLimits()
        limits.bodyBytes = 10
        var driver = HTTPDriver(limits: limits)
        driver.send("POST /p HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(driver.text == "HTTP/1.1 100 Continue\r\n\r\n" && driver.log.isEmpty)
        driver.send("hello")
        #expect(driver.log == ["POST /p hello"] && driver.statuses == [100, 200])
        var refused = HTTPDriver(limits: limits)
        refused.send("POST /p HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n")
        #expect(refused.statuses == [413] && refused.machine.isFinished)
    }

    @Test("a head with a body waits for its admission: nothing of the body is read and no 100 Continue goes out")
    func bodyWaitsForAdmission() {
        var driver = HTTPDriver()
        driver.judge = { _ in nil }
        driver.send("POST /p HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhel")
        #expect(driver.judged == ["/p"] && driver.written.isEmpty && driver.log.isEmpty)
        #expect(driver.machine.isRunning && !driver.machine.wantsInput && driver.machine.nextDeadline == nil)
        #expect(driver.machine.bufferedInputCount == 3)
        driver.machine.admit(.body(limit: 5, tooLarge: .refusal(413, "too large")), now: driver.now)
        driver.run()
        #expect(driver.text == "HTTP/1.1 100 Continue\r\n\r\n" && driver.machine.wantsInput)
        driver.send("lo")
        #expect(driver.log == ["POST /p hello"] && driver.statuses == [100, 200])
        // A request without a body is not judged by the machine: the application authenticates it as it runs.
        var plain = HTTPDriver()
        plain.judge = { _ in nil }
        plain.send(Self.get)
        #expect(plain.judged.isEmpty && plain.log == ["GET /a"])
    }

    @Test("a refused head is answered without its body read and without 100 Continue; a small body is skipped")
    func refusedBeforeBody() {
        let unauthorized = HTTPResponse(status: 401, fields: [HTTPField(name: "WWW-Authenticate", value: "Bearer")])
        var waiting = HTTPDriver()
        waiting.judge = { _ in .refused(unauthorized) }
        waiting.send("POST /p HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\r\n")
        #expect(waiting.statuses == [401] && !waiting.text.contains("100 Continue") && waiting.log.isEmpty)
        #expect(waiting.machine.isFinished && waiting.text.contains("Connection: close"))
        // A client that sends its body at once (no Expect) keeps its connection when the body is small: it is read
        // and dropped, never run, and the next request is served.
        var eager = HTTPDriver()
        eager.judge = { _ in .refused(unauthorized) }
        eager.send("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" + Self.get)
        #expect(eager.statuses == [401, 200] && eager.log == ["GET /a"] && !eager.machine.isClosing)
        // A large one closes the connection after the answer: skipping it would cost the server its bandwidth.
        var large = HTTPDriver()
        large.judge = { _ in .refused(unauthorized) }
        large.send("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: \(2 * HTTPLimit.bodyBytes + 1)\r\n\r\nabc")
        #expect(large.statuses == [401] && large.machine.isFinished && large.log.isEmpty)
    }

    @Test("the route's limit bounds the body: a 4 MiB screenshot under a 5 MiB limit runs, 6 MiB is refused unread")
    func routeLimit() {
        let screenshotLimit = 5 << 20
        let tooLarge = HTTPResponse(status: 413, body: Array(#"{"code":"TOOLONG"}"#.utf8))
        var driver = HTTPDriver()
        driver.judge = { head in
            .body(
                limit: head.target.hasSuffix("/screenshots") ? screenshotLimit : HTTPLimit.bodyBytes, tooLarge: tooLarge
            )
        }
        let image = [UInt8](repeating: 7, count: 4 << 20)
        driver.send(Array("POST /p/screenshots HTTP/1.1\r\nHost: x\r\nContent-Length: \(image.count)\r\n\r\n".utf8))
        driver.send(image, chunksOf: 1 << 16)
        #expect(driver.log.count == 1 && driver.statuses == [200])
        #expect(driver.mostBuffered <= image.count + (1 << 16))
        // The same size on a JSON route is over its limit; past the route's own limit it is refused too.
        var json = HTTPDriver()
        json.judge = driver.judge
        json.send("POST /p/findings HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: \(4 << 20)\r\n\r\n")
        #expect(json.statuses == [413] && json.text.contains("TOOLONG") && json.machine.isFinished)
        var over = HTTPDriver()
        over.judge = driver.judge
        over.send("POST /p/screenshots HTTP/1.1\r\nHost: x\r\nContent-Length: \(6 << 20)\r\n\r\nabc")
        #expect(over.statuses == [413] && over.log.isEmpty && over.machine.isFinished)
        #expect(over.machine.bufferedInputCount == 0)
    }

    @Test("on TLS nothing is read or run before the handshake completes; then the transport is read once")
    func handshakeFirst() {
        let start = ContinuousClock.now
        var machine = HTTPMachine<StreamEvent>(now: start, handshakeDeadline: start + .seconds(10))
        #expect(machine.isHandshaking && machine.wantsReadable && !machine.wantsInput)
        let action1 = machine.nextAction(now: start)
        #expect(action1 == .wait)
        machine.receive(Array(Self.get.utf8)[...], now: start)
        #expect(machine.bufferedInputCount == 0)
        machine.transportReady()
        let action2 = machine.nextAction(now: start)
        #expect(action2 == .handshake)
        machine.handshakeStepped(.wantWrite, now: start)
        let action3 = machine.nextAction(now: start)
        #expect(machine.wantsWritable && !machine.wantsReadable && action3 == .wait)
        machine.transportReady()
        let action4 = machine.nextAction(now: start)
        #expect(action4 == .handshake)
        machine.handshakeStepped(.done(0), now: start + .seconds(1))
        let action5 = machine.nextAction(now: start)
        #expect(!machine.isHandshaking && action5 == .read)
        // The idle timeout counts from the handshake's end.
        #expect(machine.nextDeadline == start + .seconds(1) + machine.limits.idleTimeout)
        machine.receive(Array(Self.get.utf8)[...], now: start + .seconds(1))
        guard case .execute(let head, _) = machine.nextAction(now: start + .seconds(1)) else {
            Issue.record("the request did not run after the handshake")
            return
        }
        #expect(head.target == "/a")
    }

    @Test("a failed, abandoned or late handshake closes without a word")
    func handshakeFailures() {
        let start = ContinuousClock.now
        var failed = HTTPMachine<StreamEvent>(now: start, handshakeDeadline: start + .seconds(10))
        failed.transportReady()
        failed.handshakeStepped(.failed("wrong version number"), now: start)
        let action6 = failed.nextAction(now: start)
        #expect(action6 == .closeSilently(.failed("wrong version number")))
        #expect(failed.pendingOutputCount == 0 && failed.nextDeadline == nil)
        var left = HTTPMachine<StreamEvent>(now: start, handshakeDeadline: start + .seconds(10))
        left.handshakeStepped(.closed, now: start)
        let action7 = left.nextAction(now: start)
        #expect(action7 == .closeSilently(.peerLeft))
        var late = HTTPMachine<StreamEvent>(now: start, handshakeDeadline: start + .seconds(10))
        #expect(late.nextDeadline == start + .seconds(10))
        let early = late.expire(now: start + .seconds(9))
        let due = late.expire(now: start + .seconds(10))
        #expect(!early && due)
        let action8 = late.nextAction(now: start + .seconds(10))
        #expect(action8 == .closeSilently(.timedOut))
        #expect(late.pendingOutputCount == 0)
    }

    @Test("curl, an independent client, reuses one kept-alive connection for a GET, a HEAD and a POST")
    func realClient() throws {
        let listener = try Listener.open(.tcp(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        guard case .tcp(_, let port) = listener.address else { throw TestSupportError("no TCP port") }
        let descriptor = listener.descriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        Thread.detachNewThread { Self.serveOne(descriptor) }
        defer { shutdown(descriptor, Int32(SHUT_RDWR)) }
        let base = "http://127.0.0.1:\(port)"
        let result = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-sS", "-v", "--http1.1", "--max-time", "20", "\(base)/a/b%20c?q=1", "--next", "-I", "\(base)/h",
                "--next", "--data-binary", "hello", "\(base)/p",
            ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("GET /a/b%20c?q=1") && result.output.contains("POST /p hello"))
        #expect(result.output.contains("HTTP/1.1 200 OK") && result.output.contains("Content-Length: 7"))
        // One connection for all three requests.
        #expect(result.error.components(separatedBy: "Connected to").count == 2, "\(result.error)")
        #expect(result.error.contains("Re-using") || result.error.contains("Reusing"), "\(result.error)")
    }

    /// Accepts one connection on a blocking listening socket and serves it with an `HTTPMachine` until it ends.
    private static func serveOne(_ listener: Int32) {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        defer { close(client) }
        var driver = HTTPDriver()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !driver.machine.isFinished {
            let count = read(client, &buffer, buffer.count)
            driver.now = .now
            if count <= 0 {
                driver.machine.endInput()
                driver.machine.receive([][...], now: driver.now)
            } else {
                driver.machine.receive(buffer[..<count], now: driver.now)
            }
            let before = driver.written.count
            driver.run()
            let reply = Array(driver.written[before...])
            guard reply.withUnsafeBytes({ write(client, $0.baseAddress, $0.count) }) == reply.count else { return }
            if count <= 0 { return }
        }
    }
}
