import Foundation
import Testing

@testable import BarkeepProtocol

/// `JSONText` writes what `JSONSerialization` (`.sortedKeys`, `.withoutEscapingSlashes`) writes, byte for byte.
@Suite("JSONText")
struct JSONTextTests {
    private func serialized(_ value: Any) throws -> String {
        String(
            decoding: try JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]),
            as: UTF8.self)
    }

    @Test("keys of every shape the CLI's bodies have, and more, sort as JSONSerialization sorts them")
    func keyOrder() throws {
        let keys = [
            "a", "A", "b", "B", "_", "a_b", "ab", "a_", "aB", "Ab", "a1", "a2", "a10", "a_10", "a_9", "open",
            "open_after",
            "screen", "screens", "screen_id", "fail_on", "failure", "file", "first_seen", "z", "Z", "1", "10", "2", "-",
            "a-b", "é", "e", "f", "ü", "u", "v", "ß", "ss", "",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let chosen = keys.shuffled(using: &generator).prefix(Int.random(in: 1...keys.count, using: &generator))
            let object = Dictionary(uniqueKeysWithValues: chosen.map { ($0, $0 as Any) })
            #expect(JSONText.text(of: object) == (try serialized(object)), "\(Array(chosen))")
        }
    }

    @Test("strings escape as JSONSerialization escapes them; integers, booleans, null, arrays, nesting")
    func values() throws {
        var strings = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        strings += ["a/b", "\"quoted\"", "back\\slash", "é", "日本", "😀", "\u{2028}", "\u{7F}", "\u{85}", "tab\there"]
        let object: [String: Any] = [
            "strings": strings, "int": 42, "negative": -7, "big": Int64.max, "small": Int32.min, "yes": true,
            "no": false, "null": NSNull(),
            "nested": ["list": [1, 2, ["deep": "x"]] as [Any], "empty": [:] as [String: Any]],
            "empty": [] as [Any],
        ]
        #expect(JSONText.text(of: object) == (try serialized(object)))
    }

    @Test("a floating-point number or a parsed JSON's NSNumber is left to JSONSerialization (nil)")
    func fallback() throws {
        #expect(JSONText.text(of: ["ratio": 0.5]) == nil)
        let parsed = try JSONSerialization.jsonObject(with: Data("{\"a\": true, \"b\": 1}".utf8))
        #expect(JSONText.text(of: parsed) == nil)
        #expect(try Record.jsonText(["ratio": 0.5]) == (try serialized(["ratio": 0.5])))
    }

    @Test("the CLI's JSON writes what a terminal would act on as an escape, DEL included; printable ASCII as it is")
    func neutralized() throws {
        #expect(try Record.jsonText(["s": "a\u{7F}b"]) == #"{"s":"a\u007fb"}"#)
        #expect(try Record.jsonText(["s": "x\u{202E}y\u{85}é"]) == #"{"s":"x\u202ey\u0085é"}"#)
        #expect(try Record.jsonText(["s": "plain ~ text", "n": 1]) == #"{"n":1,"s":"plain ~ text"}"#)
    }
}
