import BarkeepCore
import BarkeepProtocol

/// One kind of leased resource (a hook, a source) as its commands declare it: its noun, its record, and the least
/// role and summary of each command every leased resource has. `LeasedListRequest`, `LeasedStateRequest` and
/// `LeasedRemoveRequest` are those commands, once for every kind.
public protocol LeasedNoun: Sendable {
    /// The record its commands answer with.
    associatedtype Record: LeasedRecord
    /// The noun in lower case (`hook`); its commands' verb is the noun in upper case (`HOOK LIST`).
    static var noun: String { get }
    /// The least role that may run `command`.
    static func role(_ command: LeasedCommand) -> Role
    /// What `command` does, in one sentence.
    static func summary(_ command: LeasedCommand) -> String
}

extension LeasedNoun {
    /// The verb of its commands: the noun in upper case.
    public static var verb: String { noun.uppercased() }
}

/// The commands every leased resource has.
public enum LeasedCommand: String, Sendable, CaseIterable {
    /// `NOUN LIST [PROJECT]`.
    case list = "LIST"
    /// `NOUN PAUSE ID`.
    case pause = "PAUSE"
    /// `NOUN RESUME ID`.
    case resume = "RESUME"
    /// `NOUN REMOVE ID`.
    case remove = "REMOVE"
}

/// The record of a leased resource (`hook`, `source`).
public protocol LeasedRecord: WireFields {
    /// Its id.
    var id: Int { get }
    /// The record as the CLI's `--json` prints it (and the HTTP API's body).
    var listJSON: [String: Any] { get }
}

/// The id of a leased resource of kind `Noun`: a positive number, refused otherwise as `a hook id is a number`.
public struct LeasedID<Noun: LeasedNoun>: WireValue, Hashable {
    /// The database id.
    public var value: Int64

    /// The id `value`.
    public init(_ value: Int64) { self.value = value }

    /// Decimal digits naming a positive number.
    public init(wire: String) throws(ValueProblem) {
        guard let value = Int64(wire), value > 0 else { throw Self.problem }
        self.value = value
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A positive JSON integer.
    public init(json: Any) throws(ValueProblem) {
        guard let value = Int(jsonNumber: json), value > 0 else { throw Self.problem }
        self.value = Int64(value)
    }
    /// The number.
    public var json: Any { Int(value) }
    /// A positive integer.
    public static var schema: ValueSchema { .integer(minimum: 1) }
    /// 42.
    public static var example: LeasedID { LeasedID(42) }

    /// Why a text is no id, today's wording.
    private static var problem: ValueProblem { ValueProblem("a \(Noun.noun) id is a number") }
}
