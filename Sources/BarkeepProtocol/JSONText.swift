import Foundation

/// Compact JSON text of a value as the CLI and webhooks print it: what `JSONSerialization` writes with `.sortedKeys`
/// and `.withoutEscapingSlashes`, byte for byte, but written directly: on Linux `JSONSerialization` spends seconds on
/// the 100,000 rows of a large `findings --json` or `check --format json`, most of them comparing keys.
///
/// Only the types the CLI's JSON bodies hold are written here — strings, Swift integers and booleans, integral
/// `NSNumber`s, arrays, string-keyed dictionaries, `NSNull`; for anything else (a floating-point number, a date)
/// `text(of:)` returns nil and the caller falls back to `JSONSerialization`. Keys are sorted as `JSONSerialization`
/// sorts them (numeric, case-insensitive, forced ordering, in the system locale), once per distinct set of keys.
struct JSONText {
    private var output: [UInt8] = []
    /// The sorted order of each set of keys met so far (rows of one reply share theirs).
    private var orders: [[String]: [String]] = [:]
    /// The system locale, whose collation `JSONSerialization` sorts keys by.
    private static let systemLocale = Locale(identifier: "")

    /// The value's JSON text; nil when it holds a type this writer leaves to `JSONSerialization`.
    static func text(of value: Any) -> String? {
        var writer = JSONText()
        guard writer.write(value) else { return nil }
        return String(decoding: writer.output, as: UTF8.self)
    }

    private mutating func write(_ value: Any) -> Bool {
        // An NSNumber (a parsed JSON's) may be a boolean or a fraction: JSONSerialization's to write.
        if type(of: value) is NSNumber.Type { return false }
        switch value {
        case let string as String:
            writeString(string)
        case let number as Int:
            output += Array(String(number).utf8)
        case let number as Int64:
            output += Array(String(number).utf8)
        case let number as Int32:
            output += Array(String(number).utf8)
        case let flag as Bool:
            output += Array((flag ? "true" : "false").utf8)
        case let array as [Any]:
            output.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                guard write(element) else { return false }
            }
            output.append(UInt8(ascii: "]"))
        case let object as [String: Any]:
            output.append(UInt8(ascii: "{"))
            for (index, key) in sortedKeys(object).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key)
                output.append(UInt8(ascii: ":"))
                guard let element = object[key], write(element) else { return false }
            }
            output.append(UInt8(ascii: "}"))
        case is NSNull:
            output += Array("null".utf8)
        default:
            return false
        }
        return true
    }

    /// The object's keys in `JSONSerialization`'s `.sortedKeys` order.
    private mutating func sortedKeys(_ object: [String: Any]) -> [String] {
        let keys = object.keys.sorted()
        if let order = orders[keys] { return order }
        // The system (root) locale's collation, as JSONSerialization's: `_` before `-`, digits by value, letters
        // without case first, the lowercase one first on a tie.
        let order = keys.sorted { a, b in
            a.compare(
                b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex,
                locale: Self.systemLocale) == .orderedAscending
        }
        orders[keys] = order
        return order
    }

    /// A string literal, escaped as `JSONSerialization` escapes it: `"` and `\`, the C0 controls (`\b \f \n \r \t`
    /// or `\u00XX`), and nothing else (`/` stays, as `.withoutEscapingSlashes` asks).
    private mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): writeEscape(byte)
            case 0x08: writeEscape(UInt8(ascii: "b"))
            case 0x0C: writeEscape(UInt8(ascii: "f"))
            case 0x0A: writeEscape(UInt8(ascii: "n"))
            case 0x0D: writeEscape(UInt8(ascii: "r"))
            case 0x09: writeEscape(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// A backslash and `letter`: no array made for the two bytes.
    private mutating func writeEscape(_ letter: UInt8) {
        output.append(UInt8(ascii: "\\"))
        output.append(letter)
    }
}
