import BarkeepCore
import CLibpq
import Foundation

/// Status-version lookups (`StatusStore.version(project:checkingToken:on:)`) over one non-blocking libpq connection
/// in pipeline mode, for an event loop that must never block: connecting (`PQconnectStartParams`/`PQconnectPoll`),
/// sending and reading happen only when the loop says its socket is ready, or at the deadlines it is told.
///
/// One lookup is in flight at a time, and it covers many projects and tokens (`StatusLookupKey`) in one prepared
/// statement (`StatusStore.versionsCheckingTokensQuery`), so it reads the versions committed when it runs, one
/// answer for each key in their order. When the connection is down, connecting, has a lookup in flight or fails,
/// `submit` refuses and a lookup in flight is answered `nil`: the caller takes its blocking path instead. A dropped
/// connection is opened again after a backoff (`minimumBackoff` doubling up to `maximumBackoff`). A lookup not
/// answered within `deadline` (a stalled database, a lock, a silent network) is answered `nil` at the next `tick` past
/// it and the connection is dropped and opened again; the server ends the statement itself at the same limit
/// (`statement_timeout`), so a stalled lookup holds no backend long.
///
/// Thread-safety: none. It belongs to one thread, the event loop's, for its whole life.
public final class StatusVersionLookup<Tag> {
    /// What a lookup found for one key.
    public typealias Answer = StatusLookupAnswer

    /// Where the connection's socket is, and what readiness it waits for: the loop registers it in its poller.
    public struct Registration: Equatable, Sendable {
        /// The socket (`PQsocket`).
        public var socket: Int32
        /// Whether to wait for bytes to read.
        public var wantsRead: Bool
        /// Whether to wait for the socket to take more bytes.
        public var wantsWrite: Bool
        /// Changes whenever the socket may be another one (a new connection, a step of connecting), even with the
        /// same number: the loop then registers it anew.
        public var generation: Int
    }

    /// A lookup sent, or the statement prepared first, in the order their results come back.
    private enum Expected {
        case prepare
        case lookup(Tag, count: Int)
    }

    private enum Phase {
        /// No connection; the next attempt is at `retryAt`.
        case down(retryAt: ContinuousClock.Instant)
        /// `PQconnectPoll` in progress, waiting for the socket to become writable or readable, until `deadline`.
        case connecting(wantsWrite: Bool, deadline: ContinuousClock.Instant)
        /// Connected, in pipeline mode; a lookup in flight is due by `due`.
        case ready(wantsWrite: Bool, due: ContinuousClock.Instant?)
    }

    /// The name of the prepared lookup statement.
    static var statementName: String { "barkeep_status_versions" }
    /// What the connection sets before preparing it.
    static var genericPlans: String { "SET plan_cache_mode = force_generic_plan" }
    /// The server's own limit on a lookup: `deadline`.
    static var statementTimeout: String { "SET statement_timeout = \(Int(deadline.milliseconds.rounded(.up)))" }
    /// The first wait before opening a dropped connection again.
    public static var minimumBackoff: Duration { Backoff.connection.first }
    /// The longest wait between attempts.
    public static var maximumBackoff: Duration { Backoff.connection.longest }
    /// How long a lookup may take before its requests take the blocking path and the connection is opened again.
    public static var deadline: Duration { .seconds(2) }

    private let configuration: PostgresConfiguration
    private var handle: OpaquePointer?
    private var phase: Phase
    private var expected: [Expected] = []
    private var expectedHead = 0
    /// The answers of the oldest expected statement so far (one per row of its result).
    private var headAnswers: [Answer] = []
    private var headFailed = false
    private var backoff = Backoff.connection
    private var generation = 0
    /// Answers of lookups failed outside `handleReadiness` (a send that failed), handed out by the next call.
    private var failedLater: [Tag] = []
    /// What the owner should log, handed out by `takeNotices`.
    private var notices: [Notice] = []
    /// Whether the connection's loss was told and its return not yet.
    private var isToldDown = false
    /// Whether a failed lookup was told since the connection was last ready.
    private var isFailureTold = false

