/// A request line split into its verb and arguments.
///
/// The verb is matched case-insensitively and kept in upper case. Arguments are separated by spaces or tabs.
public struct Request: Sendable, Equatable {
    /// The command name, upper-cased.
    public let verb: String
    /// The arguments after the verb, in order.
    public let arguments: [String]

    /// Creates a request.
    public init(verb: String, arguments: [String] = []) {
        self.verb = verb.uppercased()
        self.arguments = arguments
    }

    /// Splits a line (already framed and validated) into a request; nil for a blank line.
    public init?(line: String) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first else { return nil }
        self.init(verb: verb, arguments: Array(words.dropFirst()))
    }

    /// The request as one line, without its terminator.
    public var line: String { ([verb] + arguments).joined(separator: " ") }
}
