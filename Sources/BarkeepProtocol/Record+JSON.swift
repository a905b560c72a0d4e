import BarkeepCore
import Foundation

extension Record {
    /// The record as a JSON object: keys in snake_case, the named keys as integers or lists (comma-separated values).
    public func json(integers: Set<String> = [], lists: Set<String> = []) -> [String: Any] {
        var object: [String: Any] = [:]
        for (key, value) in fields {
            let name = key.replacingOccurrences(of: "-", with: "_")
            if integers.contains(key), let number = Int64(value) {
                object[name] = number
            } else if lists.contains(key) {
                object[name] = value.isEmpty ? [] : value.split(separator: ",").map(String.init)
            } else {
                object[name] = value
            }
        }
        return object
    }

    /// `value` as compact JSON text on one line, keys sorted and `/` unescaped: how the CLI prints JSON, and the
    /// body of a webhook. What TerminalText neutralises is written as a `\uXXXX` escape (JSONSerialization escapes
    /// the C0 controls alone), so the text a terminal shows can neither be reordered nor broken by a value, and a
    /// JSON reader still gets the value as it was.
    public static func jsonText(_ value: Any) throws -> String {
        let text: String
        if let written = JSONText.text(of: value) {
            text = written
        } else {
            let data = try JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
            text = String(decoding: data, as: UTF8.self)
        }
        // Outside strings JSON text is ASCII: any such scalar is inside a string, where an escape means the same.
        // Both writers escape the C0 controls, so text of printable ASCII alone (most of it: a large reply's rows)
        // holds none, which its bytes tell at once.
        guard text.utf8.contains(where: { $0 >= 0x7F }),
            text.unicodeScalars.contains(where: TerminalText.isNeutralized)
        else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if TerminalText.isNeutralized(scalar) {
                escaped.append(contentsOf: ("\\u" + TerminalText.hex(scalar).lowercased()).unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
