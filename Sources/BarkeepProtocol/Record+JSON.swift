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
    /// body of a webhook.
    public static func jsonText(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
