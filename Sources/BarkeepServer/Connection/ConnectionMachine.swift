// Only the protocol's framing and reply types: the fuzz target `framer` (scripts/fuzz.sh) compiles this file together
// with those sources into one module, where there is no BarkeepProtocol to import.
#if canImport(BarkeepProtocol)
    import BarkeepProtocol
#endif

/// What a connection machine asks of the command table: the constant reply of a line, and whether a request may run.
protocol ConnectionCommands {
    /// A request that passed every check, ready to run.
    associatedtype Resolved
    /// The events a WATCH stream carries.
    associatedtype Event: WatchEvent

    /// The encoded reply when `line` is exactly a command that always answers the same (PING); nil otherwise.
    func constantReply(for line: ArraySlice<UInt8>) -> [UInt8]?

    /// Checks `request`: runs it, or refuses it (and says what of an announced payload must still be skipped).
    func resolve(_ request: consuming Request) -> RequestResolution<Resolved>

    /// Whether the running of `resolved` may end in a kept reply worth remembering for its line (`keep`): the
    /// machine then holds the line's bytes until the command completes.
    func mayKeepReply(_ resolved: Resolved) -> Bool

    /// What a kept reply depends on now besides the line and the session (`KeptStamp`); nil when no kept reply
    /// holds past its own request.
    func keptStamp() -> KeptStamp?
}

/// A reply kept for a request line's exact bytes (`ConnectionMachine.keep`), and what it was checked against.
struct KeptLine {
    var line: [UInt8]
    var reply: [UInt8]
    var stamp: KeptStamp
}

/// What a reply kept for a line (`ConnectionMachine.keep`) was checked against: the daemon's sole epoch and write
/// generation (`Presence`). The same stamp means no other daemon served the database and no write of this one
/// finished since.
struct KeptStamp: Equatable {
    var epoch: UInt64
    var generation: UInt64
}

extension ConnectionCommands {
    /// No reply is kept for a line.
    func mayKeepReply(_ resolved: Resolved) -> Bool { false }

    func keptStamp() -> KeptStamp? { nil }
}

/// What the command table decided about one request.
enum RequestResolution<Resolved> {
    /// The request may run; `payloadSize` bytes of upload follow its line (nil: no upload).
    case accepted(Resolved, payloadSize: Int?)
    /// The request is answered `reply`; `payloadToDiscard` bytes of its upload are skipped, and `closesConnection`
    /// when the stream cannot stay in step (an upload of unknown size).
    case refused(Reply, payloadToDiscard: Int, closesConnection: Bool)
}

/// The bounds one connection works within.
struct ConnectionLimits: Sendable {
    /// The longest request line, in bytes.
    var maximumLineLength: Int
    /// Unwritten reply bytes at which the connection stops answering (and reading) until the client reads.
    var maximumPendingOutput: Int
    /// How long an upload may send nothing before it is dropped.
    var uploadTimeout: Duration
    /// Unwritten bytes past which a watcher that does not read is dropped (told where to resume); replay pages are
    /// asked for while its unwritten output is below a quarter of it.
    var maximumWatcherBacklog = 4 << 20
}

/// One connection as a value: its TLS handshake, framing, flow control, WATCH stream and deadlines; bytes and events
/// in, actions out.
///
/// No system calls and no clock: the caller passes the time in, performs the actions (steps the handshake, runs a
/// command, fetches the next page of a streamed reply or of stored events, writes `pendingOutput`, closes once
/// `isFinished`, or silently) and reports back (`handshakeStepped`, `complete`, `receivePage`, `receiveEvents`,
/// `written`); it keeps a timer for `nextDeadline` and calls `expire(now:)` when it fires. The event loop drives it
/// over a `Transport`; the tests and the fuzz target drive it with bytes and scripted outcomes alone. Replies go out strictly in order, one command at a time: while one runs, later
/// requests wait in the framer. A reply that grows with the data streams: its pages are asked for one at a time, and
/// only while the unwritten output is below the bound, so a client that does not read holds at most the bound plus
/// one page.
struct ConnectionMachine<Commands: ConnectionCommands> {
    /// A TLS handshake in progress (`State.handshaking`): its own type, shared with `HTTPMachine`.
    typealias Handshake = TLSHandshake
    /// Why a connection closes without a reply.
    typealias SilentClose = TLSHandshake.SilentClose

