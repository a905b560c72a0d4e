import BarkeepCore
import BarkeepProtocol

/// `PING`: answered `OK PONG` straight from the request's bytes.
public struct PingRequest: CommandRequest {
    /// `OK PONG`.
    public typealias Reply = WordReply<Pong>
    /// The request.
    public init() {}
    /// The command.
    public static let spec = CommandSpec(
        "PING", role: nil, effect: .read,
        summary: "Checks that the daemon answers; it always does, allocating nothing.",
        http: .none(reason: "the line protocol's liveness check; an HTTP client has its status codes"))
    /// No arguments.
    public static let fields: [Field<PingRequest>] = []
}

/// PING's word.
public enum Pong: FixedWord {
    /// `PONG`.
    public static let word = "PONG"
}

/// `QUIT`: answered `OK BYE`, then the connection closes.
public struct QuitRequest: CommandRequest {
    /// `OK BYE`.
    public typealias Reply = WordReply<Bye>
    /// The request.
    public init() {}
    /// The command.
    public static let spec = CommandSpec(
        "QUIT", role: nil, effect: .read, summary: "Ends the connection once every earlier reply is sent.",
        http: .none(reason: "ends a line-protocol connection; HTTP has Connection: close"))
    /// No arguments.
    public static let fields: [Field<QuitRequest>] = []
}

/// QUIT's word.
public enum Bye: FixedWord {
    /// `BYE`.
    public static let word = "BYE"
}

/// `HELLO [protocol=N] [token=SECRET]`: says which protocol version the client speaks and, with a token, who it is.
public struct HelloRequest: CommandRequest {
    /// `OK protocol= server= version= role= max-upload=`.
    public typealias Reply = OKReply<Greeting>
    /// The protocol version the client speaks; nil: `ProtocolVersion.assumed`.
    public var protocolVersion: SpokenVersion?
    /// The token's secret; nil: no token (a Unix-socket owner keeps its role, anyone else has none).
    public var token: String?

    /// An empty request, filled by decoding.
    public init() {}
    /// A HELLO speaking `protocolVersion`, with `token` when given.
    public init(protocolVersion: Int, token: String?) {
        self.protocolVersion = SpokenVersion(number: protocolVersion)
        self.token = token
    }

    /// The command.
    public static let spec = CommandSpec(
        "HELLO", role: nil, effect: .read,
        summary: "Says the protocol version the client speaks and, with a token, authenticates the connection.",
        http: .none(reason: "the line protocol's handshake; HTTP authenticates every request"), readsPrimary: true)
    /// Its keys.
    public static let fields: [Field<HelloRequest>] = [
        Field("protocol", \.protocolVersion, "The protocol version the client speaks."),
        Field("token", \.token, "An API token's secret."),
    ]
}

/// A protocol version this server speaks (`ProtocolVersion.supported`), as HELLO's `protocol=` names it.
public struct SpokenVersion: WireValue, Equatable {
    /// The version.
    public var number: Int

    /// The version `number`, unchecked (a client sending what it speaks).
    public init(number: Int) { self.number = number }

    /// A version this server speaks, refused as the server has always worded it (with a hint for protocol 1).
    public init(wire: String) throws(ValueProblem) {
        guard let number = ProtocolVersion.spoken(wire) else {
            throw ValueProblem(
                "protocol \(ValueExcerpt.quoted(wire)) is not supported; this server speaks "
                    + ProtocolVersion.supported.map(String.init).joined(separator: " and ")
                    + (wire == "1" ? " (runs and findings are numbered per project: upgrade barkeep)" : ""))
        }
        self.number = number
    }

    /// Decimal.
    public var wire: String { String(number) }

    /// A JSON integer this server speaks.
    public init(json: Any) throws(ValueProblem) {
        let number = try Int(json: json)
        try self.init(wire: String(number))
    }

    /// The number.
    public var json: Any { number }
    /// An integer of the versions spoken.
    public static var schema: ValueSchema {
        .integer(minimum: ProtocolVersion.supported.lowerBound, maximum: ProtocolVersion.supported.upperBound)
    }
    /// The current version.
    public static var example: SpokenVersion { SpokenVersion(number: ProtocolVersion.current) }
}

/// HELLO's `OK` fields: the connection's terms.
public struct Greeting: WireFields {
    /// The protocol version the connection speaks from now on.
    public var protocolVersion = ProtocolVersion.assumed
    /// The daemon's id.
    public var server = ""
    /// The daemon's version.
    public var version = ""
    /// The connection's role; `none` before a token.
    public var role = "none"
    /// The largest upload one request may announce, in bytes.
    public var maximumUpload: Int?

    /// An empty value, filled by decoding.
    public init() {}

    /// The role as Core's vocabulary; nil for `none`.
    public var grantedRole: Role? { Role(rawValue: role) }

    /// The fields, in wire order.
    public static let fields: [Field<Greeting>] = [
        Field("protocol", \.protocolVersion, "The protocol version the connection speaks."),
        Field("server", \.server, "The daemon's id."),
        Field("version", \.version, "The daemon's version."),
        Field("role", \.role, QuantityText.alternatives(Role.allCases.map(\.rawValue) + ["none"]) + "."),
        Field(UploadLimit.helloKey, \.maximumUpload, "The largest upload one request may announce, in bytes."),
    ]
}

/// `STATS`: the daemon's counters, from memory.
public struct StatsRequest: CommandRequest {
    /// One `stats` record.
    public typealias Reply = RecordsReply<StatsRecord>
    /// The request.
    public init() {}
    /// The command.
    public static let spec = CommandSpec(
        "STATS", role: .reader, effect: .read,
        summary: "The daemon's connections, commands served, uptime and database pool, answered from memory.",
        http: .none(reason: "one daemon's own counters, and behind a load balancer any daemon answers"))
    /// No arguments.
    public static let fields: [Field<StatsRequest>] = []
}
