/// The skeleton of Barkeep's two double-quoted forms, the protocol's quoted words (BarkeepProtocol's `Quoting`) and
/// logfmt values (`Logfmt`): the text in double quotes, with `"`, `\`, newline and tab escaped by a backslash.
///
/// The two differ in the other control characters, so each passes its own rule: logfmt keeps them readable (`\r`,
/// `\u001b`), since a log is read by people and its parsers take those escapes; the protocol has no escape for them
/// (docs/protocol.md) and turns each into a space, which keeps the line valid.
public enum QuotedText {
    /// Whether `scalar` is a control character: below U+0020, or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }

    /// `value` in double quotes: `"`, `\`, newline and tab escaped, every other control character replaced by what
    /// `otherControl` makes of it, everything else as it is.
    public static func quote(_ value: String, otherControl: (Unicode.Scalar) -> String) -> String {
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case _ where isControl(scalar): quoted += otherControl(scalar)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
