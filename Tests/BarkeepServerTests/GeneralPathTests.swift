import BarkeepProtocol
import BarkeepTestSupport
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

    @Test("a TCP connection the server accepted sends small writes at once: TCP_NODELAY set on it, not on its listener")
    func noDelay() throws {
        let running = try RunningServer()
        let client = try LineClient(port: running.port)
        #expect(try client.request("PING") == "OK PONG")
        // The server runs in this process: its accepted socket is the descriptor whose own port is the listener's
        // and that has a peer.
        func port(_ descriptor: Int32, peer: Bool) -> UInt16? {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    peer ? getpeername(descriptor, $0, &length) == 0 : getsockname(descriptor, $0, &length) == 0
                }
            }
            guard named, address.sin_family == sa_family_t(AF_INET) else { return nil }
            return UInt16(bigEndian: address.sin_port)
        }
        func isNoDelay(_ descriptor: Int32) -> Bool {
            var value: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &size) == 0 && value != 0
        }
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(Int32.init)
        let server = descriptors.filter { port($0, peer: false) == running.port }
        let accepted = server.filter { port($0, peer: true) != nil }
        let listening = server.filter { port($0, peer: true) == nil }
        try #require(accepted.count == 1 && listening.count == 1)
        #expect(isNoDelay(accepted[0]))
        #expect(!isNoDelay(listening[0]))
    }
}
