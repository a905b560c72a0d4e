import CLibpq
import Foundation

/// Status-version lookups (`StatusStore.version(project:checkingToken:on:)`) over one non-blocking libpq connection
/// in pipeline mode, for an event loop that must never block: connecting (`PQconnectStartParams`/`PQconnectPoll`),
/// sending and reading happen only when the loop says its socket is ready, or at the deadlines it is told.
///
/// Lookups are answered in the order they were sent, each in a statement of its own (a pipeline sync after each),
/// so each reads the version committed when it runs. When the connection is down, connecting, holds
/// `maximumPending` lookups or fails, `submit` refuses and pending lookups are answered `nil`: the caller takes its
/// blocking path instead. A dropped connection is opened again after a backoff (`minimumBackoff` doubling up to
/// `maximumBackoff`).
///
/// Thread-safety: none. It belongs to one thread, the event loop's, for its whole life.
public final class StatusVersionLookup<Tag> {
    /// What a lookup found: the project's status version (nil: no such project, or none yet) and whether the token
    /// given is still active (true when none was given).
    public struct Answer: Equatable, Sendable {
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
        case lookup(Tag)
    }

    private enum Phase {
        /// No connection; the next attempt is at `retryAt`.
        case down(retryAt: ContinuousClock.Instant)
        /// `PQconnectPoll` in progress, waiting for the socket to become writable or readable, until `deadline`.
        case connecting(wantsWrite: Bool, deadline: ContinuousClock.Instant)
        /// Connected, in pipeline mode.
        case ready(wantsWrite: Bool)
    }

    /// The name of the prepared lookup statement.
    static var statementName: String { "barkeep_status_version" }
    /// At most this many lookups wait for their answers; more go the caller's blocking way.
    public let maximumPending: Int
    /// `maximumPending` unless told otherwise (docs/operations.md states it).
    public static var defaultMaximumPending: Int { 64 }
    /// The first wait before opening a dropped connection again.
    public static var minimumBackoff: Duration { .milliseconds(100) }
    /// The longest wait between attempts.
    public static var maximumBackoff: Duration { .seconds(5) }