    /// What the connection is doing.
    enum State {
        /// Completing a TLS handshake: nothing is framed or written until it is done. Plain text starts `ready`.
        // Indirect, as `watching`: boxed, their payloads do not widen the state every request on the hot path copies.
        indirect case handshaking(Handshake)
        /// Reading and answering requests.
        case ready
        /// A command runs; later requests wait in the framer until `complete`.
        case running
        /// The running command's reply streams: its records come a page at a time (`receivePage`), the next asked for
        /// (`fetchPage`, then `isPageRequested` until it comes) once the unwritten output is below the bound; its
        /// final line ends it (`complete`).
        case streaming(isPageRequested: Bool)
        /// Receiving an upload of `size` bytes for a resolved command.
        case receivingPayload(Commands.Resolved, size: Int)
        /// An upload's bytes are in; its command runs next.
        case payloadReceived(Commands.Resolved, payload: [UInt8])
        /// Skipping `remaining` bytes of a refused upload.
        case discardingPayload(remaining: Int)
        /// Streaming events (`WatchMachine`): only PING and QUIT are answered.
        indirect case watching(WatchMachine<Commands.Event>)
    }

    /// What the caller does next.
    enum Action {
        /// Runs the transport's handshake as far as the socket allows, then reports its outcome (`handshakeStepped`).
        case handshake
        /// The handshake completed: read the transport now (it may already hold the client's first bytes) and update
        /// the readiness watched for.
        case read
        /// Closes the connection without a reply (`SilentClose` says why); nothing was framed or written.
        case closeSilently(SilentClose)
        /// Runs the command (with its upload); the machine waits, `running`, until `complete`.
        case execute(Commands.Resolved, payload: [UInt8]?)
        /// An upload began: watch it for a stall (`uploadDeadline`); `reserved` bytes count against the server's
        /// total from now until `releaseUpload`.
        case beginUpload(reserved: Int)
        /// The upload's bytes are in, or skipped: its stall no longer matters.
        case endUpload
        /// The streamed reply's unwritten records are below the bound: fetch its next page (`receivePage`, or
        /// `complete` with the final line when there is none); the machine waits until then.
        case fetchPage
        /// The watcher's replay has room for its next page of stored events after `after` (`receiveEvents`).
        case requestEvents(projectID: Int64, after: Int64)
        /// The watcher fell behind its backlog: what the socket takes now is written (the last line says where to
        /// resume), then the connection closes whatever is left.
        case abandon
        /// Unwritten replies reached the bound: write, then ask again if the bound is no longer reached.
        case write
        /// Nothing to do until bytes arrive, the command completes or output drains: write what is pending.
        case wait
    }

    /// The command table as this connection's session sees it.
    var commands: Commands
    /// The bounds the connection works within.
    let limits: ConnectionLimits
    /// The connection's request bytes not consumed yet.
    private(set) var framer: LineFramer
    /// What the connection is doing.
    private(set) var state: State = .ready
    /// Encoded replies, written up to `outputStart`.
    private var output: [UInt8] = []
    private var outputStart = 0
    /// Close once the pending output is written (and no command runs).
    private(set) var isClosing = false
    /// The peer sent everything it will (it half-closed): answer what it sent, then close.
    private(set) var isInputClosed = false
    /// Upload bytes held against the server's total, from the upload's announcement until `releaseUpload`.
    private(set) var reservedUpload = 0
    /// When the upload in progress last received bytes (or began); kept in a fixed layout (`StoredInstant`).
    private var uploadInputAt: StoredInstant
    /// Replies queued since `takeRepliesQueued`, for the server's counters.
    private var repliesQueued = 0
    /// The handshake just completed: the transport is read once before the machine waits.
    private var readsTransport = false
    /// A watcher's events were queued since the machine last looked at its backlog.
    private var hasNewEvents = false
    /// A watcher's output was written once before deciding that no replay page fits yet.
    private var hasFlushedForPage = false
    /// A watcher fell behind and is being dropped.
    private(set) var isAbandoned = false
    /// The running request's line, while its command may end in a kept reply (`Commands.mayKeepReply`).
    private var runningLine: [UInt8]?
    /// A reply kept for a line of this connection (`keep`): sent again, with no request made, for the same bytes
    /// while the commands' `keptStamp` is `stamp`; forgotten when the session changes (`forgetKept`).
    private var kept: KeptLine?
    /// Replies sent from `kept` since `takeKeptRepliesQueued`, for the server's counters.
    private var keptRepliesQueued = 0

