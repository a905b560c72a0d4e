import BarkeepBenchSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One kept-alive HTTP/1.1 connection to barkeepd's HTTP listener, as a browser holds one: a request, then its whole
/// answer (its length from `Content-Length`), then the next request on the same connection.
final class HTTPConnection {
    /// An answer: its status, its header fields (names lowercased) and its body.
    struct Answer {
        var status: Int
        var fields: [(name: String, value: String)]
        var body: [UInt8]

        /// The first value of field `name` (lowercase).
        func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }
    }

    private let descriptor: Int32
    private let host: String
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    init(port: UInt16) throws {
        descriptor = try connectedSocket(port: port)
        host = "127.0.0.1:\(port)"
    }

    deinit { close(descriptor) }

    /// Sends `method` `path` with `fields` (and `body`, its length given) and returns the whole answer.
    func request(
        _ method: String, _ path: String, fields: [(String, String)] = [], body: [UInt8] = []
    ) throws -> Answer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in fields { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try sendAll(Array(head.utf8) + body, on: descriptor)
        return try answer()
    }

    private func answer() throws -> Answer {
        let end: Int
        while true {
            if let found = headEnd() {
                end = found
                break
            }
            try receiveSome(into: &buffer, from: descriptor)
        }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines.first?.split(separator: " ") ?? []
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else {
            throw BenchError("not an HTTP answer: \(lines.first ?? "")")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append(
                (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        guard fields.first(where: { $0.name == "transfer-encoding" }) == nil else {
            throw BenchError("a chunked answer; this client reads Content-Length only")
        }
        let length = Int(fields.first { $0.name == "content-length" }?.value ?? "0") ?? 0
        let start = end + 4
        while buffer.count < start + length { try receiveSome(into: &buffer, from: descriptor) }
        let body = Array(buffer[start..<(start + length)])
        buffer.removeSubrange(..<(start + length))
        return Answer(status: status, fields: fields, body: body)
    }

    /// Where the buffered head ends (the index of its blank line's `\r\n\r\n`), if it is all here.
    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