    /// A change the daemon's log should say: the connection lost (once, until it is back), back, or a lookup that
    /// PostgreSQL answered with an error (once per connection). Each carries libpq's message.
    public enum Notice: Sendable, Equatable {
        /// The connection was lost or could not be opened; lookups take the caller's blocking way meanwhile.
        case down(String)
        /// The connection is ready again.
        case up
        /// A lookup's statement failed; it took the caller's blocking way.
        case failed(String)
        /// A lookup was not answered within the deadline (given): it took the caller's blocking way, and the
        /// connection is opened again.
        case timedOut(Duration)
    }

    /// The notices since the last call, oldest first.
    public func takeNotices() -> [Notice] {
        defer { notices.removeAll() }
        return notices
    }

    /// A lookup that connects at its first `tick`; `configuration` is the database's.
    public init(configuration: PostgresConfiguration) {
        self.configuration = configuration
        phase = .down(retryAt: .now)
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Whether lookups are taken now.
    public var isReady: Bool {
        if case .ready = phase { return true }
        return false
    }

    /// Whether a lookup was sent and is not answered yet.
    public var isInFlight: Bool {
        expected[expectedHead...].contains { item in
            if case .lookup = item { return true }
            return false
        }
    }

    /// The socket to watch and for what; nil when there is no connection.
    public var registration: Registration? {
        guard let handle else { return nil }
        let socket = PQsocket(handle)
        guard socket >= 0 else { return nil }
        switch phase {
        case .down: return nil
        case .connecting(let wantsWrite, _):
            // PQconnectPoll waits for one readiness at a time.
            return Registration(socket: socket, wantsRead: !wantsWrite, wantsWrite: wantsWrite, generation: generation)
        case .ready(let wantsWrite, _):
            return Registration(socket: socket, wantsRead: true, wantsWrite: wantsWrite, generation: generation)
        }
    }

    /// When `tick` has something to do at the latest (an attempt to connect, or one that times out); nil: nothing.
    public var nextDeadline: ContinuousClock.Instant? {
        switch phase {
        case .down(let retryAt): retryAt
        case .connecting(_, let deadline): deadline
        case .ready(_, let due): due
        }
    }

    /// Sends one lookup of the status version of each key's project (checking its token, if any), answered later
    /// through `handleReadiness` with an answer for each key, in their order; false when it cannot be sent now (not
    /// connected, a lookup in flight, no key, a project name with a NUL, a failure).
    public func submit(_ keys: [StatusLookupKey], tag: Tag) -> Bool {
        guard case .ready = phase, let handle, !isInFlight, !keys.isEmpty,
            !keys.contains(where: { $0.project.utf8.contains(0) })
        else { return false }
        let projects = Self.arrayLiteral(keys.map(\.project), quoted: true)
        let tokens = Self.arrayLiteral(keys.map { $0.tokenID.map(String.init) }, quoted: false)
        let isSent = projects.withCString { projectsText in
            tokens.withCString { tokensText in
                var values: [UnsafePointer<CChar>?] = [projectsText, tokensText]
                return PQsendQueryPrepared(handle, Self.statementName, 2, &values, nil, nil, 0) == 1
            }
        }
        guard isSent, PQpipelineSync(handle) == 1 else {
            // The statement may be half sent: nothing more can be trusted on this connection.
            failedLater += drop()
            return false
        }
        expected.append(.lookup(tag, count: keys.count))
        if case .ready(let wantsWrite, _) = phase { phase = .ready(wantsWrite: wantsWrite, due: .now + Self.deadline) }
        flush()
        return true
    }

    /// PostgreSQL's text form of an array of `elements` (NULL for nil), each in double quotes (with `"` and `\`
    /// escaped) when `quoted`.
    static func arrayLiteral(_ elements: [String?], quoted: Bool) -> String {
        var text = "{"
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            guard let element else {
                text += "NULL"
                continue
            }
            guard quoted else {
                text += element
                continue
            }
            text += "\""
            for character in element.unicodeScalars {
                if character == "\"" || character == "\\" { text += "\\" }
                text.unicodeScalars.append(character)
            }
            text += "\""
        }
        return text + "}"
    }

