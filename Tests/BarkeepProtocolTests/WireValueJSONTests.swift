import BarkeepProtocol
import Foundation
import Testing

/// JSON values as JSONSerialization gives them on Linux, where an NSNumber of 0 or 1 also casts to Bool: integers and
/// booleans are still told apart.
@Suite("WireValue reads JSON numbers and booleans apart")
struct WireValueJSONTests {
    /// `text` parsed as JSONSerialization parses a tool call's arguments.
    static func parsed(_ text: String) throws -> Any {
        let object = try JSONSerialization.jsonObject(with: Data("{\"v\":\(text)}".utf8)) as? [String: Any]
        return try #require(object?["v"])
    }

    @Test("0 and 1 are integers, not booleans; true and false are booleans, not integers")
    func numbersAndBooleans() throws {
        for number in [0, 1, 2, 1234] {
            #expect(try Int(json: try Self.parsed(String(number))) == number)
            #expect(throws: ValueProblem.self) { try Bool(json: try Self.parsed(String(number))) }
        }
        #expect(try Bool(json: try Self.parsed("true")) == true)
        #expect(try Bool(json: try Self.parsed("false")) == false)
        #expect(throws: ValueProblem.self) { try Int(json: try Self.parsed("true")) }
        #expect(throws: ValueProblem.self) { try Int(json: try Self.parsed("1.5")) }
        #expect(try Int(json: 7) == 7)
        #expect(try Bool(json: true) == true)
    }
}