    /// A connection that has sent nothing yet, at `now`; `handshakeDeadline`: it first completes a TLS handshake by
    /// then (nil: plain text, ready at once).
    init(
        commands: Commands, limits: ConnectionLimits, now: ContinuousClock.Instant,
        handshakeDeadline: ContinuousClock.Instant? = nil
    ) {
        self.commands = commands
        self.limits = limits
        framer = LineFramer(maximumLineLength: limits.maximumLineLength)
        uploadInputAt = StoredInstant(now)
        if let handshakeDeadline { state = .handshaking(Handshake(deadline: handshakeDeadline)) }
    }

    // MARK: - Observing

    /// Reply bytes not written yet.
    var pendingOutputCount: Int { output.count - outputStart }

    /// Whether unwritten replies reached the bound: no more requests are answered (nor read) until some are written.
    var isOutputFull: Bool { pendingOutputCount >= limits.maximumPendingOutput }

    /// Whether the TLS handshake is not complete: nothing is read as requests or written as replies yet.
    var isHandshaking: Bool {
        if case .handshaking = state { return true }
        return false
    }

    /// The TLS handshake in progress, nil when there is none. The state's case is tested first: binding the payload
    /// copies the state, which every readiness check of every connection would otherwise pay for.
    private var handshake: Handshake? {
        guard isHandshaking, case .handshaking(let handshake) = state else { return nil }
        return handshake
    }

    /// Whether the socket's readability matters now: the handshake waits for it, or requests are taken.
    var wantsReadable: Bool {
        if let handshake { return !handshake.wantsWrite }
        return wantsInput
    }

    /// Whether the socket's writability matters now: the handshake waits for it, or replies are pending.
    var wantsWritable: Bool {
        if let handshake { return handshake.wantsWrite }
        return pendingOutputCount > 0
    }

    /// Whether a command runs, its reply streaming or not.
    var isRunning: Bool {
        switch state {
        case .running, .streaming: true
        default: false
        }
    }

    /// Whether the running command's reply streams.
    var isStreaming: Bool {
        if case .streaming = state { return true }
        return false
    }

    /// Whether the connection streams events.
    var isWatching: Bool {
        if case .watching = state { return true }
        return false
    }

    /// The stream's progress, while the connection streams events.
    var watch: WatchMachine<Commands.Event>? {
        if case .watching(let watch) = state { return watch }
        return nil
    }

    /// Whether the connection is receiving or skipping an upload's bytes.
    var isUploading: Bool {
        switch state {
        case .receivingPayload, .discardingPayload: true
        default: false
        }
    }

    /// Whether the socket should be read: not while a command runs (the framer would buffer whatever the client
    /// pipelines), nor while the client leaves its replies unread, nor once the connection is ending.
    var wantsInput: Bool { !isOutputFull && !isClosing && !isInputClosed && !isRunning }

    /// Whether everything is said: the caller closes the connection.
    var isFinished: Bool { isClosing && pendingOutputCount == 0 && !isRunning }

    /// When an upload that sends nothing more is dropped; nil when none is in progress.
    var uploadDeadline: ContinuousClock.Instant? {
        isUploading ? uploadInputAt.instant + limits.uploadTimeout : nil
    }

