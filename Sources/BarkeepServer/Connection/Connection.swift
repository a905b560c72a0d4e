import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Synchronization

/// One client connection: its socket and the loop's bookkeeping around its `machine`, which holds the framing, flow
/// control and replies. Confined to the event loop thread, like everything it holds.
final class Connection {
    /// A streamed reply in progress (`CommandAction.streamed`).
    struct Stream {
        /// The reply being read.
        let reply: StreamedReply
        /// The command's name, for the log.
        let command: String
        /// Whether a read replica may serve it (`Command.readsReplica`).
        var readsReplica = false
        /// The hand-over with the read on the pool, while there is one (it holds a database connection); nil
        /// between reads.
        var read: PageHandOff?
        /// The position of the last record queued, where a new read goes on from.
        var position: (any Sendable)?
        /// Records queued so far: the final line's count.
        var count = 0
    }

    let descriptor: Int32
    /// Its key in the poller and the loop's tables.
    let id: ConnectionID
    /// Requests in, actions out. Only the loop thread touches it, one call at a time, so its accesses are not
    /// checked for overlap at run time: the checks cost a few percent of a request on the general path.
    @exclusivity(unchecked) var machine: ConnectionMachine<CommandTable.SessionView>
    // Like `machine`, the properties marked `@exclusivity(unchecked)` are on every request's path, and only the loop
    // thread touches them, one access at a time.
    /// The readiness events the poller watches for now (as registered at accept: reads).
    @exclusivity(unchecked) var interest: UInt32
    /// How its bytes travel: plain text, or TLS for a connection accepted on a TCP listener of a server with a
    /// certificate.
    @exclusivity(unchecked) var transport: Transport
    /// The ticket of the command on the database pool, while one is there.
    var ticket: CommandTicket?
    /// The daemon's owner on a Unix socket (ServerConfiguration.isOwner): admin without a token, and counted in the
    /// owner's reserve rather than against the connection limit.
    var isOwner = false
    /// The reply being streamed, from its command's start to its final line.
    var stream: Stream?
    /// The loop's timer for the machine's `nextDeadline`, while one is set (at most one is current).
    var armedDeadline: DeadlineQueue.Entry?
    /// Where the primary's log ended after this client's last write, with a read replica: its reads go to the
    /// replica only once it has replayed this far (read-your-writes).
    var lastWrite: WALPosition?
    /// Whether the loop still has it (`EventLoop.close` clears it): the hot path asks this, not the loop's table.
    @exclusivity(unchecked) var isOpen = true
    /// Whether it is in the loop's list of connections written after this batch of events (`EventLoop.flushLater`).
    @exclusivity(unchecked) var isWaitingForFlush = false
    /// The loop's input mark (`EventLoop.nextInputMark`) of its last read or of its last command finished on the
    /// pool, whichever came later: a status lookup answers for its requests only when sent after that.
    @exclusivity(unchecked) var inputMark: UInt64 = 0

    init(
        descriptor: Int32,
        id: ConnectionID,
        machine: ConnectionMachine<CommandTable.SessionView>,
        interest: UInt32,
        transport: Transport
    ) {
        self.descriptor = descriptor
        self.id = id
        self.machine = machine
        self.interest = interest
        self.transport = transport
    }

    /// The kept reply the machine sends again for its line (`ConnectionMachine.keep`), for the cache's hit count.
    /// Its bytes are held against the cache's own size while it is kept (`StatusCache.holdOutside`), since an
    /// eviction there does not free them.
    private(set) var keptReply: KeptReply?

    /// Who is on the other end. A new session forgets the reply kept for a line: it was checked for the old one.
    var session: Session {
        get { machine.commands.session }
        set {
            machine.commands.session = newValue
            forgetKept()
        }
    }

    /// Keeps `reply` for the running request's line, valid while `stamp` holds (`ConnectionMachine.keep`), when the
    /// line may be kept and the replies connections keep so stay within the cache's size; otherwise keeps nothing.
    func keep(_ reply: KeptReply, stamp: KeptStamp) {
        forgetKept()
        guard reply.cache.holdOutside(reply.bytes.count) else { return }
        guard machine.keep(reply.bytes, stamp: stamp) else {
            reply.cache.releaseOutside(reply.bytes.count)
            return
        }
        keptReply = reply
    }

    /// Forgets the reply kept for a line, giving its bytes back to the cache's budget.
    func forgetKept() {
        machine.forgetKept()
        if let keptReply { keptReply.cache.releaseOutside(keptReply.bytes.count) }
        keptReply = nil
    }

    deinit {
        if let keptReply { keptReply.cache.releaseOutside(keptReply.bytes.count) }
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
