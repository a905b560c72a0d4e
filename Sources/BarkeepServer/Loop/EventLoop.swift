import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import CBarkeepSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The server's epoll loop: one thread that accepts, reads, answers and writes every connection.
///
/// Each connection's framing, flow control, TLS handshake, WATCH progress and deadlines are its `ConnectionMachine`;
/// the loop performs what the machine asks (system calls through the connection's `Transport`, the database pool, the
/// event hub) and reports back, and keeps every timer in one `DeadlineQueue`, whose head is the poll's timeout.
/// Extensions by concern: accepting and descriptor pressure (`+Accepting`), reading and answering (`+Requests`),
/// uploads (`+Uploads`), timers (`+Deadlines`), WATCH delivery (`+Watch`), TLS (`+TLS`), streamed replies
/// (`+Streams`), kept STATUS replies answered after a version lookup of the loop's own (`+StatusLookup`).
///
/// `@unchecked Sendable`: `Server.start()` creates it and hands it to the loop thread, the only thread that touches
/// it from then on; other threads reach it only through `Server.post`, whose work runs on the loop thread.
final class EventLoop: @unchecked Sendable {
    // unowned(unsafe): the loop thread's closure holds the server strongly for as long as the loop runs, and a
    // checked unowned reference would cost an atomic operation on every use in the hot path.
    unowned(unsafe) let server: Server
    let listeners: [Listener]
    let commands: CommandTable
    // The properties marked `@exclusivity(unchecked)` are on every request's path and only the loop thread touches
    // them, one access at a time: their accesses are not checked for overlap at run time (each check is a call into
    // the runtime, and a request made a dozen of them).
    @exclusivity(unchecked) var connections = ConnectionTable<Connection>()
    /// The HTTP connections (`+HTTP`), by id from the same sequence.
    var httpConnections = ConnectionTable<HTTPConnection>()
    /// Watching connections by project id.
    var watchers: [Int64: Set<ConnectionID>] = [:]
    var nextConnectionID: ConnectionID
    /// The poller key of the wakeup eventfd; listener `i` has key `i + 1`, connections count up after them.
    static let wakeupKey: UInt64 = 0
    @exclusivity(unchecked) var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// When the last poll for events returned: the time of every read in the batch of events it returned (one clock
    /// read a batch, as the machines' only use of it is an upload's stall, counted in seconds).
    @exclusivity(unchecked) var polledAt = ContinuousClock.now
    /// /dev/null, open for the loop's life: spare descriptors are duplicates of it.
    var nullDescriptor: Int32 = -1
    /// Descriptors held in reserve, duplicates of `nullDescriptor`. When the process runs out, one is freed to
    /// accept a waiting connection: a Unix socket peer is served while another spare is left, any other is answered
    /// `BUSY` and closed, its slot becoming a spare again at once (`dup3`, so no other thread can take it meanwhile).
    var spareDescriptors: [Int32] = []
    static let spareCount = 4
    /// Listeners taken out of the poller because accepting failed for want of descriptors, by index.
    var pausedListeners: Set<Int> = []
    /// Open connections that count against the connection limit: all but the daemon owner's on a Unix socket.
    var ordinaryConnections = 0
    /// When paused listeners are polled again at the latest; a connection that closes brings it forward (each time
    /// with a timer of key `resumeKey`).
    var resumeListenersAt: ContinuousClock.Instant?
    /// The timers: the connections' deadlines (keyed by connection) and the listeners' resumption (`resumeKey`).
    var deadlines = DeadlineQueue()
    /// The generation of the last timer set.
    var deadlineGeneration: UInt64 = 0
    /// The key of the listeners' resumption timer (no connection has it: connections count up from after the
    /// listeners).
    static let resumeKey: UInt64 = 0
    var isDraining = false
    var shedCount = 0
    var lastShedLog = ContinuousClock.now - .seconds(2)
    @exclusivity(unchecked) var unpublishedServed = 0
    @exclusivity(unchecked) var unpublishedPeak = 0
    /// The certificate and key for connections accepted on TCP listeners; nil: plain text.
    let tlsContext: ServerTLSContext?
    /// Connections that stopped reading while their transport held bytes of theirs (OpenSSL's buffers): the socket
    /// will not signal those again, so they are read once the connection takes requests again.
    var heldInput: Set<ConnectionID> = []
    /// Connections whose replies are written once this batch of events is handled (`flushLater`).
    @exclusivity(unchecked) var waitingForFlush: [Connection] = []
    /// Upload bytes the connections hold together (their machines' `reservedUpload`), at most `maximumPayloadTotal`.
    @exclusivity(unchecked) var uploadBytesHeld = 0
    /// With a read replica: where the primary's log ended after each HTTP client's last write, keyed by a hash of its
    /// credentials (`Authorization` and `Cookie`), so that its next reads wait for the replica to replay it.
    var httpWrites = WriterPositions<Int>(capacity: ReplicaLimit.rememberedWriters)
    /// With a read replica: the same for the line protocol's principals (`Session.actor`: a token, or the local user
    /// on the Unix socket), whose commands may each come on a connection of their own (the CLI's).
    var lineWrites = WriterPositions<String>(capacity: ReplicaLimit.rememberedWriters)
    /// The bounds every connection works within.
    let limits: ConnectionLimits
    /// The status-version lookups of STATUS requests with a kept reply, on the loop's own database connection
    /// (`+StatusLookup`), each tagged with the input mark it was sent at; nil without a database.
    var statusLookup: StatusVersionLookup<UInt64>?
    /// The lookup's socket as the poller has it, nil when it has none.
    var lookupRegistration: StatusVersionLookup<UInt64>.Registration?
    /// STATUS requests waiting for a lookup, the one in flight, and what the lookups found.
    var statusLookups = SharedStatusLookups<KeptReplyLookup>()
    /// The last input mark given (`nextInputMark`).
    var inputMarks: UInt64 = 0
    /// The poller key of the lookup's socket.
    static let lookupKey = UInt64.max
    /// Kept STATUS replies sent after a lookup on the loop, and those whose STATUS went to the pool, not published yet.
    var unpublishedKept = (onLoop: 0, toPool: 0)
    /// Status-version lookups sent, not published yet.
    var lookupsSent = 0