    /// The earliest moment `expire(now:)` may act: the handshake's deadline, or the upload's stall. It only moves
    /// later (an upload's bytes push it on), so a timer set for it may fire early, never late.
    var nextDeadline: ContinuousClock.Instant? {
        switch state {
        case .handshaking(let handshake): handshake.nextDeadline
        default: uploadDeadline
        }
    }

    /// What the event loop asks of a connection after each read, write and event, in one look.
    struct Readiness {
        var isRunning: Bool
        var isHandshaking: Bool
        var wantsReadable: Bool
        var wantsWritable: Bool
        var isFinished: Bool
    }

    /// `isRunning`, `isHandshaking`, `wantsReadable`, `wantsWritable` and `isFinished` now. `mutating` though it
    /// changes nothing: called on the machine a `Connection` holds, it reads the machine where it lies, while a
    /// property read there first copies the whole machine (each of its buffers retained, then released), which on
    /// the loop's path cost more than the rest of a quoted `PING` outside the kernel.
    mutating func readiness() -> Readiness {
        Readiness(
            isRunning: isRunning, isHandshaking: isHandshaking, wantsReadable: wantsReadable,
            wantsWritable: wantsWritable, isFinished: isFinished)
    }

    /// The number of replies queued since the last call, which it resets.
    mutating func takeRepliesQueued() -> Int {
        defer { repliesQueued = 0 }
        return repliesQueued
    }

    /// The number of replies sent from the kept one (`keep`) since the last call, which it resets.
    mutating func takeKeptRepliesQueued() -> Int {
        defer { keptRepliesQueued = 0 }
        return keptRepliesQueued
    }

    /// The running command's reply is `reply`, valid while the commands' `keptStamp` is `stamp`: it is kept for the
    /// running request's line, and sent again for the same bytes (and session) while the stamp holds. Does nothing,
    /// and says so (false), unless the command may keep its reply (`Commands.mayKeepReply`) and its line is at most
    /// `maximumKeptLine` bytes.
    @discardableResult
    mutating func keep(_ reply: [UInt8], stamp: KeptStamp) -> Bool {
        guard let line = runningLine else { return false }
        kept = KeptLine(line: line, reply: reply, stamp: stamp)
        return true
    }

    /// The longest line a reply is kept for: a STATUS line is a few dozen bytes, and a connection holds the line it
    /// keeps (the longest line a client may send is far longer).
    static var maximumKeptLine: Int { 1 << 10 }

    /// Whether a reply is kept for a line (`keep`); false again once its stamp no longer held or it was forgotten.
    var hasKeptLine: Bool { kept != nil }

    /// Forgets the kept reply: the session it was made for changed.
    mutating func forgetKept() {
        kept = nil
    }

    // MARK: - Input

    /// Bytes arrived at `now` (which matters to an upload in progress alone: its bytes push its deadline on).
    mutating func receive(_ bytes: ArraySlice<UInt8>, now: ContinuousClock.Instant) {
        framer.append(bytes)
        if isUploading { uploadInputAt = StoredInstant(now) }
    }

    /// The peer's stream ended (a half-close, or the end of a TLS stream). Returns false when nothing more can be
    /// delivered (a watcher): the caller closes at once. Otherwise what the peer sent is answered, then it closes.
    mutating func endInput() -> Bool {
        if isWatching { return false }
        isInputClosed = true
        return true
    }