    /// Connects when an attempt is due, and gives up one that took longer than the configured connect timeout.
    /// Returns the lookups that failed meanwhile: their callers take their blocking path.
    public func tick(now: ContinuousClock.Instant) -> [Tag] {
        var failed = failedLater
        failedLater = []
        switch phase {
        case .down(let retryAt) where now >= retryAt:
            startConnecting(now: now)
        case .connecting(_, let deadline) where now >= deadline:
            failed += drop()
        case .ready(_, let due?) where now >= due:
            notices.append(.timedOut(Self.deadline))
            failed += drop()
        default:
            break
        }
        return failed
    }

    /// The socket is ready: connects further, sends what is waiting, reads answers. Returns the lookups answered,
    /// in the order they were sent, each with an answer per key (nil: failed, take the blocking path).
    public func handleReadiness() -> [(tag: Tag, answers: [Answer]?)] {
        var answered = failedLater.map { (tag: $0, answers: [Answer]?.none) }
        failedLater = []
        switch phase {
        case .down:
            break
        case .connecting:
            pollConnecting()
        case .ready:
            answered += readAnswers()
        }
        return answered
    }

    /// Closes the connection; pending lookups are returned, unanswered.
    public func close() -> [Tag] {
        let failed = failedLater + drop()
        failedLater = []
        return failed
    }

    // MARK: - Connecting

    private func startConnecting(now: ContinuousClock.Instant) {
        let connection = configuration.withConnectionParameters { PQconnectStartParams($0, $1, 1) }
        generation += 1
        guard let connection, PQstatus(connection) != CONNECTION_BAD else {
            if let connection { PQfinish(connection) }
            retryLater()
            return
        }
        handle = connection
        // libpq's connect_timeout does not apply to PQconnectPoll: the loop keeps the deadline.
        let timeout = Duration.seconds(max(1, configuration.connectTimeoutSeconds))
        phase = .connecting(wantsWrite: true, deadline: now + timeout)
    }

    private func pollConnecting() {
        guard let handle, case .connecting(_, let deadline) = phase else { return }
        let state = PQconnectPoll(handle)
        // Each step may have opened another socket (another address of the host, a retry without TLS).
        generation += 1
        switch state {
        case PGRES_POLLING_READING: phase = .connecting(wantsWrite: false, deadline: deadline)
        case PGRES_POLLING_WRITING: phase = .connecting(wantsWrite: true, deadline: deadline)
        case PGRES_POLLING_OK: becomeReady(handle)
        default: _ = drop()
        }
    }

    private func becomeReady(_ handle: OpaquePointer) {
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // The statement's generic plan, made once: PostgreSQL would otherwise plan it afresh at every lookup (its
        // plan for an array of unknown length looks dearer than one for the array given), which costs it twice
        // what running it does.
        guard PQsetnonblocking(handle, 1) == 0, PQenterPipelineMode(handle) == 1,
            PQsendQueryParams(handle, Self.genericPlans, 0, nil, nil, nil, nil, 0) == 1,
            PQsendQueryParams(handle, Self.statementTimeout, 0, nil, nil, nil, nil, 0) == 1,
            PQsendPrepare(handle, Self.statementName, StatusStore.versionsCheckingTokensQuery, 2, nil) == 1,
            PQpipelineSync(handle) == 1
        else {
            _ = drop()
            return
        }
        expected = [.prepare]
        expectedHead = 0
        phase = .ready(wantsWrite: false, due: nil)
        if isToldDown { notices.append(.up) }
        (isToldDown, isFailureTold) = (false, false)
        flush()
    }

    // MARK: - Answers

    /// Sends what libpq holds; waits for the socket to take more when it could not send it all.
    private func flush() {
        guard let handle, case .ready(_, let due) = phase else { return }
        switch PQflush(handle) {
        case 0: phase = .ready(wantsWrite: false, due: due)
        case 1: phase = .ready(wantsWrite: true, due: due)
        default: failedLater += drop()
        }
    }