    init(server: Server, listeners: [Listener], commands: CommandTable, tlsContext: ServerTLSContext?) {
        self.server = server
        self.listeners = listeners
        self.commands = commands
        self.tlsContext = tlsContext
        nextConnectionID = ConnectionID(UInt64(listeners.count) + 1)
        let configuration = server.configuration
        limits = ConnectionLimits(
            maximumLineLength: configuration.maximumLineLength,
            maximumPendingOutput: configuration.maximumPendingOutput,
            uploadTimeout: configuration.uploadTimeout,
            maximumWatcherBacklog: configuration.maximumWatcherBacklog
        )
    }

    var configuration: ServerConfiguration { server.configuration }

    /// Keys below this are the wakeup eventfd and the listeners; connections count up from it.
    var firstConnectionKey: UInt64 { UInt64(listeners.count) + 1 }

    func run() {
        nullDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        refillSpares()
        defer {
            spareDescriptors.forEach { _ = Glibc.close($0) }
            if nullDescriptor >= 0 { _ = Glibc.close(nullDescriptor) }
        }
        statusLookup = server.pool.map {
            StatusVersionLookup(configuration: $0.configuration.with(applicationName: Self.lookupApplicationName))
        }
        defer { closeStatusLookup() }
        _ = barkeep_poller_add(server.poller, server.wakeup, BARKEEP_EVENT_READ, Self.wakeupKey)
        for (index, listener) in listeners.enumerated() {
            _ = barkeep_poller_add(server.poller, listener.descriptor, BARKEEP_EVENT_READ, UInt64(index + 1))
        }
        var events = [barkeep_event](repeating: barkeep_event(), count: 256)
        var drainDeadline: ContinuousClock.Instant?
        while true {
            let (isStopping, grace) = server.shared.withLock { ($0.isStopping, $0.grace) }
            if isStopping && drainDeadline == nil {
                drainDeadline = .now + grace
                beginDrain()
            }
            if let drainDeadline,
                connections.isEmpty && httpConnections.isEmpty || ContinuousClock.now >= drainDeadline
            {
                break
            }
            var timeout: Int32 = drainDeadline == nil ? -1 : 50
            if let first = deadlines.first {
                let wait = Int32(clamping: Int64(max(0, (first.at - .now).milliseconds.rounded(.up))))
                timeout = timeout < 0 ? wait : min(timeout, wait)
            }
            if let deadline = statusLookup?.nextDeadline {
                let wait = Int32(min(1000, max(0, (deadline - .now).milliseconds.rounded(.up))))
                timeout = timeout < 0 ? wait : min(timeout, wait)
            }
            let count = events.withUnsafeMutableBufferPointer { buffer in
                barkeep_poller_wait(server.poller, buffer.baseAddress, Int32(buffer.count), timeout)
            }
            polledAt = .now
            guard count >= 0 else {
                if errno == EINTR { continue }
                server.logger.error("epoll_wait failed", ["error": errorText()])
                break
            }
            for event in events.prefix(Int(count)) { handle(event) }
            if !deadlines.isEmpty { fireDeadlines() }
            if !heldInput.isEmpty { readHeldInput() }
            if statusLookup != nil {
                sendWaitingLookups()
                tickStatusLookup()
            }
            flushWaiting()
            publishStatistics()
        }
        for connection in connections.all { close(connection) }
        for connection in httpConnections.all { close(connection) }
    }