    /// The next thing to do. `uploadRoom`: upload bytes the server can still hold (an upload past it is refused
    /// `BUSY`). Call again after every action but `wait` (and after `write` once the output is below the bound).
    mutating func nextAction(now: ContinuousClock.Instant, uploadRoom: Int) -> Action {
        if case .ready = state { return nextRequest(now: now, uploadRoom: uploadRoom) }
        switch state {
        case .streaming(let isPageRequested):
            // A streamed reply goes on to its end even once the connection is closing (the server drains).
            if isOutputFull { return .write }
            guard !isPageRequested else { return .wait }
            state = .streaming(isPageRequested: true)
            return .fetchPage
        case .handshaking(let handshake):
            switch handshake.step {
            case .handshake: return .handshake
            case .wait: return .wait
            case .closeSilently(let reason): return .closeSilently(reason)
            }
        case .watching(let watch) where hasNewEvents:
            // The backlog is judged once the events that arrived together are queued, before anything is written.
            hasNewEvents = false
            if !isClosing && pendingOutputCount > limits.maximumWatcherBacklog {
                enqueue(watch.fellBehind)
                isClosing = true
                isAbandoned = true
                return .abandon
            }
        default:
            break
        }
        while !isClosing {
            if isOutputFull { return .write }
            switch state {
            case .running, .streaming, .handshaking:
                return .wait
            case .discardingPayload(let remaining):
                let left = framer.discardPayload(count: remaining)
                guard left == 0 else {
                    state = .discardingPayload(remaining: left)
                    return waiting()
                }
                state = .ready
                return .endUpload
            case .receivingPayload(let resolved, let size):
                guard let payload = framer.takePayload(count: size) else { return waiting() }
                state = .payloadReceived(resolved, payload: payload)
                return .endUpload
            case .payloadReceived(let resolved, let payload):
                state = .running
                return .execute(resolved, payload: payload)
            case .watching(var watch):
                guard let line = nextLine() else {
                    guard watch.wantsPage else { return waiting() }
                    let lowWater = limits.maximumWatcherBacklog / 4
                    if let after = watch.requestPage(pendingOutput: pendingOutputCount, lowWater: lowWater) {
                        state = .watching(watch)
                        return .requestEvents(projectID: watch.projectID, after: after)
                    }
                    // Over the low-water mark: what the socket takes now may bring it under.
                    guard hasFlushedForPage else {
                        hasFlushedForPage = true
                        return .write
                    }
                    return waiting()
                }
                guard let bytes = line, let request = decodeRequest(bytes) else { continue }
                switch request.verb {
                // The words of PING's and QUIT's replies (their specs, BarkeepAPI, which this file may not import:
                // the fuzz target compiles it alone); ConnectionMachineTests hold the two equal.
                case "PING": answer(.ok("PONG"))
                case "QUIT":
                    answer(.ok("BYE"))
                    isClosing = true
                default: answer(.error(.badArgument, "the connection is watching; send PING or QUIT"))
                }
            case .ready:
                // Not reached: `ready` is answered before this loop, and no state the loop meets becomes `ready` and
                // goes round again (a skipped upload returns `endUpload` first). Answered as above all the same.
                return nextRequest(now: now, uploadRoom: uploadRoom)
            }
        }
        return .wait
    }

    /// `nextAction` while the connection is `ready`: requests are read and answered or run, until one runs, an
    /// upload begins, the output is full or nothing complete is buffered. Reached first, without a look at the other
    /// states: a copy of the state (its payloads') for each request cost more than answering a `PING`.
    private mutating func nextRequest(now: ContinuousClock.Instant, uploadRoom: Int) -> Action {
        while !isClosing {
            if isOutputFull { return .write }
            guard let line = nextLine() else { return waiting() }
            guard let bytes = line else { continue }
            if let reply = commands.constantReply(for: bytes) {
                // The hot path: no request, no resolution, no allocation.
                output.append(contentsOf: reply)
                repliesQueued += 1
                continue
            }
            if let keptLine = kept, keptLine.line.elementsEqual(bytes) {
                // The line of the kept reply, while nothing it depends on changed: sent again as it is.
                if let stamp = commands.keptStamp(), stamp == keptLine.stamp {
                    output.append(contentsOf: keptLine.reply)
                    repliesQueued += 1
                    keptRepliesQueued += 1
                    continue
                }
                kept = nil
            }
            guard let request = decodeRequest(bytes) else { continue }
            switch commands.resolve(request) {
            case .refused(let reply, let payloadToDiscard, let closesConnection):
                answer(reply)
                if closesConnection { isClosing = true }
                if payloadToDiscard > 0 { return beginDiscarding(payloadToDiscard, now: now) }
            case .accepted(let resolved, let payloadSize?):
                guard payloadSize <= uploadRoom else {
                    answer(.error(.busy, "too many uploads in progress; retry later"))
                    return beginDiscarding(payloadSize, now: now)
                }
                reservedUpload = payloadSize
                framer.reservePayload(count: payloadSize)
                state = .receivingPayload(resolved, size: payloadSize)
                uploadInputAt = StoredInstant(now)
                return .beginUpload(reserved: payloadSize)
            case .accepted(let resolved, nil):
                state = .running
                if bytes.count <= Self.maximumKeptLine, commands.mayKeepReply(resolved) { runningLine = Array(bytes) }
                return .execute(resolved, payload: nil)
            }
        }
        return .wait
    }

