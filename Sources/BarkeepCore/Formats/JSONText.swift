/// Writing JSON text by hand where the output must be exact and compact (SARIF fingerprints, quoted keys in paths).
enum JSONText {
    /// `string` as a JSON string literal: quotes, backslashes and control characters escaped, `/` and non-ASCII
    /// left as they are.
    static func quoted(_ string: String) -> String {
        var quoted = "\""
        quoted.reserveCapacity(string.utf8.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case "\u{08}": quoted += "\\b"
            case "\u{0C}": quoted += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// `strings` as a compact JSON object of string values with its keys sorted.
    static func object(strings: [String: String]) -> String {
        object(strings.map { (key: $0.key, value: quoted($0.value)) })
    }

    /// `members` (values already JSON text) as a compact JSON object with its keys sorted, so equal objects always
    /// give equal text.
    static func object(_ members: [(key: String, value: String)]) -> String {
        "{" + members.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
    }
}
