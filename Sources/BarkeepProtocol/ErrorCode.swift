/// The stable error codes of `ERR <CODE> <message>` replies. Clients match on these, never on the message.
public enum ErrorCode: String, Sendable, CaseIterable {
    /// The line was not valid UTF-8 or held a control character.
    case badLine = "BADLINE"
    /// The line was longer than the server's limit.
    case tooLong = "TOOLONG"
    /// No such command.
    case unknown = "UNKNOWN"
    /// Wrong number or form of arguments.
    case badArgument = "BADARG"
    /// The command needs a token and none (or an invalid one) was given.
    case noAuth = "NOAUTH"
    /// The token's role may not run this command.
    case forbidden = "FORBIDDEN"
    /// The named thing does not exist.
    case notFound = "NOTFOUND"
    /// The change conflicts with what is stored.
    case conflict = "CONFLICT"
    /// The server is saturated; retry later.
    case busy = "BUSY"
    /// The database is unreachable; retry later.
    case unavailable = "UNAVAILABLE"
    /// A bug or an unexpected failure on the server; details are in its log.
    case `internal` = "INTERNAL"
}