    /// Nothing complete is buffered. Once the peer's stream has ended, nothing more will come: every complete
    /// request is answered (a partial line or upload at the end is dropped), so the connection closes once written.
    private mutating func waiting() -> Action {
        if readsTransport {
            readsTransport = false
            return .read
        }
        if isInputClosed && !isRunning { isClosing = true }
        return .wait
    }

    private mutating func beginDiscarding(_ count: Int, now: ContinuousClock.Instant) -> Action {
        state = .discardingPayload(remaining: count)
        uploadInputAt = StoredInstant(now)
        return .beginUpload(reserved: 0)
    }

    /// The next complete line's bytes: nil when none is buffered, `.some(nil)` for a line over the limit, which was
    /// answered with `TOOLONG`.
    private mutating func nextLine() -> ArraySlice<UInt8>?? {
        do {
            guard let bytes = try framer.nextLineBytes() else { return nil }
            return .some(bytes)
        } catch {
            answer(.error(error.code, error.description))
            return .some(nil)
        }
    }

    /// The request on a line; nil for a blank line or one answered with a framing error.
    private mutating func decodeRequest(_ bytes: ArraySlice<UInt8>) -> Request? {
        do {
            return try Request(line: bytes)
        } catch {
            answer(.error(error.code, error.description))
            return nil
        }
    }

    // MARK: - Events

    /// The socket became ready while the handshake waited for it: the next action steps it on.
    mutating func transportReady() {
        guard case .handshaking(var handshake) = state else { return }
        handshake.transportReady()
        state = .handshaking(handshake)
    }

    /// A handshake step (`handshake`) ended with `outcome`: complete (the connection takes requests), waiting for the
    /// socket, or over without success (it closes silently).
    mutating func handshakeStepped(_ outcome: TransportOutcome) {
        guard case .handshaking(var handshake) = state else { return }
        if handshake.stepped(outcome) {
            state = .ready
            readsTransport = true
            return
        }
        state = .handshaking(handshake)
    }

    /// Acts on the deadline that passed by `now`, if one did: a handshake not complete closes silently, an upload that
    /// stalled is answered and closes (`expireUpload`). Returns false when none is due (the caller's timer fired
    /// early, as `nextDeadline` moved on): ask `nextDeadline` again.
    mutating func expire(now: ContinuousClock.Instant) -> Bool {
        guard case .handshaking(var handshake) = state else { return expireUpload(now: now) }
        guard handshake.expire(now: now) else { return false }
        state = .handshaking(handshake)
        return true
    }

    /// A page of the running command's reply came: its record lines (encoded, each ending in LF) are queued, and the
    /// reply streams on until `complete` gives its final line.
    mutating func receivePage(_ records: [UInt8]) {
        guard isRunning else { return }
        state = .streaming(isPageRequested: false)
        output.append(contentsOf: records)
    }

    /// A streamed reply broke off after records of it went out (its database work failed): no final line can follow
    /// them (`ERR` never does), so nothing more is said. What is queued goes out first (the replies of the commands
    /// before it, which the client must still learn, and whole records of this one), then the connection closes;
    /// the client reads a reply without its final line and knows it is cut short.
    mutating func breakOff() {
        guard isStreaming else { return }
        state = .ready
        isClosing = true
    }

