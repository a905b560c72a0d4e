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
    /// Whether the loop currently asks the kernel for writability.
    var isWatchingWrites = false
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
        if outputStart > 0 && outputStart == output.count {
            output.removeAll(keepingCapacity: true)
            outputStart = 0
        }
        output.append(contentsOf: reply.encoded.utf8)
    }
}