    private func handle(_ event: barkeep_event) {
        if event.key == Self.wakeupKey {
            barkeep_wakeup_drain(server.wakeup)
            let work = server.shared.withLock { shared in
                defer { shared.posted.removeAll() }
                return shared.posted
            }
            for item in work { item(self) }
        } else if event.key == Self.lookupKey {
            handleLookupReadiness()
        } else if event.key < firstConnectionKey {
            if !isDraining { accept(from: Int(event.key) - 1) }
        } else if let connection = connections[ConnectionID(event.key)] {
            handle(connection, events: event.events)
        } else if let connection = httpConnections[ConnectionID(event.key)] {
            handle(connection, events: event.events)
        }
    }

    /// A line-protocol connection's socket is ready (`events`).
    private func handle(_ connection: Connection, events: UInt32) {
        let readiness = connection.machine.readiness()
        if readiness.isRunning && events & BARKEEP_EVENT_CLOSED != 0 {
            // The peer is gone (not half-closed) while its command waits or runs: nobody will read the reply,
            // and a command that has not started yet never starts.
            close(connection)
            return
        }
        // A handshake reads and writes as OpenSSL asks, whichever way the socket became ready.
        if readiness.isHandshaking {
            connection.machine.transportReady()
            process(connection)
            return
        }
        if events & BARKEEP_EVENT_WRITE != 0 {
            let wasFull = connection.machine.isOutputFull
            guard flush(connection) else { return }
            // The client took enough replies: answer the requests left buffered while it lagged (a watcher's next
            // replay page may fit now, too).
            if wasFull && !connection.machine.isOutputFull || connection.machine.isWatching { process(connection) }
        }
        if events & (BARKEEP_EVENT_READ | BARKEEP_EVENT_HANGUP | BARKEEP_EVENT_ERROR) != 0, connection.isOpen {
            // Readable (or half-closed) while its command runs: the readability it kept registered is taken off now,
            // and read once the command is done.
            if connection.machine.readiness().isRunning {
                updateInterest(connection, isReadable: true)
                return
            }
            read(connection)
        }
    }

    /// Stop listening and reading; running commands finish, queued replies go out, then connections close.
    private func beginDrain() {
        isDraining = true
        resumeListenersAt = nil
        for listener in listeners { _ = barkeep_poller_remove(server.poller, listener.descriptor) }
        for connection in connections.all {
            if connection.machine.isWatching || connection.machine.isHandshaking {
                close(connection)
                continue
            }
            connection.machine.end()
            if !connection.machine.isRunning { flush(connection) }
        }
        // An HTTP request that runs is answered (`Connection: close`); an idle connection has nothing to wait for.
        for connection in httpConnections.all where !connection.machine.isRunning {
            close(connection)
        }
    }

    /// Counters are published once per batch of events, not per reply: the shared lock stays off the hot path.
    private func publishStatistics() {
        guard unpublishedServed > 0 || unpublishedKept != (0, 0) || lookupsSent > 0 else { return }
        let (served, peak, kept, lookups) = (unpublishedServed, unpublishedPeak, unpublishedKept, lookupsSent)
        server.updateStatistics {
            $0.commandsServed += served
            $0.peakPendingOutput = max($0.peakPendingOutput, peak)
            $0.keptStatusOnLoop += kept.onLoop
            $0.keptStatusToPool += kept.toPool
            $0.statusLookups += lookups
        }
        unpublishedServed = 0
        unpublishedPeak = 0
        unpublishedKept = (0, 0)
        lookupsSent = 0
    }

    // MARK: - Writing

