import CLibpq
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One blocking connection to PostgreSQL through libpq.
///
/// Thread-safety: none. A connection belongs to one thread at a time — in the daemon, the pool worker thread that
/// owns it — and every call blocks that thread, so never use one from Swift's cooperative thread pool.
///
/// Every statement is parameterized (`PQexecParams`); the only unparameterized path is `executeScript`, which
/// runs the migrations compiled into the binary. A connection found broken before a statement is sent is
/// re-established first; one that breaks while a statement is in flight throws `StoreError.connectionLost` and
/// reconnects on its next use, since whether the statement took effect cannot be known.
public final class PostgresConnection {
    /// The configuration this connection was opened with.
    public let configuration: PostgresConfiguration
    private var handle: OpaquePointer?
    /// Inside `transaction(_:)`: a broken connection must then fail the transaction, never reconnect under it.
    private var isInsideTransactionBlock = false
    /// Receives the primary text of each notice the server sends this session (NOTICE, INFO and the like), which is
    /// otherwise dropped: for a caller that asked the server to report something that way, such as a test reading
    /// the plans `auto_explain` reports at `auto_explain.log_level = notice`. Called on the thread running the
    /// statement, while it runs.
    public var noticeReceiver: ((String) -> Void)?

    /// Opens a connection; throws `StoreError.connectionFailed` when the server cannot be reached.
    public init(configuration: PostgresConfiguration) throws {
        self.configuration = configuration
        handle = try Self.open(configuration)
        try prepareSession()
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Closes the connection. Later statements reopen it.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// The server's process id for this session, as `pg_backend_pid()` reports it.
    public var backendPID: Int32 {
        guard let handle else { return 0 }
        return PQbackendPID(handle)
    }

    /// Whether the server is a standby in recovery, as it reported at connecting and since (PostgreSQL 14's
    /// `in_hot_standby`; a promoted standby reports the change): no statement is sent.
    public var isHotStandby: Bool {
        guard let handle, let value = PQparameterStatus(handle, "in_hot_standby") else { return false }
        return String(cString: value) == "on"
    }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    // MARK: - Statements

    /// Runs one statement with bound parameters and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [(any PostgresEncodable)?] = []) throws -> PostgresRows {
        try consume(try execute(sql, parameters))
    }

    /// Runs one statement with bound parameters and keeps its rows in libpq's own result, to read in place: for a
    /// read of many rows that decodes only what it needs (a sync's stored findings), with no string per value.
    public func queryResult(_ sql: String, _ parameters: [(any PostgresEncodable)?] = []) throws -> PostgresResult {
        let result = try execute(sql, parameters)
        guard let result, PQresultStatus(result) == PGRES_TUPLES_OK else {
            // Not rows: whatever `consume` makes of it (an error, or no rows at all).
            _ = try consume(result)
            return PostgresResult()
        }
        return PostgresResult(result)
    }

    /// Sends one statement with its parameters as text and returns libpq's result, which the caller frees.
    private func execute(_ sql: String, _ parameters: [(any PostgresEncodable)?]) throws -> OpaquePointer? {
        let texts = parameters.map { $0?.postgresText }
        // libpq passes C strings: a NUL would silently cut the value short.
        if texts.contains(where: { $0?.utf8.contains(0) == true }) {
            throw StoreError.invalid("a value holds a NUL character")
        }
        let connection = try ensureConnected()
        return withCStrings(texts) { values in
            PQexecParams(connection, sql, Int32(texts.count), nil, values, nil, nil, 0)
        }
    }

    /// Runs one statement and decodes the first column of its first row, or nil when it returned no row.
    public func queryValue<T: PostgresDecodable>(
        _ sql: String,
        _ parameters: [(any PostgresEncodable)?] = [],
        as type: T.Type = T.self
    ) throws -> T? {
        let rows = try query(sql, parameters)
        guard let row = rows.first else { return nil }
        return try row.decodeIfPresent(at: 0, as: type)
    }

