import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Bad HTTP clients against a real barkeepd: floods of header fields, a huge `Content-Length`, slow senders, more
/// connections than `--http-max-connections`, idle connections. Each is refused or dropped, the daemon's memory stays
/// bounded, and the line protocol answers on TCP and the Unix socket throughout. Kept small (a few hundred
/// connections, not the 10,000) so that it stays fast in the unit suite.
@Suite("HTTP abuse end to end")
struct HTTPAbuseTests {
    /// HTTP connections the daemon serves at once in this test.
    static let budget = 200

    /// The daemon's resident memory, in KiB, from /proc.
    private func residentKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Reads a response head's lines (without CR) until the blank line; empty when the connection closed first.
    private func readHead(_ client: LineClient) throws -> [String] {
        var lines: [String] = []
        while let line = try client.readLine() {
            let text = line.hasSuffix("\r") ? String(line.dropLast()) : line
            if text.isEmpty { return lines }
            lines.append(text)
        }
        return lines
    }

    /// Whether the server closes the connection after what it sent (a refusal's body): the end of the stream, or a
    /// reset, within the client's read timeout.
    private func isClosed(_ client: LineClient) -> Bool {
        for _ in 0..<16 {
            do {
                if try client.readLine() == nil { return true }
            } catch {
                return !"\(error)".contains("temporarily unavailable")
            }
        }
        return false
    }

    private func port(_ address: String?) throws -> UInt16 {
        try #require(address.flatMap { UInt16($0.split(separator: ":").last ?? "") })
    }

    @Test("header floods, a huge Content-Length, slow senders, connections past the limit and idle ones")
    func abuse() throws {
        let daemon = try TestDaemon(
            http: true, arguments: ["--http-max-connections", String(Self.budget), "--http-idle-timeout", "2"])
        let http = try port(daemon.httpAddress)
        let pid = daemon.process.pid
        let line = try LineClient(port: daemon.port)
        let local = try LineClient(socketPath: daemon.socket)
        #expect(try line.request("PING") == "OK PONG")

        // Too many fields, too many header bytes, a body too large to read: refused with their status.
        let fieldFlood = try LineClient(port: http)
        try fieldFlood.send(
            "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<150).map { "X-F\($0): y\r\n" }.joined() + "\r\n")
        #expect(try readHead(fieldFlood).first == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(isClosed(fieldFlood))
        let byteFlood = try LineClient(port: http)
        try byteFlood.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 34_000) + "\r\n\r\n")
        #expect(try readHead(byteFlood).first == "HTTP/1.1 431 Request Header Fields Too Large")
        // A length past any number a body could have: 413 before anything else; an anonymous huge body: 401 before a
        // byte of it is read, and closed.
        let absurd = try LineClient(port: http)
        try absurd.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n")
        let absurdHead = try readHead(absurd)
        #expect(absurdHead.first == "HTTP/1.1 413 Content Too Large")
        #expect(absurdHead.contains("X-Content-Type-Options: nosniff"))
        let huge = try LineClient(port: http)
        try huge.send("POST /api/v1/projects/p/screenshots HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n")
        let hugeHead = try readHead(huge)
        #expect(hugeHead.first == "HTTP/1.1 401 Unauthorized" && hugeHead.contains("Connection: close"))
        // An anonymous body over the JSON limit but within twice it: 401 unread, the body skipped, the next request on
        // the same connection answered.
        let skipped = try LineClient(port: http)
        let length = HTTPLimit.bodyBytes + HTTPLimit.bodyBytes / 2
        try skipped.send(
            Array("POST /api/v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n".utf8)
                + [UInt8](repeating: 0x61, count: length)
                + Array("GET /api/v1/projects HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try readHead(skipped).first == "HTTP/1.1 401 Unauthorized")
        // The JSON body has no line end: the next answer's status line follows it on the same line.
        let next = try skipped.readLine() ?? ""
        #expect(next.contains("\"code\":\"NOAUTH\"") && next.hasSuffix("HTTP/1.1 401 Unauthorized\r"), "\(next)")

        // Slow senders fill the budget: each sent a request line and nothing more.
        let before = residentKiB(pid)
        var slow: [LineClient] = []
        for _ in 0..<Self.budget {
            let client = try LineClient(port: http)
            try client.send("GET / HTTP/1.1\r\n")
            slow.append(client)
        }
        // Past the budget: accepted, answered 503 with Retry-After, closed.
        for _ in 0..<20 {
            let refused = try LineClient(port: http)
            let head = try readHead(refused)
            #expect(head.first == "HTTP/1.1 503 Service Unavailable")
            #expect(head.contains("Retry-After: 1"))
            #expect(isClosed(refused))
        }
        // The line protocol's slots are its own: PING answers on TCP and on the Unix socket, and new clients get in.
        #expect(try line.request("PING") == "OK PONG")
        #expect(try local.request("PING") == "OK PONG")
        #expect(try LineClient(port: daemon.port).request("PING") == "OK PONG")
        let full = residentKiB(pid)
        #expect(full - before < 64 * 1024, "RSS grew from \(before) KiB to \(full) KiB")

        // Half the slow senders leave: their slots come back, a new client is answered (401 without a token) and
        // then idles, with others that send nothing at all.
        for client in slow.suffix(Self.budget / 2) { client.shutdownWrite() }
        slow.removeLast(Self.budget / 2)
        var probe: LineClient?
        #expect(
            try eventually(.seconds(10)) {
                let client = try LineClient(port: http)
                try client.send("GET /api/v1/projects HTTP/1.1\r\nHost: x\r\n\r\n")
                guard try readHead(client).first == "HTTP/1.1 401 Unauthorized" else { return false }
                probe = client
                return true
            })
        var idle: [LineClient] = try (0..<(Self.budget / 4)).map { _ in try LineClient(port: http) }
        if let probe { idle.append(probe) }
        // Idle connections are dropped at the idle timeout (2 s here), without a word.
        for client in idle { #expect(client.isClosedByServer()) }
        // Slow senders get 408 at the head deadline (10 s from their first byte), then the connection closes.
        for client in slow {
            var head: [String] = []
            let answered = eventually(.seconds(20)) {
                head = (try? readHead(client)) ?? []
                return !head.isEmpty
            }
            #expect(answered)
            #expect(head.first == "HTTP/1.1 408 Request Timeout")
            #expect(isClosed(client))
        }
        #expect(try line.request("PING") == "OK PONG")
        #expect(try local.request("PING") == "OK PONG")
        let after = residentKiB(pid)
        #expect(after - before < 64 * 1024, "RSS grew from \(before) KiB to \(after) KiB")
    }
}
