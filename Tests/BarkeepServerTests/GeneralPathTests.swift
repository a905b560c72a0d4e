import BarkeepProtocol
import BarkeepTestSupport
import CBarkeepSystem
import Foundation
import Testing

@testable import BarkeepServer

#if canImport(Glibc)
    import Glibc
#endif

/// The general request path's shortcuts answer exactly what the full path would, and only for the lines they are for.
@Suite("The general request path")
struct GeneralPathTests {
    @Test("only a line that is a constant command's name, in any case and between blanks, is answered from its bytes")
    func constantLines() {
        let table = CommandTable.basic
        let pong = Array("OK PONG\n".utf8)
        for line in ["PING", "ping", " \tPing \t"] {
            #expect(table.constantReply(for: Array(line.utf8)[...]) == pong, "\(line)")
        }
        // `0` has the same bit as `P` among the constants' first letters; QUIT is no constant (it closes); a quoted
        // word is the tokenizer's.
        for line in ["\"PING\"", "0ING", "PINGS", "PIN", "PING x", "QUIT", "", "  ", "P\u{e9}NG"] {
            #expect(table.constantReply(for: Array(line.utf8)[...]) == nil, "\(line)")
        }
    }

    @Test("a quoted PING runs through the tokenizer, the table and its handler, and is answered as a bare one")
    func quotedPing() throws {
        let running = try RunningServer()
        let client = try LineClient(port: running.port)
        // Pipelined, so that small replies of both kinds pile up in one output between writes.
        try client.send(String(repeating: "\"PING\"\nPING\n\"ping\"\n", count: 300))
        var replies: [String: Int] = [:]
        for _ in 0..<900 { replies[try client.readLine() ?? "closed", default: 0] += 1 }
        #expect(replies == ["OK PONG": 900])
        #expect(try client.request("PING extra")?.hasPrefix("ERR BADARG") == true)
    }

    @Test("an accepted TCP connection sends small writes at once (TCP_NODELAY)")
    func noDelay() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        try #require(bound)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) == 0 }
        }
        try #require(connected)
        let accepted = barkeep_accept(listener)
        try #require(accepted >= 0)
        defer { close(accepted) }
        func isNoDelay() -> Bool {
            var value: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(accepted, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &size) == 0 && value != 0
        }
        #expect(!isNoDelay())
        #expect(barkeep_set_no_delay(accepted) == 0)
        #expect(isNoDelay())
    }
}