    /// Runs a script of several statements without parameters. Only for SQL compiled into the binary
    /// (migrations): never pass text that came from a user.
    public func executeScript(_ sql: String) throws {
        let connection = try ensureConnected()
        let result = PQexec(connection, sql)
        _ = try consume(result)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    ///
    /// A transaction whose statement failed inside `body` (an error `body` caught and did not rethrow) is rolled
    /// back and reported, never committed in part; a connection that breaks inside it throws `connectionLost` and
    /// does not reconnect until the transaction is over. Transactions do not nest.
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard !isInsideTransactionBlock else { throw StoreError.invalid("transactions do not nest") }
        try query("BEGIN")
        isInsideTransactionBlock = true
        defer { isInsideTransactionBlock = false }
        do {
            let value = try body(self)
            if let handle, PQtransactionStatus(handle) == PQTRANS_INERROR {
                throw StoreError.server(
                    PostgresError(
                        sqlState: "25P02", message: "a statement of the transaction failed; nothing was committed")
                )
            }
            try query("COMMIT")
            return value
        } catch {
            rollbackIfPossible()
            throw error
        }
    }

    /// Makes the connection fit for its next user (a pool job): rolls back a transaction left open and reports
    /// whether the connection is still usable; an unusable one should be closed.
    public func resetAfterUse() -> Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return false }
        if PQtransactionStatus(handle) != PQTRANS_IDLE {
            let result = PQexec(handle, "ROLLBACK")
            let isRolledBack = PQresultStatus(result) == PGRES_COMMAND_OK
            PQclear(result)
            return isRolledBack && PQtransactionStatus(handle) == PQTRANS_IDLE
        }
        return true
    }

    // MARK: - LISTEN / NOTIFY

    /// Subscribes this session to `channel` (a fixed name chosen by the code, never user input).
    public func listen(_ channel: String) throws {
        try executeScript("LISTEN " + PostgresCluster.quoteIdentifier(channel))
    }

    /// Waits up to `timeout` for notifications on the channels this session listens to (or for `wakeup`, a file
    /// descriptor another thread makes readable), and returns their payloads, possibly none. Throws
    /// `connectionLost` when the connection broke; the caller reconnects and LISTENs again.
    public func waitForNotifications(timeout: Duration, wakeup: Int32? = nil) throws -> [String] {
        guard let connection = handle, PQstatus(connection) == CONNECTION_OK else {
            throw StoreError.connectionLost("the notification connection is closed")
        }
        var descriptors = [pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)]
        if let wakeup { descriptors.append(pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(min(timeout.milliseconds, 60_000))
        _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        guard PQconsumeInput(connection) == 1 else {
            throw StoreError.connectionLost(Self.errorMessage(connection))
        }
        var payloads: [String] = []
        while let notification = PQnotifies(connection) {
            payloads.append(notification.pointee.extra.map { String(cString: $0) } ?? "")
            PQfreemem(notification)
        }
        return payloads
    }

    // MARK: - COPY

    /// Streams rows into `COPY … FROM STDIN` (text format) and returns how many the server stored.
    ///
    /// `sql` must be a `COPY table (columns) FROM STDIN` statement; each row holds one value per column, nil for
    /// NULL.
    @discardableResult
    public func copyIn<Rows: Sequence<[String?]>>(_ sql: String, rows: Rows) throws -> Int {
        try copyIn(sql) { writer in
            for row in rows { try writer.write(row) }
        }
    }

    /// Runs `COPY … FROM STDIN` and lets `produce` write its rows; returns how many the server stored.
    ///
    /// Rows are sent in batches of about 64 KiB as they are written. When `produce` throws, the COPY is aborted,
    /// nothing of it is stored, and the error is rethrown.
    @discardableResult
    public func copyIn(_ sql: String, _ produce: (inout CopyWriter) throws -> Void) throws -> Int {
        let connection = try ensureConnected()
        let start = PQexec(connection, sql)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            _ = try consume(start)
            throw StoreError.server(PostgresError(sqlState: "42601", message: "statement is not COPY FROM STDIN"))
        }
        PQclear(start)
        var writer = CopyWriter(connection: connection)
        do {
            try produce(&writer)
            try writer.flush()
        } catch {
            PQputCopyEnd(connection, "aborted by the client")
            drainResults(connection)
            throw error
        }
        guard PQputCopyEnd(connection, nil) == 1 else { throw lostOrFailed(connection) }
        let rowsResult = try consume(PQgetResult(connection))
        drainResults(connection)
        return rowsResult.affectedRows ?? 0
    }

    // MARK: - Connection health

    /// Opens the connection if it is closed, and re-establishes it if the server dropped it while idle (a
    /// restarted server or a terminated backend). Nothing was in flight, so nothing is lost by reconnecting.
    private func ensureConnected() throws -> OpaquePointer {
        guard let connection = handle else {
            let reopened = try Self.open(configuration)
            handle = reopened
            try prepareSession()
            return reopened
        }
        if PQstatus(connection) == CONNECTION_OK, !isInTransaction { readPendingInput(connection) }
        if PQstatus(connection) != CONNECTION_OK {
            guard !isInsideTransactionBlock else {
                throw StoreError.connectionLost(
                    "the connection broke inside a transaction; nothing of it was committed")
            }
            PQfinish(connection)
            handle = nil
            let reopened = try Self.open(configuration)
            handle = reopened
            try prepareSession()
            return reopened
        }
        return connection
    }

    /// An idle connection's socket is readable only when the server said something unasked: a notification, or
    /// the error and end of stream of a terminated session. Reading it all is how libpq notices the latter.
    private func readPendingInput(_ connection: OpaquePointer) {
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        // Bounded: at most the goodbye message, then the end of stream.
        for _ in 0..<4 {
            guard poll(&descriptor, 1, 0) > 0 else { return }
            guard PQconsumeInput(connection) == 1 else { return }
        }
    }

    private func prepareSession() throws {
        guard let handle else { return }
        // Notices (e.g. "already exists, skipping") are not errors; libpq would print them on stderr. They go to
        // `noticeReceiver`, if any. libpq calls the receiver only inside this connection's own calls, while `self`
        // is alive, so it holds `self` unretained.
        PQsetNoticeReceiver(
            handle,
            { context, result in
                guard let context, let result else { return }
                let connection = Unmanaged<PostgresConnection>.fromOpaque(context).takeUnretainedValue()
                guard let receiver = connection.noticeReceiver,
                    let message = PQresultErrorField(result, Int32(UInt8(ascii: "M")))
                else { return }
                receiver(String(cString: message))
            },
            Unmanaged.passUnretained(self).toOpaque()
        )
        // Dates are exchanged as ISO 8601 in UTC, whatever the server's defaults.
        // No JIT compilation: Barkeep's statements run in milliseconds to a few seconds, and PostgreSQL compiles
        // one whose estimate passes `jit_above_cost` (a listing or report of 100,000 findings) for longer than it
        // then saves: a second and more of the two a 100,000-finding FINDINGS takes (docs/performance.md).
        // A lock timeout is the session's: set again on every session, so a connection reopened keeps it.
        let lockTimeout = configuration.lockTimeoutMilliseconds.map { "; SET lock_timeout = \(max(1, $0))" } ?? ""
        let result = PQexec(handle, "SET TimeZone = 'UTC'; SET DateStyle = 'ISO'; SET jit = off" + lockTimeout)
        _ = try consume(result)
    }

    private static func open(_ configuration: PostgresConfiguration) throws -> OpaquePointer {
        let connection = configuration.withConnectionParameters { PQconnectdbParams($0, $1, 1) }
        guard let connection else { throw StoreError.connectionFailed("out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.errorMessage(connection)
            PQfinish(connection)
            throw StoreError.connectionFailed(message)
        }
        return connection
    }

    private func rollbackIfPossible() {
        guard let handle, PQstatus(handle) == CONNECTION_OK, isInTransaction else { return }
        PQclear(PQexec(handle, "ROLLBACK"))
    }

    // MARK: - Results

    /// Copies a result out of libpq, frees it, and turns failures into `StoreError`.
    private func consume(_ result: OpaquePointer?) throws -> PostgresRows {
        guard let connection = handle else { throw StoreError.connectionLost("connection closed") }
        guard let result else { throw lostOrFailed(connection) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return PostgresRows(columns: [], values: [], affectedRows: Self.affectedRows(result))
        case PGRES_TUPLES_OK:
            return Self.copyRows(result)
        default:
            if PQstatus(connection) != CONNECTION_OK {
                throw StoreError.connectionLost(Self.errorMessage(connection))
            }
            throw StoreError.server(Self.serverError(result))
        }
    }

    private func lostOrFailed(_ connection: OpaquePointer) -> StoreError {
        Self.lostOrFailed(connection)
    }

    fileprivate static func lostOrFailed(_ connection: OpaquePointer) -> StoreError {
        let message = errorMessage(connection)
        if PQstatus(connection) != CONNECTION_OK { return .connectionLost(message) }
        return .server(PostgresError(sqlState: "XX000", message: message))
    }

    private func drainResults(_ connection: OpaquePointer) {
        while let result = PQgetResult(connection) { PQclear(result) }
    }

    private static func copyRows(_ result: OpaquePointer) -> PostgresRows {
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        var values: [[String?]] = []
        values.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var rowValues: [String?] = []
            rowValues.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(result, row, column) == 1 {
                    rowValues.append(nil)
                } else {
                    rowValues.append(String(cString: PQgetvalue(result, row, column)))
                }
            }
            values.append(rowValues)
        }
        return PostgresRows(columns: columns, values: values, affectedRows: affectedRows(result))
    }

    private static func affectedRows(_ result: OpaquePointer) -> Int? {
        guard let tuples = PQcmdTuples(result) else { return nil }
        return Int(String(cString: tuples))
    }

    private static func serverError(_ result: OpaquePointer) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let ascii = code.asciiValue, let value = PQresultErrorField(result, Int32(ascii)) else {
                return nil
            }
            return String(cString: value)
        }
        return PostgresError(
            sqlState: field("C") ?? "XX000",
            message: field("M") ?? "unknown error",
            detail: field("D"),
            constraint: field("n")
        )
    }

    private static func errorMessage(_ connection: OpaquePointer) -> String {
        guard let message = PQerrorMessage(connection) else { return "unknown error" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\n", with: "; ")
    }
}

