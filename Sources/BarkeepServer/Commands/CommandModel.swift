import BarkeepCore
import BarkeepProtocol
import BarkeepSources
import BarkeepStore

/// Who is on the other end of a connection, and what it may do. Immutable: authenticating replaces it, so a
/// command always sees the identity it was sent under.
public final class Session: Sendable {
    /// Whether the peer came through the Unix socket.
    public let isLocal: Bool
    /// The peer's uid (Unix socket only, from SO_PEERCRED).
    public let uid: UInt32?
    /// The peer's address for logs: `127.0.0.1:50312`, or `unix:uid=1000`.
    public let peerName: String
    /// What the peer may do; nil until it authenticates (or, on the Unix socket, when it is not the owner).
    public let role: Role?
    /// The token that gave the role, if a token did.
    public let tokenID: Int64?
    /// Who the peer is in the event log: `token:NAME`, `local:USER`, or `anonymous`.
    public let actor: String
    /// The role the peer has without a token (admin for the Unix-socket owner).
    public let baseRole: Role?
    /// The actor the peer is without a token.
    public let baseActor: String
    /// HELLOs with a wrong token so far on this connection (SessionCommands.maximumFailedHellos closes it).
    public let failedHellos: Int
    /// The protocol version the peer speaks (`HELLO protocol=`), `ProtocolVersion.assumed` until it names one.
    public let protocolVersion: Int

    /// A session with no token yet.
    public convenience init(isLocal: Bool, uid: UInt32?, peerName: String, role: Role?, actor: String) {
        self.init(
            isLocal: isLocal, uid: uid, peerName: peerName, role: role, tokenID: nil, actor: actor, baseRole: role,
            baseActor: actor, failedHellos: 0, protocolVersion: ProtocolVersion.assumed
        )
    }

    private init(
        isLocal: Bool,
        uid: UInt32?,
        peerName: String,
        role: Role?,
        tokenID: Int64?,
        actor: String,
        baseRole: Role?,
        baseActor: String,
        failedHellos: Int,
        protocolVersion: Int
    ) {
        self.isLocal = isLocal
        self.uid = uid
        self.peerName = peerName
        self.role = role
        self.tokenID = tokenID
        self.actor = actor
        self.baseRole = baseRole
        self.baseActor = baseActor
        self.failedHellos = failedHellos
        self.protocolVersion = protocolVersion
    }

    /// This session after `change`.
    func applying(_ change: Authentication) -> Session {
        switch change {
        case .token(let id, let name, let role):
            Session(
                isLocal: isLocal, uid: uid, peerName: peerName, role: role, tokenID: id, actor: "token:" + name,
                baseRole: baseRole, baseActor: baseActor, failedHellos: failedHellos, protocolVersion: protocolVersion
            )
        case .cleared, .failed:
            Session(
                isLocal: isLocal, uid: uid, peerName: peerName, role: baseRole, tokenID: nil, actor: baseActor,
                baseRole: baseRole, baseActor: baseActor, failedHellos: failedHellos + (change == .failed ? 1 : 0),
                protocolVersion: protocolVersion
            )
        }
    }

    /// This session speaking protocol `version` from now on.
    func speaking(_ version: Int) -> Session {
        Session(
            isLocal: isLocal, uid: uid, peerName: peerName, role: role, tokenID: tokenID, actor: actor,
            baseRole: baseRole, baseActor: baseActor, failedHellos: failedHellos, protocolVersion: version
        )
    }
}

/// What running a command asks of the connection besides sending its reply.
public struct CommandResult: Sendable {
    /// The reply to send.
    public var reply: Reply
    /// Close the connection after the reply.
    public var closesConnection = false
    /// A change to the connection's identity (HELLO, or a token found revoked).
    public var authentication: Authentication? {
        get { changes.authentication }
        set { changes.authentication = newValue }
    }
    /// The protocol version the connection speaks from now on (a successful HELLO); nil: unchanged.
    public var protocolVersion: Int? {
        get { changes.protocolVersion }
        set { changes.protocolVersion = newValue }
    }
    /// Switch the connection to streaming events (WATCH).
    public var watch: WatchStart? {
        get { changes.watch }
        set { changes.watch = newValue }
    }

    /// What a few commands change besides replying (HELLO, WATCH).
    private struct Changes: Sendable {
        var authentication: Authentication?
        var protocolVersion: Int?
        var watch: WatchStart?
    }

    /// `Changes`, boxed when there are some: a result moves several times on its way from the handler to the
    /// connection, and inline they would make every result about five times as wide (a `WatchStart` alone takes 60
    /// bytes), each move a copy of them.
    private indirect enum Boxed: Sendable {
        case changes(Changes)
    }

    private var boxed: Boxed?

    /// Whether the result asks more of the connection than a reply (and maybe a close): a session change or a
    /// WATCH. Nearly every result does not, and the connection then reads none of those fields.
    var changesConnection: Bool { boxed != nil }

    private var changes: Changes {
        get {
            guard case .changes(let changes) = boxed else { return Changes() }
            return changes
        }
        set { boxed = .changes(newValue) }
    }

    /// A result that only replies.
    public init(_ reply: Reply) { self.reply = reply }

    /// A result that replies with a typed reply, encoded for protocol `version` (the session's).
    public init(_ reply: some CommandReply, version: Int) { self.reply = reply.reply(version: version) }
}