    private func readAnswers() -> [(tag: Tag, answers: [Answer]?)] {
        guard let handle else { return [] }
        flush()
        guard case .ready = phase else { return [] }
        guard PQconsumeInput(handle) == 1 else { return drop().map { ($0, nil) } }
        var answered: [(tag: Tag, answers: [Answer]?)] = []
        var isSetupFailed = false
        // Between the results of two statements libpq returns one NULL; two in a row mean nothing more is here.
        var nulls = 0
        while expectedHead < expected.count, nulls < 2, PQisBusy(handle) == 0 {
            guard let result = PQgetResult(handle) else {
                nulls += 1
                continue
            }
            nulls = 0
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK:
                if let answers = Self.answers(result) {
                    headAnswers += answers
                } else {
                    headFailed = true
                }
            case PGRES_COMMAND_OK:
                break
            case PGRES_PIPELINE_SYNC:
                let item = expected[expectedHead]
                expectedHead += 1
                switch item {
                case .prepare: isSetupFailed = headFailed
                case .lookup(let tag, let count):
                    answered.append((tag, headFailed || headAnswers.count != count ? nil : headAnswers))
                }
                headAnswers = []
                headFailed = false
            default:
                headFailed = true
                if !isFailureTold {
                    isFailureTold = true
                    notices.append(.failed(Self.message(PQresultErrorMessage(result))))
                }
            }
        }
        if expectedHead == expected.count {
            expected.removeAll(keepingCapacity: true)
            expectedHead = 0
        }
        if isSetupFailed || PQstatus(handle) != CONNECTION_OK {
            answered += drop().map { ($0, nil) }
            return answered
        }
        // Answered: nothing is due until the next lookup is sent.
        if !isInFlight, case .ready(let wantsWrite, _) = phase { phase = .ready(wantsWrite: wantsWrite, due: nil) }
        if expected.isEmpty {
            // A connection that answered everything is sound: the next drop starts backing off afresh.
            backoff.reset()
        }
        return answered
    }

    /// An answer per row of `result`; nil when it is not made of a version and a flag.
    private static func answers(_ result: OpaquePointer) -> [Answer]? {
        guard PQnfields(result) == 2 else { return nil }
        var answers: [Answer] = []
        for row in 0..<PQntuples(result) {
            let version = PQgetisnull(result, row, 0) == 1 ? nil : String(cString: PQgetvalue(result, row, 0))
            guard PQgetisnull(result, row, 1) == 0 else { return nil }
            answers.append(
                Answer(version: version, isTokenActive: PQgetvalue(result, row, 1).pointee == CChar(UInt8(ascii: "t"))))
        }
        return answers
    }

    // MARK: - Failure

    /// Closes the connection and returns the lookups it still owed; the next attempt is after the backoff.
    private func drop() -> [Tag] {
        if !isToldDown {
            isToldDown = true
            notices.append(.down(handle.map { Self.message(PQerrorMessage($0)) } ?? "cannot start a connection"))
        }
        let owed: [Tag] = expected[expectedHead...].compactMap { item in
            if case .lookup(let tag, _) = item { return tag }
            return nil
        }
        expected.removeAll()
        expectedHead = 0
        headAnswers = []
        headFailed = false
        if let handle { PQfinish(handle) }
        handle = nil
        generation += 1
        retryLater()
        return owed
    }

    /// libpq's message on one line, or a word when it has none.
    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        let line = text.map { String(cString: $0) }?.split(whereSeparator: \.isNewline).joined(separator: " ") ?? ""
        return line.isEmpty ? "no message" : line
    }

    private func retryLater() {
        phase = .down(retryAt: .now + backoff.next())
    }
}

/// What one status lookup is of: a project's status version, and a token's state (nil: none checked).
public struct StatusLookupKey: Hashable, Sendable {
    /// The project's name.
    public var project: String
    /// The token whose state is checked; nil: none.
    public var tokenID: Int64?

    /// A key.
    public init(project: String, tokenID: Int64?) {
        self.project = project
        self.tokenID = tokenID
    }
}

/// What a status lookup found for one key (`StatusLookupKey`): the project's status version (nil: no such project,
/// or none yet) and whether the token given is still active (true when none was given).
public struct StatusLookupAnswer: Equatable, Sendable {
    /// The status version, as `StatusStore.version` returns it.
    public var version: String?
    /// Whether the token is active (not revoked).
    public var isTokenActive: Bool

    /// An answer.
    public init(version: String?, isTokenActive: Bool) {
        self.version = version
        self.isTokenActive = isTokenActive
    }
}