    /// Writes what the socket takes; returns false when the connection was closed.
    @discardableResult
    func flush(_ connection: Connection) -> Bool {
        // Output only grows between flushes: what is pending now is the most since the last one. Only a flush after
        // replies were queued counts, so that a WATCH stream's backlog (bounded apart) is not taken for replies.
        let repliesQueued = connection.machine.takeRepliesQueued()
        unpublishedServed += repliesQueued
        if repliesQueued > 0 {
            unpublishedPeak = max(unpublishedPeak, connection.machine.pendingOutputCount)
            // Replies the machine sent again from the one kept for their line: kept replies sent on the loop.
            let kept = connection.machine.takeKeptRepliesQueued()
            if kept > 0 {
                unpublishedKept.onLoop += kept
                connection.keptReply?.wasSent(count: kept)
            }
            // The machine let its kept line go (a write or sole mode ended): its bytes go back to the cache's budget
            // now, not at the connection's next kept reply or its end.
            if connection.keptReply != nil, !connection.machine.hasKeptLine { connection.forgetKept() }
        }
        guard connection.transport.writeOut(&connection.machine) else {
            close(connection)
            return false
        }
        connection.machine.compactOutput()
        let readiness = connection.machine.readiness()
        if readiness.isFinished {
            close(connection)
            return false
        }
        updateInterest(connection, readiness)
        return true
    }

    /// Writes `connection`'s replies once every connection ready in this batch of events is read (`flushWaiting`),
    /// as redis does before it sleeps: the replies then go out in a burst, the client, already awake for the first,
    /// is not woken for each, and this thread sleeps less often — unpipelined, fewer context switches a request.
    func flushLater(_ connection: Connection) {
        guard !connection.isWaitingForFlush else { return }
        connection.isWaitingForFlush = true
        waitingForFlush.append(connection)
    }

    /// Writes the replies of the connections `flushLater` named, before the loop waits for events again: the last
    /// named first. In the order they were read, the same connections would always be written first, their clients
    /// would answer before this thread polls again and be read first again, and the last ones would miss each next
    /// batch: unpipelined under load, some clients were served at half the rate of others (in barkeep-bench's 50
    /// clients, the slowest had done half of its requests when the first had done all of its own). Reversed, a
    /// connection read early is written late and read late next time: every client's place in the batches
    /// alternates, and they keep pace (97% there, as with redis-server).
    func flushWaiting() {
        // From the end as it grows: a connection named while these are flushed is flushed too, never dropped with its
        // flag still set (and the list keeps its capacity, with no copy of it on this path).
        while let connection = waitingForFlush.popLast() {
            connection.isWaitingForFlush = false
            if connection.isOpen { flush(connection) }
        }
    }

    /// Registers what the connection waits for. A connection whose command runs keeps its readability registered
    /// until the socket is reported readable (`isReadable`): most clients send nothing while they wait for the reply,
    /// and taking it off and putting it back costs two system calls per command (the connection reads nothing
    /// meanwhile all the same: `wantsReadable` decides that).
    private func updateInterest(
        _ connection: Connection, _ readiness: ConnectionMachine<CommandTable.SessionView>.Readiness? = nil,
        isReadable: Bool = false
    ) {
        let readiness = readiness ?? connection.machine.readiness()
        var interest: UInt32 = readiness.wantsReadable ? BARKEEP_EVENT_READ : 0
        if readiness.isRunning, !isReadable { interest |= connection.interest & BARKEEP_EVENT_READ }
        if readiness.wantsWritable { interest |= BARKEEP_EVENT_WRITE }
        // A system call only when something changed: most flushes leave a connection as it was.
        guard interest != connection.interest else { return }
        connection.interest = interest
        _ = barkeep_poller_modify(server.poller, connection.descriptor, interest, connection.id.rawValue)
    }

    func close(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        connection.isOpen = false
        connection.ticket?.cancel()
        connection.stream?.read?.cancel()
        if !connection.isOwner { ordinaryConnections -= 1 }
        // A best-effort close_notify, so that a TLS client can tell the end from a cut connection.
        if !connection.machine.isHandshaking { connection.transport.shutdown() }
        heldInput.remove(connection.id)
        // The payload may still be parsed on the pool; its bytes are counted from here on as freed.
        releaseUpload(connection)
        if let watch = connection.machine.watch {
            watchers[watch.projectID]?.remove(connection.id)
            if watchers[watch.projectID]?.isEmpty == true { watchers[watch.projectID] = nil }
            server.updateStatistics { $0.watchers -= 1 }
        }
        _ = barkeep_poller_remove(server.poller, connection.descriptor)
        _ = Glibc.close(connection.descriptor)
        server.updateStatistics { $0.connections -= 1 }
        // The freed slot goes to the spares first, then the paused listeners try again.
        if spareDescriptors.count < Self.spareCount { refillSpares() }
        if let resume = resumeListenersAt, resume > .now { scheduleResume(at: .now) }
    }
}
