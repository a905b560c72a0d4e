import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One TCP connection to barkeepd's line protocol, sending a line and reading its whole reply.
public final class LineConnection {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    public init(port: UInt16) throws {
        descriptor = try connectedSocket(port: port)
    }

    deinit { close(descriptor) }

    /// Sends `line` and returns the reply's lines, the final one last.
    public func request(_ line: String) throws -> [String] {
        try sendAll(Array((line + "\n").utf8), on: descriptor)
        var lines: [String] = []
        // Lines are read from `start` on and the buffer compacted once per chunk: removing each line from the
        // front would move the rest of a 64 KiB chunk for every line of a large reply.
        var start = 0
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let text = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                lines.append(text)
                if text.hasPrefix("OK") || text.hasPrefix("ERR") {
                    buffer.removeSubrange(..<start)
                    return lines
                }
                continue
            }
            buffer.removeSubrange(..<start)
            start = 0
            try receiveSome(into: &buffer, from: descriptor)
        }
    }
}
