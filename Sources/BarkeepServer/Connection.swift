import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Synchronization

/// One client connection. Confined to the event loop thread, like everything it holds.
final class Connection {
    /// What the connection is doing.
    enum State {
        /// Reading and answering requests.
        case ready
        /// A command runs on the database pool; later requests wait in the framer.
        case running
        /// Receiving an upload of `size` bytes for a resolved command.
        case receivingPayload(CommandTable.Resolved, size: Int)
        /// Skipping `remaining` bytes of a refused upload.
        case discardingPayload(remaining: Int)
        /// Streaming events.
        case watching(Watch)
    }

    /// A watcher's progress.
    struct Watch {
        var projectID: Int64
        var project: String
        /// The sequence number of the last event queued to the client, or passed over by its filter.
        var lastSent: Int64
        /// The events the client wants.
        var filter: EventFilter
        /// Replaying stored events page by page; live events wait until the replay catches up.
        var isReplaying = true
        /// A page request is out to the dispatcher.
        var isPageRequested = false
    }

    let descriptor: Int32
    let token: UInt64
    var session: Session
    var framer: LineFramer
    var state: State = .ready
    /// Encoded replies not yet written, from `outputStart` on.
    var output: [UInt8] = []
    var outputStart = 0
    /// Close once `output` has been written.
    var isClosing = false
    /// Whether reading is paused because the client does not read its replies.
    var isReadingPaused = false
    /// The readiness events the poller watches for now (as registered at accept: reads).
    var interest: UInt32
    /// The peer has sent everything it will (it half-closed, or its stream ended): answer what it sent, then close.
    var isInputClosed = false
    /// The TLS session of a connection accepted on a TCP listener of a server with a certificate; nil: plain text.
    var tls: TLSSession?
    /// Upload bytes this connection holds against the server's total (`maximumPayloadTotal`), from the upload's
    /// announcement until its command finished.
    var reservedUpload = 0
    /// When the connection last sent bytes: an upload that sends none for the upload timeout is dropped.
    var lastInputAt = ContinuousClock.now
    /// The TLS handshake is not complete: nothing is read as requests or written as replies yet.
    var isHandshaking = false
    /// The ticket of the command on the database pool, while one is there.
    var ticket: CommandTicket?

    init(descriptor: Int32, token: UInt64, session: Session, maximumLineLength: Int, interest: UInt32) {
        self.interest = interest
        self.descriptor = descriptor
        self.token = token
        self.session = session
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
    }

    var pendingOutputCount: Int { output.count - outputStart }

    var isWatching: Bool {
        if case .watching = state { return true }
        return false
    }

    /// Whether the connection is receiving or skipping an upload's bytes.
    var isUploading: Bool {
        switch state {
        case .receivingPayload, .discardingPayload: true
        default: false
        }
    }

    var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    func enqueue(_ reply: Reply) {
        reply.encode(into: &output)
    }

    func enqueue(line: String) {
        output.append(contentsOf: line.utf8)
        output.append(UInt8(ascii: "\n"))
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

/// Whether the client of a command sent to the database pool is still there: the loop cancels the ticket when it
/// closes the connection, and a pool thread that reaches a cancelled command does not start it.
final class CommandTicket: Sendable {
    private let cancelled = Atomic(false)

    /// The client is gone.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether the client is gone.
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}
