/// How an error message quotes a value it refuses: in single quotes, neutralised for a terminal, and cut to a short
/// prefix with its length in bytes when it is longer, so that a refusal of an 8 MiB value is a line, not 8 MiB:
/// `'aaaaaaaa…' (8388608 bytes)`.
///
/// Every message of the daemon, the CLI and MCP that repeats a value it was given quotes it through here; a value
/// the daemon itself bounds (a project name it stored) may be quoted through here too, and then loses nothing.
public enum ValueExcerpt {
    /// The Unicode scalars a message shows of a value at most.
    public static let maximumScalars = 40

    /// `value` quoted: `'value'` when it has at most `maximumScalars` scalars, else `'prefix…' (N bytes)`. Control
    /// characters and bidirectional marks are shown as `<U+XXXX>` (TerminalText).
    public static func quoted(_ value: some StringProtocol) -> String {
        let scalars = value.unicodeScalars
        // Scalars, not characters: one character may hold any number of combining marks.
        guard let end = scalars.index(scalars.startIndex, offsetBy: maximumScalars, limitedBy: scalars.endIndex),
            end < scalars.endIndex
        else { return "'" + TerminalText.neutralized(String(value)) + "'" }
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars[..<end])
        return "'" + TerminalText.neutralized(String(prefix)) + "…' (\(value.utf8.count) bytes)"
    }
}