extension PostgresConfiguration {
    /// Calls `body` with `keywordValues` as libpq's keyword and value arrays (`const char *const *`, each ending with
    /// a NULL entry), alive for the duration of the call.
    func withConnectionParameters<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?) -> R
    ) -> R {
        let pairs = keywordValues
        return withCStrings(pairs.map(\.0)) { keywords in
            withCStrings(pairs.map(\.1)) { values in
                keywords.withUnsafeBufferPointer { keywordBuffer in
                    values.withUnsafeBufferPointer { valueBuffer in
                        body(keywordBuffer.baseAddress, valueBuffer.baseAddress)
                    }
                }
            }
        }
    }
}

/// Calls `body` with a NULL-terminated array of C strings that live for the duration of the call.
private func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
}

/// Writes rows of a `COPY … FROM STDIN` in progress; handed to the closure of `PostgresConnection.copyIn`.
public struct CopyWriter: ~Copyable {
    private let connection: OpaquePointer
    private var buffer: [UInt8] = []
    /// Rows written so far.
    public private(set) var rowCount = 0

    fileprivate init(connection: OpaquePointer) {
        self.connection = connection
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends one row (one value per column, nil for NULL), sending a batch when about 64 KiB are buffered.
    public mutating func write(_ row: [String?]) throws {
        try writeRow { fields in
            for value in row { try fields.append(value) }
        }
    }

    /// Appends one row whose fields `build` appends in column order, sending a batch when about 64 KiB are
    /// buffered.
    public mutating func writeRow(_ build: (inout CopyFields) throws -> Void) throws {
        let start = buffer.count
        var fields = CopyFields(appendingTo: buffer)
        buffer = []
        do {
            try build(&fields)
        } catch {
            // The rows before this one stay; nothing of this one is sent.
            buffer = fields.finished()
            buffer.removeSubrange(start...)
            throw error
        }
        buffer = fields.finished()
        rowCount += 1
        if buffer.count >= 1 << 16 { try flush() }
    }

    fileprivate mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        let sent = buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                PQputCopyData(connection, chars.baseAddress, Int32(chars.count))
            }
        }
        guard sent == 1 else { throw PostgresConnection.lostOrFailed(connection) }
        buffer.removeAll(keepingCapacity: true)
    }
}
