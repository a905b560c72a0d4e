// The fuzz target `framer` (scripts/fuzz.sh) compiles this file with Core's ValueExcerpt into one module, where
// there is no BarkeepCore to import.
#if canImport(BarkeepCore)
    import BarkeepCore
#endif

/// Errors of framing, parsing and addressing. Each maps to one wire error code.
public enum ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A request line was longer than the limit.
    case lineTooLong(limit: Int)
    /// A request line was not valid UTF-8 or held a control character.
    case badLine(String)
    /// An address given on the command line or in the environment could not be read.
    case badAddress(String, String)
    /// A reply from the server did not follow the protocol.
    case badReply(String)

    /// The wire error code a server sends for this error.
    public var code: ErrorCode {
        switch self {
        case .lineTooLong: .tooLong
        case .badLine, .badAddress, .badReply: .badLine
        }
    }

    public var description: String {
        switch self {
        case .lineTooLong(let limit): "line longer than \(limit) bytes"
        case .badLine(let reason): reason
        case .badAddress(let address, let reason): "bad address \(ValueExcerpt.quoted(address)): \(reason)"
        case .badReply(let reason): "unexpected reply from the server: \(reason)"
        }
    }
}