    private let configuration: PostgresConfiguration
    private var handle: OpaquePointer?
    private var phase: Phase
    private var expected: [Expected] = []
    private var expectedHead = 0
    /// The first result of the oldest expected statement: its answer, or nil when it failed.
    private var headAnswer: Answer?
    private var headFailed = false
    private var backoff = StatusVersionLookup.minimumBackoff
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
    }

    /// The notices since the last call, oldest first.
    public func takeNotices() -> [Notice] {
        defer { notices.removeAll() }
        return notices
    }

    /// A lookup that connects at its first `tick`; `configuration` is the database's.
    public init(
        configuration: PostgresConfiguration, maximumPending: Int = StatusVersionLookup.defaultMaximumPending
    ) {
        self.configuration = configuration
        self.maximumPending = maximumPending
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

    /// Lookups sent and not answered yet.
    public var pendingCount: Int {
        expected[expectedHead...].reduce(0) { count, item in
            if case .lookup = item { return count + 1 }
            return count
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
        case .ready(let wantsWrite):
            return Registration(socket: socket, wantsRead: true, wantsWrite: wantsWrite, generation: generation)
        }
    }

    /// When `tick` has something to do at the latest (an attempt to connect, or one that times out); nil: nothing.
    public var nextDeadline: ContinuousClock.Instant? {
        switch phase {
        case .down(let retryAt): retryAt
        case .connecting(_, let deadline): deadline
        case .ready: nil
        }
    }

    /// Sends a lookup of `project`'s status version (checking token `tokenID`, if any), answered later through
    /// `handleReadiness`; false when it cannot be sent now (not connected, `maximumPending` waiting, a failure).
    public func submit(project: String, checkingToken tokenID: Int64?, tag: Tag) -> Bool {
        guard case .ready = phase, let handle, pendingCount < maximumPending, !project.utf8.contains(0) else {
            return false
        }
        let token = tokenID.map(String.init)
        let isSent = project.withCString { projectText in
            withOptionalCString(token) { tokenText in
                var values: [UnsafePointer<CChar>?] = [projectText, tokenText]
                return PQsendQueryPrepared(handle, Self.statementName, 2, &values, nil, nil, 0) == 1
            }
        }
        guard isSent, PQpipelineSync(handle) == 1 else {
            // The statement may be half sent: nothing more can be trusted on this connection.
            failedLater += drop()
            return false
        }
        expected.append(.lookup(tag))
        flush()
        return true
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
        default:
            break
        }
        return failed
    }

    /// The socket is ready: connects further, sends what is waiting, reads answers. Returns the lookups answered,
    /// in the order they were sent (nil: failed, take the blocking path).
    public func handleReadiness() -> [(tag: Tag, answer: Answer?)] {
        var answered = failedLater.map { (tag: $0, answer: Answer?.none) }
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
        guard PQsetnonblocking(handle, 1) == 0, PQenterPipelineMode(handle) == 1,
            PQsendPrepare(handle, Self.statementName, StatusStore.versionCheckingTokenQuery, 2, nil) == 1,
            PQpipelineSync(handle) == 1
        else {
            _ = drop()
            return
        }
        expected = [.prepare]
        expectedHead = 0
        phase = .ready(wantsWrite: false)
        if isToldDown { notices.append(.up) }
        (isToldDown, isFailureTold) = (false, false)
        flush()
    }

    // MARK: - Answers

    /// Sends what libpq holds; waits for the socket to take more when it could not send it all.
    private func flush() {
        guard let handle, case .ready = phase else { return }
        switch PQflush(handle) {
        case 0: phase = .ready(wantsWrite: false)
        case 1: phase = .ready(wantsWrite: true)
        default: failedLater += drop()
        }
    }

    private func readAnswers() -> [(tag: Tag, answer: Answer?)] {
        guard let handle else { return [] }
        flush()
        guard case .ready = phase else { return [] }
        guard PQconsumeInput(handle) == 1 else { return drop().map { ($0, nil) } }
        var answered: [(tag: Tag, answer: Answer?)] = []
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
                headAnswer = Self.answer(result)
                headFailed = headFailed || headAnswer == nil
            case PGRES_COMMAND_OK:
                break
            case PGRES_PIPELINE_SYNC:
                let item = expected[expectedHead]
                expectedHead += 1
                switch item {
                case .prepare: isSetupFailed = headFailed
                case .lookup(let tag): answered.append((tag, headFailed ? nil : headAnswer))
                }
                headAnswer = nil
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
        } else if expected.isEmpty {
            // A connection that answered everything is sound: the next drop starts backing off afresh.
            backoff = Self.minimumBackoff
        }
        return answered
    }

    private static func answer(_ result: OpaquePointer) -> Answer? {
        guard PQntuples(result) == 1, PQnfields(result) == 2 else { return nil }
        let version = PQgetisnull(result, 0, 0) == 1 ? nil : String(cString: PQgetvalue(result, 0, 0))
        guard PQgetisnull(result, 0, 1) == 0 else { return nil }
        return Answer(version: version, isTokenActive: PQgetvalue(result, 0, 1).pointee == CChar(UInt8(ascii: "t")))
    }

    // MARK: - Failure

    /// Closes the connection and returns the lookups it still owed; the next attempt is after the backoff.
    private func drop() -> [Tag] {
        if !isToldDown {
            isToldDown = true
            notices.append(.down(handle.map { Self.message(PQerrorMessage($0)) } ?? "cannot start a connection"))
        }
        let owed: [Tag] = expected[expectedHead...].compactMap { item in
            if case .lookup(let tag) = item { return tag }
            return nil
        }
        expected.removeAll()
        expectedHead = 0
        headAnswer = nil
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
        phase = .down(retryAt: .now + backoff)
        backoff = min(backoff * 2, Self.maximumBackoff)
    }
}

/// Calls `body` with `text` as a C string, or with NULL when it is nil.
private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
