/// Splits a byte stream into request lines ending in LF or CRLF, refusing lines longer than a limit.
///
/// A value type owned by one connection. Bytes are appended as they arrive; `nextLine()` returns each complete
/// line without its terminator. A line over the limit is reported as soon as the limit is passed (the server need
/// not buffer it), and the rest of that line is discarded up to its LF, so the connection stays usable.
public struct LineFramer: Sendable {
    /// The default maximum line length: 64 KiB, terminator excluded.
    public static let defaultMaximumLineLength = 64 * 1024

    /// The maximum accepted line length in bytes, terminator excluded.
    public let maximumLineLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var isDiscarding = false
    /// A payload from this size on leaves the framer a buffer of only the bytes that followed it.
    private static let largePayload = 1 << 16

    /// Creates a framer with the given line limit.
    public init(maximumLineLength: Int = LineFramer.defaultMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// Bytes received but not yet returned as lines.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Appends bytes read from the peer. Not generic: a generic append, compiled in this module, is not specialized
    /// for the server's read buffer in another, and looked up the slice's metadata and conformances at run time on
    /// every read.
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        if start > 0 && start == buffer.count {
            // Everything before was framed (the usual case between requests): the buffer starts again, empty.
            buffer.removeAll(keepingCapacity: true)
            scanned = 0
            start = 0
        } else if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes read from the peer.
    public mutating func append(_ bytes: [UInt8]) { append(bytes[...]) }

    /// Makes room for an upload of `count` bytes that follows what is buffered, so that receiving it never copies
    /// the bytes received so far into a larger buffer (which would hold them twice for a moment).
    public mutating func reservePayload(count: Int) {
        if start > 0 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.reserveCapacity(buffer.count + count)
    }

    /// Takes the next `count` raw bytes (an upload's payload) once they are all buffered; nil until then. When the
    /// payload is all that is buffered (the usual case: the client waits for the reply), the buffer itself is handed
    /// over rather than copied.
    public mutating func takePayload(count: Int) -> [UInt8]? {
        guard buffer.count - start >= count else { return nil }
        if buffer.count - start == count {
            if start > 0 { buffer.removeFirst(start) }
            let payload = buffer
            buffer = []
            start = 0
            scanned = 0
            return payload
        }
        let payload = Array(buffer[start..<start + count])
        start += count
        scanned = start
        if count >= Self.largePayload {
            // The bytes pipelined after a large payload move to a buffer of their own size: the upload's buffer,
            // reserved for the whole payload, must not stay with the connection for the rest of its life.
            buffer = Array(buffer[start...])
            start = 0
            scanned = 0
        }
        return payload
    }

    /// Drops up to `count` buffered bytes of a payload that is refused, and returns how many are still to come.
    public mutating func discardPayload(count: Int) -> Int {
        let dropped = min(count, buffer.count - start)
        start += dropped
        scanned = start
        return count - dropped
    }

    /// Returns the next complete line, nil when none is complete yet, or throws for a line over the limit or not
    /// valid UTF-8. After a throw, the framer carries on with the next line.
    public mutating func nextLine() throws(ProtocolError) -> String? {
        guard let bytes = try nextLineBytes() else { return nil }
        return try Self.decode(bytes)
    }

    /// Like `nextLine()`, but returns the line's bytes without decoding them (nor checking them): a caller with a
    /// faster way to recognise some lines tries it first, then parses the rest (`Request(line:)` checks them).
    public mutating func nextLineBytes() throws(ProtocolError) -> ArraySlice<UInt8>? {
        while true {
            guard let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) else {
                scanned = buffer.count
                if !isDiscarding && buffer.count - start > maximumLineLength + 1 {
                    // Drop what is buffered and everything up to the line's end.
                    isDiscarding = true
                    start = buffer.count
                    throw .lineTooLong(limit: maximumLineLength)
                }
                if isDiscarding { start = buffer.count }
                return nil
            }
            let lineStart = start
            start = newline + 1
            scanned = start
            if isDiscarding {
                isDiscarding = false
                continue
            }
            var end = newline
            if end > lineStart && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            guard end - lineStart <= maximumLineLength else { throw .lineTooLong(limit: maximumLineLength) }
            return buffer[lineStart..<end]
        }
    }

    /// Checks and decodes a line's bytes: UTF-8, and no control character but tab (`nextLine()`; internal, for the
    /// fuzz target and the tests).
    static func decode(_ bytes: ArraySlice<UInt8>) throws(ProtocolError) -> String {
        // On the contiguous bytes (an array slice always has them): the generic forms cost more than the check.
        let decoded = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(ProtocolError) -> String in
                _ = try check(buffer)
                return String(decoding: buffer, as: UTF8.self)
            }
        }
        return try decoded.get()
    }

    /// Checks a line's bytes: no control character but tab, and valid UTF-8. Returns whether they are all ASCII.
    static func check(_ buffer: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> Bool {
        // Control characters are single bytes that never occur inside a multi-byte UTF-8 character, so the bytes
        // can be checked before decoding; a line of ASCII alone (the usual one) needs no further validation.
        var isASCII = true
        for byte in buffer {
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { throw .badLine("the line holds a control character") }
            if byte >= 0x80 { isASCII = false }
        }
        if !isASCII && String(validating: buffer, as: UTF8.self) == nil {
            throw .badLine("the line is not valid UTF-8")
        }
        return isASCII
    }
}
