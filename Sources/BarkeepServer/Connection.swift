import BarkeepProtocol

/// One client connection. Confined to the event loop thread, like everything it holds.
final class Connection {
    let descriptor: Int32
    let token: UInt64
    var peer: Peer
    var framer: LineFramer
    /// Encoded replies not yet written, from `outputStart` on.
    var output: [UInt8] = []
    var outputStart = 0
    /// Close once `output` has been written.
    var isClosing = false
    /// Whether reading is paused because the client does not read its replies.
    var isReadingPaused = false

    init(descriptor: Int32, token: UInt64, peer: Peer, maximumLineLength: Int) {
        self.descriptor = descriptor
        self.token = token
        self.peer = peer
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
    }

    var pendingOutputCount: Int { output.count - outputStart }

    func enqueue(_ reply: Reply) {
        output.append(contentsOf: reply.encoded.utf8)
    }

    /// Drops the bytes already written, so the buffer holds only what is pending (and stays bounded with it).
    func compactOutput() {
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 16)
            outputStart = 0
        } else if outputStart >= 1 << 16 && outputStart * 2 >= output.count {
            output.removeFirst(outputStart)
            outputStart = 0
        }
    }
}
