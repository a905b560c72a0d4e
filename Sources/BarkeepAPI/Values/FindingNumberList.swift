import BarkeepCore
import BarkeepProtocol

/// `N[,N…]`: findings named by their numbers in a project (FINDING SET, FINDING ASSIGN), in the order given,
/// repeats kept (the handler drops them; a list of one number changes one finding as one).
public struct FindingNumberList: WireValue, Hashable {
    /// The numbers.
    public var numbers: [Int]

    /// The list of `numbers`, each 1 to 2147483647.
    public init(_ numbers: [Int]) { self.numbers = numbers }

    /// Comma-separated numbers; an empty one or any other word is refused as a finding's number always was.
    public init(wire: String) throws(ValueProblem) {
        var numbers: [Int] = []
        for word in wire.split(separator: ",", omittingEmptySubsequences: false) {
            numbers.append(try ProjectNumber(wire: String(word)).value)
        }
        self.numbers = numbers
    }
    /// Comma-separated.
    public var wire: String { numbers.map { String($0) }.joined(separator: ",") }
    /// A JSON array of at least one number.
    public init(json: Any) throws(ValueProblem) {
        guard let array = json as? [Any], !array.isEmpty else {
            throw ValueProblem(predicate: "must be an array of integers")
        }
        var numbers: [Int] = []
        for element in array { numbers.append(try ProjectNumber(json: element).value) }
        self.numbers = numbers
    }
    /// The numbers.
    public var json: Any { numbers }
    /// An array of integers of at least 1.
    public static var schema: ValueSchema { .array(.integer(minimum: 1)) }
    /// 7 and 12.
    public static var example: FindingNumberList { FindingNumberList([7, 12]) }
}
