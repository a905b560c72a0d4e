/// Why bytes were refused as a screenshot (`ImageHeader.parse`): a sentence for the person who sent them.
public struct ImageProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence.
    public var message: String

    /// A problem saying `message`.
    public init(_ message: String) { self.message = message }

    /// The sentence.
    public var description: String { message }
}
