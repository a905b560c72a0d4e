import BarkeepStore

/// One HTTP client connection: its socket and the loop's bookkeeping around its `HTTPMachine`. Confined to the event
/// loop thread, like `Connection`, whose ids, poller keys, deadlines and database pool it shares.
final class HTTPConnection {
    let descriptor: Int32
    /// Its key in the poller and the loop's tables (from the same sequence as the line connections').
    let id: ConnectionID
    /// Requests in, actions out.
    var machine: HTTPMachine<Event>
    /// The readiness events the poller watches for now.
    var interest: UInt32
    /// How its bytes travel: plain text, or TLS when the server has a certificate.
    var transport: Transport
    /// Who is on the other end, for the log and the application.
    let context: HTTPRequestContext
    /// The ticket of the request on the database pool, while one is there.
    var ticket: CommandTicket?
    /// The loop's timer for the machine's `nextDeadline`, while one is set.
    var armedDeadline: DeadlineQueue.Entry?
    /// The body bytes of its admitted request counted against the loop's upload total (`uploadBytesHeld`), from its
    /// admission until its response or the connection's close.
    var reservedUpload = 0
    /// The session cookie of the request that started its event stream, when one did: signing that session out on
    /// this daemon ends the stream.
    var streamSession: String?

    init(
        descriptor: Int32, id: ConnectionID, machine: HTTPMachine<Event>, interest: UInt32, transport: Transport,
        context: HTTPRequestContext
    ) {
        self.descriptor = descriptor
        self.id = id
        self.machine = machine
        self.interest = interest
        self.transport = transport
        self.context = context
    }
}
