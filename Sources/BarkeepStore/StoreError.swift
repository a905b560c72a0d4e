import BarkeepCore

/// Everything that can go wrong in the store. Descriptions never carry SQL text, parameter values or credentials:
/// they are safe to log and to map onto a protocol error.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached or refused the connection (bad address, authentication, no such database).
    case connectionFailed(String)
    /// The connection broke while a statement was in flight; whether that statement took effect is unknown.
    /// The connection is re-established on its next use.
    case connectionLost(String)
    /// The server rejected a statement; `sqlState` is the five-character SQLSTATE code.
    case server(PostgresError)
    /// A column could not be decoded as the type asked for.
    case decoding(column: String, expected: String)
    /// A row had no column of that name.
    case noSuchColumn(String)
    /// The pool has been shut down.
    case poolClosed
    /// The pool's queue is full: the caller should back off.
    case poolBusy
    /// The database holds migrations this binary does not know: it was written by a newer Barkeep.
    case schemaTooNew(database: Int, binary: Int)
    /// A migration already applied differs from the one compiled into this binary.
    case migrationChanged(version: Int, name: String)
    /// The PostgreSQL server is older than the schema needs.
    case unsupportedServer(version: Int)
    /// A migration failed; nothing of it was applied.
    case migrationFailed(version: Int, name: String, reason: String)
    /// The embedded PostgreSQL could not be found, created, started or stopped.
    case cluster(String)
    /// The named thing does not exist (a project, a token).
    case notFound(String)
    /// The change conflicts with what is stored (a name already taken).
    case conflict(String)
    /// The value breaks a rule of the data (a check constraint).
    case invalid(String)
    /// The caller's role may not make that change.
    case forbidden(String)
    /// A read on a streaming replica found no credential where the primary may have one the replica has not
    /// replayed yet: the read must run on the primary (`ReadReplica` does so).
    case notReplayed(String)

    public var description: String {
        switch self {
        case .connectionFailed(let message): "cannot connect to PostgreSQL: \(message)"
        case .connectionLost(let message): "connection to PostgreSQL lost: \(message)"
        case .server(let error): error.description
        case .decoding(let column, let expected): "column \(column) is not a valid \(expected)"
        case .noSuchColumn(let column): "no column named \(column) in the result"
        case .poolClosed: "the database pool is shut down"
        case .poolBusy: "the database pool is saturated"
        case .schemaTooNew(let database, let binary):
            "the database schema is at version \(database) but this barkeepd knows only up to \(binary): "
                + "upgrade barkeepd"
        case .migrationChanged(let version, let name):
            "migration \(version) (\(name)) differs from the one already applied to this database"
        case .unsupportedServer(let version):
            "PostgreSQL \(version / 10000) is too old: Barkeep needs PostgreSQL 15 or newer"
        case .migrationFailed(let version, let name, let reason): "migration \(version) (\(name)) failed: \(reason)"
        case .cluster(let message), .notFound(let message), .conflict(let message), .invalid(let message),
            .forbidden(let message):
            message
        case .notReplayed(let what): "the read replica does not know \(what) (yet): ask the primary"
        }
    }

    /// Whether a connection failure will not go away by waiting: bad credentials, a missing role or database, a
    /// refused host. Everything else (refused connection, missing socket, a server starting up) may.
    public static func isPermanentConnectionFailure(_ message: String) -> Bool {
        let permanent = [
            "authentication failed", "does not exist", "no pg_hba.conf entry", "password", "invalid connection option",
            "invalid URI", "invalid sslmode", "could not translate host name",
        ]
        return permanent.contains { message.localizedCaseInsensitiveContains($0) }
    }

    /// Whether the database cannot be used now, whatever the statement: the connection could not be made or broke,
    /// the server is going away (SQLSTATE 08… and 57P…), or the pool is shut down. Worth a retry later.
    public var isConnectionFailure: Bool {
        switch self {
        case .connectionFailed, .connectionLost, .poolClosed: true
        case .server(let error): error.sqlState.hasPrefix("08") || error.sqlState.hasPrefix("57P")
        default: false
        }
    }

    /// Nil when a lookup of a credential (a token, a web session) on `connection` found nothing; throws
    /// `notReplayed` when `connection` is to a standby, where that is no answer: the credential may have been
    /// written on the primary moments ago (`barkeep token create`, then the token used at once).
    public static func missingCredential<T>(_ what: String, on connection: PostgresConnection) throws -> T? {
        if connection.isHotStandby { throw StoreError.notReplayed(what) }
        return nil
    }

    /// The SQLSTATE of a server error, if this is one.
    public var sqlState: String? {
        if case .server(let error) = self { return error.sqlState }
        return nil
    }
}

/// An error reported by the PostgreSQL server, with the fields a caller may act on.
public struct PostgresError: Sendable, Equatable, CustomStringConvertible {
    /// The five-character SQLSTATE, e.g. `23505` for a unique violation.
    public var sqlState: String
    /// The primary message. PostgreSQL keeps row values out of it (they go in `detail`).
    public var message: String
    /// The detail message; may contain row values, so it is for logs at debug level only.
    public var detail: String?
    /// The constraint that was violated, when there is one.
    public var constraint: String?

    /// Creates a server error.
    public init(sqlState: String, message: String, detail: String? = nil, constraint: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
    }

    public var description: String { "PostgreSQL error \(sqlState): \(message)" }

    /// Well-known SQLSTATE codes.
    public enum Code {
        /// A unique constraint was violated.
        public static let uniqueViolation = "23505"
        /// A foreign key constraint was violated.
        public static let foreignKeyViolation = "23503"
        /// A check constraint was violated.
        public static let checkViolation = "23514"
        /// A NOT NULL constraint was violated.
        public static let notNullViolation = "23502"
        /// Serialization failure under concurrent transactions.
        public static let serializationFailure = "40001"
        /// A deadlock was detected and this transaction chosen as the victim.
        public static let deadlockDetected = "40P01"
        /// The server is shutting down or an administrator ended the session.
        public static let adminShutdown = "57P01"
        /// The database does not exist.
        public static let invalidCatalogName = "3D000"
    }
}

extension StoreError {
    /// The store's error for a status change the lifecycle refuses.
    public init(_ refusal: TransitionRefusal) {
        switch refusal.kind {
        case .invalid: self = .invalid(refusal.message)
        case .conflict: self = .conflict(refusal.message)
        case .forbidden: self = .forbidden(refusal.message)
        }
    }
}