/// A change to a connection's identity.
public enum Authentication: Sendable, Equatable {
    /// Authenticated by a token.
    case token(id: Int64, name: String, role: Role)
    /// Back to what the peer is without a token.
    case cleared
    /// A HELLO with a wrong token: back to what the peer is without a token, one more failure counted.
    case failed
}

/// Where a WATCH starts.
public struct WatchStart: Sendable, Equatable {
    /// The project's id.
    public var projectID: Int64
    /// The project's name.
    public var project: String
    /// Send events with a sequence number above this.
    public var since: Int64
    /// Send only the events this matches.
    public var filter = EventFilter()
}

/// What a handler decided: a result now, or work for the database pool whose result comes later.
public enum CommandAction: Sendable {
    /// The result, computed without the database.
    case done(CommandResult)
    /// Work to run on a pool thread (never on the event loop); its result is applied when it completes.
    case database(@Sendable (PostgresConnection) throws -> CommandResult)
    /// Work to run on a pool thread that checks the connection's token itself, in the same statement as its first
    /// read: one round trip fewer than `database`, whose token is checked apart first. It is given the token's id
    /// (nil: none to check) and returns `Server.revokedToken` when that token is no longer active.
    case databaseCheckingToken(@Sendable (PostgresConnection, Int64?) throws -> CommandResult)
    /// A reply kept at a status version: the event loop looks the project's status version up (checking the token)
    /// on its own connection and sends the kept bytes when they are still current; otherwise, or when the loop's
    /// lookup is unavailable, it runs `otherwise` as `databaseCheckingToken`.
    case keptReply(KeptReply, otherwise: @Sendable (PostgresConnection, Int64?) throws -> CommandResult)
    /// A reply that grows with the data (`FINDINGS`, `MINE`): read on a pool thread a page at a time, each page only
    /// once the client has read enough of the ones before (the token checked first, as for `database`).
    case streamed(StreamedReply)
    /// A verdict on one finding, written with the others on its project that arrive while one is being written (the
    /// server's VerdictQueue: group commit); its reply is made of its own change once their transaction committed.
    /// The token is checked first, as for `database`.
    case verdict(GroupedVerdict)
}

/// A verdict on one finding for the group commit, and how its reply is made of its change.
public struct GroupedVerdict: Sendable {
    /// The project's name, as the command gave it.
    public var project: String
    /// The verdict.
    public var verdict: FindingVerdict
    /// The reply to the command, made of the verdict's change (a refusal is thrown as the command's error).
    public var reply: @Sendable (FindingChange) throws -> CommandResult

    /// Creates the verdict's work.
    public init(
        project: String, verdict: FindingVerdict, reply: @escaping @Sendable (FindingChange) throws -> CommandResult
    ) {
        self.project = project
        self.verdict = verdict
        self.reply = reply
    }
}

/// An encoded reply kept while a project's status version stays `version` (`StatusCache`).
public struct KeptReply: Sendable {
    /// The project whose status version decides.
    public var project: String
    /// The status version the reply was made at.
    public var version: String
    /// The reply, encoded.
    public var bytes: [UInt8]
    /// The cache it is kept in, and its entry's use there.
    public var cache: StatusCache<[UInt8]>
    public var use: StatusCache<[UInt8]>.Use

    /// To be called when the reply is sent `count` times because its version was found current: the cache counts
    /// as many hits.
    public func wasSent(count: Int = 1) { cache.noteHit(use, count: count) }
}

/// A refusal from a handler: one protocol error code and a message safe to show, and the argument it is about
/// when it is about one (the line protocol's `ERR` has no place for it; the HTTP API's error body names it).
public struct CommandError: Error, Sendable, Equatable {
    /// The wire code.
    public var code: ErrorCode
    /// The message.
    public var message: String
    /// The wire key (or positional's name) of the one argument refused; nil: none, or the request as a whole.
    public var key: String?

    /// Creates an error, about the argument `key` when given.
    public init(_ code: ErrorCode, _ message: String, key: String? = nil) {
        self.code = code
        self.message = message
        self.key = key
    }

    /// What the client is told for `error` when the request itself is at fault (a bad argument, an unknown or taken
    /// name, a value the data's rules refuse); nil when the server or the database failed. The one mapping of such
    /// errors, for replies and for the refusals a sync source records.
    public init?(refusing error: any Error) {
        switch error {
        case let error as CommandError: self = error
        case StoreError.notFound(let message): self.init(.notFound, message)
        case StoreError.conflict(let message): self.init(.conflict, message)
        case StoreError.invalid(let message): self.init(.badArgument, message)
        case StoreError.forbidden(let message): self.init(.forbidden, message)
        case SourceError.tooLong(let message): self.init(.tooLong, message)
        case let error as StoreError where error.sqlState == PostgresError.Code.uniqueViolation:
            self.init(.conflict, "that already exists")
        default: return nil
        }
    }
}

/// A request that passed the command table's checks, with what the handler needs.
public struct CommandInput: Sendable {
    /// The request, with a two-word command's subverb removed from its arguments.
    public var request: Request
    /// Who sent it.
    public var session: Session
    /// The upload, for commands that take one.
    public var payload: [UInt8]?
    /// The server running the command, for its identity and counters.
    public var server: Server

    /// Positional argument `index` (the table has checked the count).
    public func argument(_ index: Int) -> String { request.arguments[index] }

    /// A keyword's value, or nil.
    public func keyword(_ key: String) -> String? { request.keyword(key) }

    /// Every value of a repeatable key, in order.
    public func keywords(_ key: String) -> [String] { request.keywords(key) }
}
