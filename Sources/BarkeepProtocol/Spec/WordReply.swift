import BarkeepCore

/// The one word of a reply that is always the same (`OK PONG`, `OK BYE`).
public protocol FixedWord: Sendable {
    /// The word after `OK`.
    static var word: String { get }
}

/// A reply of one fixed word and no fields (`OK PONG`): PING's and QUIT's.
public struct WordReply<Word: FixedWord>: CommandReply {
    /// The reply.
    public init() {}

    /// `OK WORD`.
    public func reply(version: Int) -> Reply { .ok(Word.word) }

    /// `{"reply": "WORD"}`.
    public var jsonBody: Any { ["reply": Word.word] }

    /// Nothing to read: a record before the `OK` line is a bad reply (the word is checked by `check(finalText:)`).
    public init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError) {
        guard records.isEmpty else { throw .badReply("\(command) sent records before OK") }
    }

    /// The reply.
    public static var example: WordReply { WordReply() }

    /// The text after `OK` must be the word.
    public static func check(finalText: String, command: String) throws(ProtocolError) {
        guard finalText == Word.word else { throw .badReply("\(command) answered \(ValueExcerpt.quoted(finalText))") }
    }
}