    /// The running command finished: its reply goes out, then the connection closes (`closesConnection`), streams
    /// events (`watch`, unless it closes), or takes its next request. After pages (`receivePage`), `reply` is the
    /// final line alone.
    mutating func complete(
        _ reply: Reply, closesConnection: Bool = false, watch: WatchMachine<Commands.Event>? = nil
    ) {
        state = .ready
        runningLine = nil
        answer(reply)
        if closesConnection { isClosing = true }
        if let watch, !isClosing { state = .watching(watch) }
    }

    /// A page of stored events for the watcher (`requestEvents`), in order; `isComplete` when it reached the newest.
    mutating func receiveEvents(_ events: [Commands.Event], isComplete: Bool) {
        guard case .watching(var watch) = state, !isClosing else { return }
        watch.receivePage(events, isComplete: isComplete, into: &output)
        state = .watching(watch)
        eventsQueued()
    }

    /// A live event of the watched project: true when the stream took it (its replay caught up, and it is new).
    mutating func receiveLiveEvent(_ event: Commands.Event) -> Bool {
        guard case .watching(var watch) = state, !isClosing else { return false }
        let isTaken = watch.receiveLive(event, into: &output)
        state = .watching(watch)
        if isTaken { eventsQueued() }
        return isTaken
    }

    /// The stream ends with `reply` (its token was revoked, its project deleted): written, then the connection closes.
    mutating func endStream(_ reply: Reply) {
        guard isWatching, !isClosing else { return }
        enqueue(reply)
        isClosing = true
    }

    private mutating func eventsQueued() {
        hasNewEvents = true
        hasFlushedForPage = false
    }

    /// The bytes the connection's upload held against the server's total, which it no longer holds.
    mutating func releaseUpload() -> Int {
        defer { reservedUpload = 0 }
        return reservedUpload
    }

    /// Drops an upload that sent nothing until its deadline, answering why and closing: a stalled writer must not
    /// hold its buffered bytes for ever. Returns false when there is none to drop at `now`.
    mutating func expireUpload(now: ContinuousClock.Instant) -> Bool {
        guard let deadline = uploadDeadline, now >= deadline else { return false }
        state = .ready
        // The bytes received so far go at once, whether or not the client reads the reply.
        framer = LineFramer(maximumLineLength: limits.maximumLineLength)
        answer(.error(.badArgument, "the upload stalled: no bytes for \(limits.uploadTimeout.components.seconds) s"))
        isClosing = true
        return true
    }

    /// Answers `reply` and closes once it is written (the server drains, a stream ends).
    mutating func end(with reply: Reply? = nil) {
        if let reply { answer(reply) }
        isClosing = true
    }

    // MARK: - Output

    /// The size from which an encoded reply becomes the output rather than being copied into it (`answer`).
    static var sharedReplySize: Int { 16 << 10 }

    /// Queues a reply, counted as an answer. A large reply encoded before (a kept STATUS, hundreds of kilobytes)
    /// becomes the output itself when nothing else is pending: its bytes are shared, not copied. A small one (PING's)
    /// is copied: shared, the next reply appended would copy it anyway, and the output's own buffer would be lost.
    private mutating func answer(_ reply: Reply) {
        if case .bytes(let bytes) = reply, bytes.count >= Self.sharedReplySize, outputStart == output.count {
            output = bytes
            outputStart = 0
        } else {
            reply.encode(into: &output)
        }
        repliesQueued += 1
    }

    /// Queues a reply that answers no request (a watcher's end).
    private mutating func enqueue(_ reply: Reply) {
        reply.encode(into: &output)
    }

    /// Calls `body` with the bytes not written yet.
    func withPendingOutput<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try output.withUnsafeBytes { buffer in
            try body(UnsafeRawBufferPointer(rebasing: buffer[outputStart...]))
        }
    }

    /// `count` bytes of the pending output were written.
    mutating func written(_ count: Int) {
        outputStart += count
    }

    /// Drops the bytes already written, so the buffer holds only what is pending (and stays bounded with it).
    mutating func compactOutput() {
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 16)
            outputStart = 0
        } else if outputStart >= 1 << 16 && outputStart * 2 >= output.count {
            output.removeFirst(outputStart)
            outputStart = 0
        }
    }
}
